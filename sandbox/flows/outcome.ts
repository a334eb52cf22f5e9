import { createHash } from "node:crypto";
import { buildPullForLine, failedPull, type SandboxPull } from "../data/pulls";
import { carrierById } from "../data/carriers";
import type { Carrier } from "../data/policies";
import type { Random } from "../data/random";
import { replaceIds } from "./ids";
import type { Outcome } from "./scenarios";

// What a link yields: the empty pull that exists from the moment the consumer submits, and
// the full data once the (simulated) carrier has been read.

export type LinkDetails = {
  carrier: Carrier;
  username: string;
  publicAlias: string;
  metaData: unknown;
  widgetId: string;
  teamId: string;
};

/**
 * The carrier named by insurerName, which the service takes only as a carrier id (`statefarm`,
 * never "State Farm"): null for anything else, which the routes refuse as UNSUPPORTED_INSURER.
 */
export function carrierNamed(insurerName: string): { carrier: Carrier; noPassword: boolean } | null {
  const found = carrierById(insurerName.trim());
  return found ? { carrier: [found.carrier_id, found.name], noPassword: found.disablePasswordField } : null;
}

/** Stable per username and carrier, as the service keeps one identifier per account holder. */
export function accountIdentifier(username: string, carrier: Carrier): string {
  const hex = createHash("sha256").update(`${carrier[0]}:${username}`).digest("hex").slice(0, 12);
  const digits = String(parseInt(hex, 16)).padStart(10, "0").slice(-10);
  return `acct_${digits}`;
}

/** The pull as it stands right after submission: status STARTED, nothing read yet. */
export function startedPull(random: Random, now: Date, details: LinkDetails): SandboxPull {
  const blank = failedPull(random, now, "PROVIDER_ERROR");
  return {
    ...blank,
    status: "STARTED",
    created_at: now.toISOString(),
    email: null,
    insurance_provider_name: details.carrier[0],
    insurance_provider_friendly_name: details.carrier[1],
    team_id: details.teamId,
    widget_id: details.widgetId,
    meta_data: details.metaData,
    public_alias: details.publicAlias,
    public_url: `https://link.example.com/${encodeURIComponent(details.publicAlias)}`,
  };
}

/** The full data of a successful link, under the id (and submission fields) of `started`. */
export function linkedPull(
  random: Random,
  now: Date,
  started: SandboxPull,
  outcome: Extract<Outcome, { kind: "success" }>,
  details: LinkDetails,
): SandboxPull {
  const built = buildPullForLine(random, now, outcome.line, { ...outcome.variant, carrier: details.carrier });
  const pull = replaceIds(built, new Map([[built.pull_id, started.pull_id]]));
  const kept = {
    pull_id: started.pull_id,
    created_at: started.created_at,
    team_id: started.team_id,
    widget_id: started.widget_id,
    meta_data: started.meta_data,
    public_alias: started.public_alias,
    public_url: started.public_url,
    encountered_mfa: started.encountered_mfa,
    email: null,
    funnel: null,
    account_identifier: accountIdentifier(details.username, details.carrier),
  };
  if (!outcome.noPolicies) return { ...pull, ...kept };
  // The account exists and its holder is known, but it holds no policy (and so nothing else).
  const nothing = {
    policies: [],
    drivers: [],
    documents: [],
    claims: [],
    driving_records: [],
    loss_events: [],
    agents: [],
    no_policies: true,
    no_drivers: true,
    no_documents: true,
    no_claims: true,
    no_loss_events: true,
    policy_check_status: null,
  };
  return { ...pull, ...kept, ...nothing };
}
