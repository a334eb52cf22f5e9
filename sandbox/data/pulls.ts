import { vehicleDriver, vehicles } from "./auto";
import { agents, answers, claims, documents, drivingRecords } from "./extras";
import { dwelling, type DwellingKind } from "./home";
import { address, person, type Person } from "./people";
import { CARRIERS, policy, type Carrier } from "./policies";
import { createRandom, isoDaysFrom, type Random } from "./random";

// The seeded book of linked accounts: a deterministic mix of every common line of business,
// a few failed links, one child pull, and one account whose strings are hostile on purpose.

export type SandboxPull = Record<string, unknown> & { pull_id: string; status: string; parent_pull_id: string | null; created_at: string; account_identifier: string | null };

export type Line = "auto" | "home+auto" | "home" | "renters+auto" | "condo+umbrella" | "flood" | "landlord" | "commercial" | "life+auto";
const LINES: Line[] = ["auto", "home+auto", "home", "renters+auto", "condo+umbrella", "auto", "home+auto", "flood", "landlord", "commercial", "life+auto", "home+auto"];

function homePolicy(random: Random, now: Date, kind: DwellingKind, carrier: Carrier, holder: Person, where: ReturnType<typeof address>, expiresInDays?: number) {
  return policy(random, now, kind, carrier, { dwellings: [dwelling(random, kind, where, holder.last, now, random.chance(0.25))] }, { state: where.state, expiresInDays });
}

function commercialPolicies(random: Random, now: Date, carrier: Carrier, where: ReturnType<typeof address>) {
  const business = random.pick(["Riverbend Bakery LLC", "Summit Roofing & Gutters Inc", "Bright Smile Dental PC"]);
  const insured = {
    commercial_named_insured_id: random.uuid(),
    address_id: where.address_id,
    location_id: null,
    name: business,
    gl_code: random.digits(5),
    sic_code: random.digits(4),
    naics_code: random.digits(6),
    fein: `${random.digits(2)}-${random.digits(7)}`,
    business_phone: `+1${random.int(201, 989)}${random.digits(7)}`,
    business_email: "office@business.example.com",
    website_url: "https://business.example.com",
    form_of_business: "LIMITED_LIABILITY_COMPANY",
    is_primary_named_insured: true,
    number_of_employees: random.int(4, 60),
    minimum_premium_cents: null,
    total_estimated_annual_premium_cents: null,
  };
  const bop = policy(random, now, "BUSINESS_OWNERS", carrier, { commercial_named_insureds: [insured], form_of_business: "LIMITED_LIABILITY_COMPANY", deductible_cents: 100_000 }, { state: where.state });
  const wcEstimate = random.int(3000, 12000) * 100;
  const wc = policy(random, now, "WORKERS_COMPENSATION", carrier, {
    commercial_named_insureds: [{ ...insured, commercial_named_insured_id: random.uuid(), minimum_premium_cents: 75_000, total_estimated_annual_premium_cents: wcEstimate }],
    total_estimated_annual_premium_cents: wcEstimate,
    total_minimum_premium_cents: 75_000,
    total_deposit_premium_cents: Math.round(wcEstimate * 0.25),
    form_of_business: "LIMITED_LIABILITY_COMPANY",
  }, { state: where.state });
  const gl = policy(random, now, "GENERAL_LIABILITY", carrier, { commercial_named_insureds: [{ ...insured, commercial_named_insured_id: random.uuid() }] }, { state: where.state });
  const lossEvents = [bop, gl].map((p) => ({
    loss_event_id: random.uuid(),
    policy_id: p.policy_id,
    date_of_occurrence: isoDaysFrom(now, -random.int(100, 900)),
    date_of_claim: isoDaysFrom(now, -random.int(30, 99)),
    type: random.pick(["CUSTOMER_SLIPS_AND_FALLS", "BURGLARY_AND_THEFT", "WATER_DAMAGE_AND_FREEZING_DAMAGE"]),
    amount_paid_cents: random.int(500, 40000) * 100,
    amount_reserved_cents: random.int(0, 5000) * 100,
    is_subrogation: random.chance(0.2),
    is_claim_open: random.chance(0.3),
  }));
  return { policies: [bop, wc, gl], lossEvents };
}

/** Variations of one seeded pull; a link made through the sandbox's flow uses the defaults. */
export type PullVariant = {
  hostile?: boolean;
  perMile?: boolean;
  /** Days until the auto policy (or, for the flood line, the flood policy) expires. */
  expiresInDays?: number;
  carrier?: Carrier;
  skippedProductTypes?: string[] | null;
  withFileUpload?: boolean;
  withFunnel?: boolean;
};

function buildPull(random: Random, now: Date, index: number): SandboxPull {
  const line = LINES[index % LINES.length] ?? "auto";
  return buildPullForLine(random, now, line, {
    hostile: index === 7,
    perMile: index === 5,
    expiresInDays: index % 9 === 0 ? random.int(5, 28) : undefined,
    skippedProductTypes: index % 10 === 3 ? ["commercial"] : null,
    withFileUpload: index % 4 === 1,
    withFunnel: index % 5 === 0,
  });
}

/** One successful linked account of the given line of business. */
export function buildPullForLine(random: Random, now: Date, line: Line, variant: PullVariant = {}): SandboxPull {
  const pullId = random.uuid();
  const hostile = variant.hostile ?? false;
  const holder = person(random);
  if (hostile) {
    holder.first = "<script>alert('x')</script>";
    holder.last = `O'Neil "Robert'); DROP TABLE pulls;--"`;
  }
  const household = Array.from({ length: random.int(0, 2) }, () => ({ ...person(random), last: holder.last }));
  const home = address(random, "MAILING");
  const carrier = variant.carrier ?? random.pick(CARRIERS);
  const perMile = variant.perMile ?? false;
  const policies: Array<ReturnType<typeof policy>> = [];
  let lossEvents: unknown[] = [];

  const autoPolicy = () => policy(random, now, "AUTO", carrier, { vehicles: vehicles(random, holder, household, now, perMile), named_insureds: [namedInsured(random, holder)] }, { state: home.state, expiresInDays: line === "flood" ? undefined : variant.expiresInDays });
  if (line.includes("auto")) policies.push(autoPolicy());
  if (line.startsWith("home")) policies.push(homePolicy(random, now, "HOMEOWNERS", carrier, holder, { ...home, address_nature: "PHYSICAL" }));
  if (line.startsWith("renters")) policies.push(homePolicy(random, now, "RENTERS", carrier, holder, { ...home, address_nature: "PHYSICAL" }));
  if (line.startsWith("condo")) {
    policies.push(homePolicy(random, now, "CONDO", carrier, holder, { ...home, address_nature: "PHYSICAL" }));
    policies.push(policy(random, now, "UMBRELLA", carrier, {}, { state: home.state }));
  }
  if (line === "flood") {
    policies.push(homePolicy(random, now, "HOMEOWNERS", carrier, holder, { ...home, address_nature: "PHYSICAL" }));
    policies.push(homePolicy(random, now, "FLOOD", ["nfip", "NFIP Direct"] as unknown as Carrier, holder, { ...home, address_nature: "PHYSICAL" }, variant.expiresInDays ?? 15));
  }
  if (line === "landlord") policies.push(homePolicy(random, now, "LANDLORD", carrier, holder, address(random, "PHYSICAL", home.state)));
  if (line === "commercial") {
    const commercial = commercialPolicies(random, now, carrier, home);
    policies.push(...commercial.policies);
    lossEvents = commercial.lossEvents;
  }
  if (line === "life+auto") policies.push(policy(random, now, "TERM_LIFE", carrier, { life: { face_amount_cents: random.int(25, 100) * 10_000_00, term_years: 20, beneficiaries: 2 } }));
  for (const p of policies) p.is_monoline = policies.length === 1;

  const drivers = line.includes("auto") ? [vehicleDriver(random, holder, "INSURED", false), ...household.map((p) => vehicleDriver(random, p, "SPOUSE", false))].map(({ is_excluded: _excluded, ...d }) => d) : [];
  const claimList = policies.flatMap((p) => claims(random, now, p.policy_id, p.policy_type === "AUTO" ? "auto" : "home"));
  const records = drivers.flatMap((d) => drivingRecords(random, now, d.driver_id));
  const docs = documents(random, now, pullId, policies, hostile);

  return {
    pull_id: pullId,
    status: "SUCCESS",
    type: "PULLING_DATA",
    account_identifier: `acct_${random.digits(10)}`,
    first_name: holder.first,
    middle_name: holder.middle,
    last_name: holder.last,
    email: null,
    account_email: holder.email,
    phone: holder.phone,
    mobile_phone: holder.phone,
    home_phone: random.chance(0.3) ? `+1${random.int(201, 989)}${random.digits(7)}` : null,
    work_phone: null,
    work_phone_extension: null,
    insurance_provider_name: carrier[0],
    insurance_provider_friendly_name: carrier[1],
    team_id: null, // filled in by the server with its team
    widget_id: "0b5f8a4e-2f4c-4d7e-9b61-3a2c1d0e9f10",
    meta_data: JSON.stringify({ source: random.pick(["website", "facebook-ad", "referral"]) }),
    is_archived: false,
    created_at: isoDaysFrom(now, -random.int(0, 89) - random.next()),
    public_alias: random.pick(["get-a-quote", "renewal-review"]),
    public_url: "https://link.example.com/get-a-quote",
    encountered_mfa: random.chance(0.2),
    no_policies: policies.length === 0,
    no_drivers: drivers.length === 0,
    no_documents: docs.length === 0,
    no_claims: claimList.length === 0,
    no_loss_events: lossEvents.length === 0,
    parent_pull_id: null,
    policy_check_status: random.pick(["COMPLIANT", "REVIEW_REQUIRED", null]),
    skipped_product_types: variant.skippedProductTypes ?? null,
    policies,
    drivers,
    documents: docs,
    addresses: [home],
    claims: claimList,
    driving_records: records,
    loss_events: lossEvents,
    agents: agents(random, policies.map((p) => p.policy_id)),
    answers: answers(random, pullId, holder, variant.withFileUpload ?? false),
    funnel: variant.withFunnel ? { assignee: null, premium: null, stage: "WORKING" } : null,
  };
}

function namedInsured(random: Random, who: Person) {
  return { named_insured_id: random.uuid(), first_name: who.first, middle_name: who.middle, last_name: who.last, full_name: `${who.first} ${who.last}`, email: who.email, home_phone: null, mobile_phone: who.phone, work_phone: null, work_phone_extension: null, is_primary_named_insured: true };
}

/** A failed link: the consumer's credentials were refused, or the carrier's site failed. */
export function failedPull(random: Random, now: Date, status: "NOT_AUTHENTICATED" | "PROVIDER_ERROR"): SandboxPull {
  const holder = person(random);
  const empty = { policies: [], drivers: [], documents: [], addresses: [], claims: [], driving_records: [], loss_events: [], agents: [], answers: [] };
  return {
    ...empty,
    pull_id: random.uuid(), status, type: "PULLING_DATA", account_identifier: null,
    first_name: null, middle_name: null, last_name: null, email: status === "NOT_AUTHENTICATED" ? holder.email : null, account_email: null,
    phone: null, mobile_phone: null, home_phone: null, work_phone: null, work_phone_extension: null,
    insurance_provider_name: "geico", insurance_provider_friendly_name: "GEICO", team_id: null, widget_id: "0b5f8a4e-2f4c-4d7e-9b61-3a2c1d0e9f10",
    meta_data: null, is_archived: false, created_at: isoDaysFrom(now, -random.int(0, 30)), public_alias: "get-a-quote", public_url: "https://link.example.com/get-a-quote",
    encountered_mfa: false, no_policies: true, no_drivers: true, no_documents: true, no_claims: true, no_loss_events: true,
    parent_pull_id: null, policy_check_status: null, skipped_product_types: null, funnel: null,
  };
}

export function generatePulls(seed: number, count: number, now: Date): SandboxPull[] {
  const random = createRandom(seed);
  const pulls: SandboxPull[] = [];
  for (let i = 0; i < count; i++) {
    if (i === count - 1 && count >= 10) pulls.push(failedPull(random, now, "PROVIDER_ERROR"));
    else if (i === count - 2 && count >= 10) pulls.push(failedPull(random, now, "NOT_AUTHENTICATED"));
    else if (i === count - 3 && count >= 10 && pulls[0]) {
      // Internal work of the service on behalf of the first pull: it must never be shown.
      pulls.push({ ...buildPull(random, now, i), parent_pull_id: pulls[0].pull_id });
    } else pulls.push(buildPull(random, now, i));
  }
  return pulls;
}
