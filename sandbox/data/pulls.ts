import { agents, answers, claims, documents, drivingRecords } from "./extras";
import { buildParts, type Line, type PullVariant } from "./lines";
import { address, person, type Address } from "./people";
import { CARRIERS, COMMERCIAL_CARRIERS, repriceFromVehicles, type Policy, type PolicyStatus } from "./policies";
import { createRandom, flat, isoDaysFrom, type Random } from "./random";
import { TEAM_AGENTS } from "./team";
import { QUOTE_WIDGET_ID, seededWidgetIdFor } from "./widgets";
import type { SandboxPull } from "./sandbox-pull";
import { restrictToType, type PullType } from "./types";

// The seeded book of linked accounts: a deterministic mix of every common line of business,
// pull types besides PULLING_DATA, a few failed links, one child pull, and one account whose
// strings are hostile on purpose. Every id and value comes from the seeded stream.

export type { Line, PullType, PullVariant, SandboxPull };

const LINES: Line[] = [
  "auto",
  "home+auto",
  "home",
  "renters+auto",
  "condo+umbrella",
  "auto",
  "home+auto",
  "flood",
  "landlord",
  "commercial",
  "life+auto",
  "home+auto+umbrella",
];

/** Addresses are unique items: the same address object may be named by several records. */
/** The developer data a link was made with: where the lead came from. */
const metaData = (source: string, campaign: string | undefined) => (campaign ? { source, campaign } : { source });

function uniqueById(addresses: Address[]): Address[] {
  const seen = new Set<string>();
  return addresses.filter((a) => !seen.has(a.address_id) && Boolean(seen.add(a.address_id)));
}

function funnel(random: Random, policies: Policy[]) {
  const stage = random.pick(["WORKING", "WORKING", "WON", "LOST"] as const);
  // A PullAssignee is one of the team's agents, without the role.
  const agent = random.chance(0.8) ? random.pick(TEAM_AGENTS) : null;
  const assignee = agent
    ? { agent_id: agent.agent_id, email: agent.email, first_name: agent.first_name, last_name: agent.last_name }
    : null;
  const total = policies.reduce((sum, p) => sum + (p.total_premium_cents ?? 0), 0);
  return { assignee, premium: stage === "WON" ? Math.round(total * 0.95) / 100 : null, stage };
}

function policyCheck(random: Random, status: string | null) {
  if (status === null) return null;
  return {
    policy_check_status: status,
    checked_at: null,
    requirements: [
      { name: "Liability limits at least 100/300/100", met: status === "COMPLIANT" || random.chance(0.5) },
    ],
  };
}

/** One linked account of the given line of business (SUCCESS). */
export function buildPullForLine(random: Random, now: Date, line: Line, variant: PullVariant = {}): SandboxPull {
  const pullId = random.uuid();
  const hostile = variant.hostile ?? false;
  const holder = person(random, { now, minAge: 22, maxAge: 78 });
  if (hostile) {
    holder.first = "<script>alert('x')</script>";
    holder.last = `O'Neil "Robert'); DROP TABLE pulls;--"`;
  }
  // Unlimited PIP is Michigan's: such an account lives there.
  const home = address(random, "MAILING", variant.unlimitedPip ? "MI" : undefined);
  const commercial = line === "commercial";
  const carrier = variant.carrier ?? (commercial ? random.pick(COMMERCIAL_CARRIERS) : random.pick(CARRIERS));
  const parts = buildParts(random, now, line, variant, holder, home, carrier);
  const policies = parts.policies;
  for (const p of policies) {
    p.is_monoline = policies.length === 1;
    if (p.vehicles.length > 0) repriceFromVehicles(p);
  }
  const checkStatus = random.pick(["COMPLIANT", "COMPLIANT", "NOT_COMPLIANT", "REVIEW_REQUIRED", null]);
  if (checkStatus) for (const p of policies) p.policy_check = policyCheck(random, checkStatus);

  const driverIds = parts.drivers.map((d) => d.driver_id);
  const incidents: Address[] = [];
  const claimList = claims(random, now, policies, driverIds, incidents, variant.withHistory ?? false);
  const records = drivingRecords(
    random,
    now,
    line === "commercial" ? [] : driverIds,
    (variant.withHistory ?? false) && !commercial,
  );
  const docs = documents(random, now, pullId, policies, hostile);
  const offices: Address[] = [];
  const agentList = agents(random, policies, home.state, offices);
  const type = variant.type ?? "PULLING_DATA";
  const alias = commercial ? "business-intake" : random.pick(["get-a-quote", "get-a-quote", "renewal-review"]);
  const special = type !== "PULLING_DATA" || line === "none";

  const pull: SandboxPull = {
    pull_id: pullId,
    status: "SUCCESS",
    type,
    account_identifier: flat("acct_", random.digits(10)),
    first_name: holder.first,
    middle_name: holder.middle,
    last_name: holder.last,
    email: null,
    account_email: random.chance(0.9) ? holder.email : null,
    phone: holder.phone,
    mobile_phone: random.chance(0.8) ? holder.phone : null,
    home_phone: random.chance(0.3) ? `+1${random.int(201, 989)}${random.digits(7)}` : null,
    work_phone: commercial || random.chance(0.15) ? `+1${random.int(201, 989)}${random.digits(7)}` : null,
    work_phone_extension: null,
    insurance_provider_name: carrier[0],
    insurance_provider_friendly_name: carrier[1],
    team_id: null, // filled in by the server with its team
    widget_id: seededWidgetIdFor(alias), // the link of that alias (data/widgets.ts)
    // The object the agency's link sent, as the service serves it back (service-notes, "Pulls").
    meta_data: random.chance(0.85)
      ? metaData(
          random.pick(["website", "facebook-ad", "referral", "renewal-campaign"]),
          random.chance(0.3) ? `spring-${now.getUTCFullYear()}` : undefined,
        )
      : null,
    is_archived: random.chance(0.05),
    // Not in the spec's table, but on every published pull (service-notes, "Real payloads").
    deleted_at: null,
    // Pulls of the other types, and empty accounts, are a few days old, so the newest pull of a book is a full one.
    created_at: isoDaysFrom(now, special ? -random.int(2, 89) - random.next() : -random.int(0, 89) - random.next()),
    public_alias: alias,
    public_url: flat("https://link.example.com/", alias),
    encountered_mfa: random.chance(0.2),
    no_policies: false,
    no_drivers: false,
    no_documents: false,
    no_claims: false,
    no_loss_events: false,
    parent_pull_id: null,
    policy_check_status: checkStatus,
    // Which rules gave the seeded status is not known; a run (flows/policy-check.ts) fills it.
    policy_check_results: null,
    skipped_product_types: variant.skippedProductTypes ?? null,
    policies,
    drivers: parts.drivers,
    documents: docs,
    addresses: uniqueById([...parts.addresses, ...incidents, ...offices]),
    claims: claimList,
    driving_records: records,
    loss_events: parts.lossEvents,
    agents: agentList,
    answers: answers(random, now, pullId, holder, variant.withFileUpload ?? false),
    funnel: variant.withFunnel ? funnel(random, policies) : null,
  };
  if (pull.work_phone && random.chance(0.5)) pull.work_phone_extension = String(random.int(100, 9999));
  return withFlags(restrictToType(random, pull, type));
}

/** The no_* flags say what the account has none of; they follow the lists. */
function withFlags(pull: SandboxPull): SandboxPull {
  const empty = (key: string) => !Array.isArray(pull[key]) || (pull[key] as unknown[]).length === 0;
  pull.no_policies = empty("policies");
  pull.no_drivers = empty("drivers");
  pull.no_documents = empty("documents");
  pull.no_claims = empty("claims");
  pull.no_loss_events = empty("loss_events");
  return pull;
}

const TYPE_BY_SLOT: Partial<Record<number, PullType>> = {
  11: "SERVICING",
  14: "CONTACT_ME",
  17: "MANUAL_ENTRY",
  20: "DOCUMENT_UPLOAD",
  23: "SERVICING",
  26: "AGENT",
  29: "POLICY_LOOKUP",
  31: "DOCUMENT_PARSING",
};
const SKIPPED_BY_SLOT: Partial<Record<number, string[]>> = {
  3: ["commercial"],
  13: ["commercial", "agent"],
  21: ["personal"],
};
const STATUSES_BY_SLOT: Partial<Record<number, Partial<Record<string, PolicyStatus>>>> = {
  6: { AUTO: "PENDING_CANCELLATION" },
  13: { HOMEOWNERS: "CANCELLED" },
  15: { RENTERS: "PENDING_ACTIVATION" },
  16: { UMBRELLA: "QUOTE" },
  25: { AUTO: "EXPIRED" },
  27: { RENTERS: "UNVERIFIED" },
};

function buildPull(random: Random, now: Date, index: number, lines: readonly Line[]): SandboxPull {
  // Slots repeat every 36 pulls, so each book of 36 shows every feature at least once.
  const slot = index % 36;
  const line: Line = slot === 19 ? "none" : (lines[index % lines.length] ?? "auto");
  return buildPullForLine(random, now, line, {
    hostile: index === 7,
    perMile: slot === 5,
    expiresInDays: index % 9 === 0 ? random.int(5, 28) : undefined,
    skippedProductTypes: SKIPPED_BY_SLOT[slot] ?? null,
    withFileUpload: index % 4 === 1,
    withFunnel: index % 5 === 0,
    type: TYPE_BY_SLOT[slot],
    excludedDriver: slot % 12 === 6,
    unlimitedPip: slot % 12 === 1,
    secondMortgage: slot % 12 === 1 ? true : undefined,
    legacyMortgagee: slot % 12 === 2 ? true : undefined,
    withHistory: slot % 3 === 0,
    mixedStatuses: slot % 4 === 2,
    statuses: STATUSES_BY_SLOT[slot],
    lifeType: slot === 22 ? "WHOLE_LIFE" : undefined,
  });
}

/** A failed link: the consumer's credentials were refused, or the carrier's site failed. */
export function failedPull(random: Random, now: Date, status: "NOT_AUTHENTICATED" | "PROVIDER_ERROR"): SandboxPull {
  const holder = person(random);
  const empty = {
    policies: [],
    drivers: [],
    documents: [],
    addresses: [],
    claims: [],
    driving_records: [],
    loss_events: [],
    agents: [],
    answers: [],
  };
  return {
    ...empty,
    pull_id: random.uuid(),
    status,
    type: "PULLING_DATA",
    account_identifier: null,
    first_name: null,
    middle_name: null,
    last_name: null,
    email: status === "NOT_AUTHENTICATED" ? holder.email : null,
    account_email: null,
    phone: null,
    mobile_phone: null,
    home_phone: null,
    work_phone: null,
    work_phone_extension: null,
    insurance_provider_name: "geico",
    insurance_provider_friendly_name: "GEICO",
    team_id: null,
    widget_id: QUOTE_WIDGET_ID,
    meta_data: null,
    is_archived: false,
    deleted_at: null,
    created_at: isoDaysFrom(now, -random.int(0, 30) - random.next()),
    public_alias: "get-a-quote",
    public_url: "https://link.example.com/get-a-quote",
    encountered_mfa: false,
    no_policies: true,
    no_drivers: true,
    no_documents: true,
    no_claims: true,
    no_loss_events: true,
    parent_pull_id: null,
    policy_check_status: null,
    policy_check_results: null,
    skipped_product_types: null,
    funnel: null,
  };
}

/**
 * `lines`: the mix of lines of business, cycled through (a benchmark's book may weigh it
 * differently); `random`: the stream to draw from, `seed`'s own unless a big book brings its own.
 */
export function generatePulls(
  seed: number,
  count: number,
  now: Date,
  lines: readonly Line[] = LINES,
  random: Random = createRandom(seed),
): SandboxPull[] {
  const pulls: SandboxPull[] = [];
  for (let i = 0; i < count; i++) {
    if (i === count - 1 && count >= 10) pulls.push(failedPull(random, now, "PROVIDER_ERROR"));
    else if (i === count - 2 && count >= 10) pulls.push(failedPull(random, now, "NOT_AUTHENTICATED"));
    else if (i === count - 3 && count >= 10 && pulls[0]) {
      // Internal work of the service on behalf of the first pull: it must never be shown.
      pulls.push({ ...buildPull(random, now, i, lines), parent_pull_id: pulls[0].pull_id });
    } else pulls.push(buildPull(random, now, i, lines));
  }
  return pulls;
}
