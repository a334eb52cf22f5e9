import type { SandboxPull } from "./sandbox-pull";
import type { Random } from "./random";

// Pull types other than PULLING_DATA (spec 2.1) carry less than a full read of the account:
// a consumer who typed a policy in by hand has no documents or claims; a policy found by
// number or parsed from an upload is one policy with limited detail; "contact me" is only the
// consumer's answers. SERVICING and AGENT pulls read the account like PULLING_DATA.

export type PullType =
  | "PULLING_DATA"
  | "SERVICING"
  | "DOCUMENT_UPLOAD"
  | "DOCUMENT_PARSING"
  | "AGENT"
  | "MANUAL_ENTRY"
  | "POLICY_LOOKUP"
  | "CONTACT_ME";

type Row = Record<string, unknown>;

const rows = (value: unknown): Row[] => (Array.isArray(value) ? (value as Row[]) : []);

/** Only what such a pull holds; the caller recomputes the no_* flags. */
export function restrictToType(random: Random, pull: SandboxPull, type: PullType): SandboxPull {
  const policies = rows(pull.policies);
  const first = policies[0];
  const limited = (p: Row): Row => ({
    ...p,
    limited_access: true,
    amount_paid_cents: null,
    amount_due_cents: null,
    paid_in_full: null,
    last_payment_date: null,
    payment_frequency: null,
    forms_and_endorsements: [],
  });
  const keptPolicyIds = (kept: Row[]) => new Set(kept.map((p) => p.policy_id));
  const history = { claims: [], driving_records: [], loss_events: [] };
  switch (type) {
    case "PULLING_DATA":
    case "SERVICING":
    case "AGENT":
      return pull;
    case "CONTACT_ME":
      // The consumer could not link and asked to be contacted: only who they are and their answers.
      return {
        ...pull,
        ...history,
        account_identifier: null,
        policies: [],
        drivers: [],
        documents: [],
        agents: [],
        addresses: rows(pull.addresses).slice(0, 1),
        policy_check_status: null,
        insurance_provider_name: null,
        insurance_provider_friendly_name: null,
        encountered_mfa: false,
      };
    case "MANUAL_ENTRY":
      return {
        ...pull,
        ...history,
        account_identifier: null,
        policies: policies.map(limited),
        documents: [],
        agents: [],
        encountered_mfa: false,
      };
    case "POLICY_LOOKUP": {
      const kept = first ? [limited({ ...first, is_monoline: true })] : [];
      const ids = keptPolicyIds(kept);
      // The agent of record of that one policy, if any.
      const agents = rows(pull.agents)
        .map((a) => ({
          ...a,
          policy_ids: (Array.isArray(a.policy_ids) ? (a.policy_ids as unknown[]) : []).filter((id) => ids.has(id)),
        }))
        .filter((a) => a.policy_ids.length > 0);
      return {
        ...pull,
        ...history,
        account_identifier: null,
        policies: kept,
        documents: [],
        agents,
        encountered_mfa: false,
      };
    }
    case "DOCUMENT_UPLOAD":
    case "DOCUMENT_PARSING": {
      // What a declarations page shows: one policy, and the page itself.
      const kept = first
        ? [{ ...first, is_monoline: true, limited_access: type === "DOCUMENT_UPLOAD" ? random.chance(0.5) : false }]
        : [];
      const ids = keptPolicyIds(kept);
      const page = rows(pull.documents)
        .filter((d) => ids.has(d.policy_id) && d.document_type === "DECLARATIONS")
        .slice(0, 1);
      return {
        ...pull,
        ...history,
        account_identifier: null,
        policies: kept,
        documents: page,
        agents: [],
        encountered_mfa: false,
      };
    }
  }
}
