import type { z } from "zod";
import { addressSchema } from "./address";
import { agentInfoSchema } from "./agents";
import { answerSectionSchema } from "./answers";
import { claimSchema, drivingRecordSchema, lossEventSchema } from "./claims";
import { documentSchema } from "./documents";
import { POLICY_CHECK_STATUSES, PRODUCT_TYPES, PULL_STATUSES, PULL_TYPES } from "./enums-pull";
import { pullFunnelSchema } from "./funnel";
import { driverSchema } from "./people";
import { policySchema } from "./policy";
import { policyCheckResultsSchema } from "./policy-check";
import { parseTolerant, type PayloadProblem } from "./problems";
import {
  bool,
  enumList,
  isoDate,
  lenient,
  lenientArray,
  looseResource,
  metaData,
  openEnum,
  requiredUuid,
  text,
} from "./tolerant";

// The Pull (spec 2.1): one linked account's data as the service hands it over. Everything in
// it is tolerant except `pull_id`, without which the data belongs to nothing.

export const pullSchema = looseResource({
  pull_id: requiredUuid,
  status: openEnum(PULL_STATUSES, "pull status"),
  type: openEnum(PULL_TYPES, "pull type"),
  /** Stable for one account holder across PULLING_DATA pulls. */
  account_identifier: text,
  first_name: text,
  middle_name: text,
  last_name: text,
  /** Given by the consumer after bad credentials; `account_email` is the account's own. */
  email: text,
  account_email: text,
  phone: text,
  mobile_phone: text,
  home_phone: text,
  work_phone: text,
  work_phone_extension: text,
  /** An identifier, not for display; `insurance_provider_friendly_name` is. */
  insurance_provider_name: text,
  insurance_provider_friendly_name: text,
  team_id: text,
  widget_id: text,
  meta_data: metaData,
  is_archived: bool,
  /** When the consumer gave consent. */
  created_at: isoDate,
  /** Set when the service deleted the pull: not in the spec's table, but on its published pulls. */
  deleted_at: isoDate,
  public_alias: text,
  public_url: text,
  encountered_mfa: bool,
  no_policies: bool,
  no_drivers: bool,
  no_documents: bool,
  no_claims: bool,
  no_loss_events: bool,
  /** Set on internal child pulls, which fire no webhooks of their own. */
  parent_pull_id: text,
  policy_check_status: openEnum(POLICY_CHECK_STATUSES, "policy check status"),
  /** What each rule found; see policy-check.ts. */
  policy_check_results: policyCheckResultsSchema,
  skipped_product_types: enumList(PRODUCT_TYPES, "product type"),
  policies: lenientArray(policySchema, "policy"),
  drivers: lenientArray(driverSchema, "driver"),
  documents: lenientArray(documentSchema, "document"),
  addresses: lenientArray(addressSchema, "address"),
  claims: lenientArray(claimSchema, "claim"),
  driving_records: lenientArray(drivingRecordSchema, "driving record"),
  loss_events: lenientArray(lossEventSchema, "loss event"),
  agents: lenientArray(agentInfoSchema, "agent"),
  answers: lenientArray(answerSectionSchema, "answer section"),
  funnel: lenient(pullFunnelSchema, "a funnel object"),
});
export type Pull = z.output<typeof pullSchema>;

export type ParsePullResult = { ok: true; pull: Pull; problems: PayloadProblem[] } | { ok: false; error: string };

/**
 * Reads a pull as tolerantly as the data allows: odd fields become null (or keep their raw
 * enum value) and are listed in `problems`. Fails only for a non-object or a missing pull_id.
 */
export function parsePull(raw: unknown): ParsePullResult {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return {
      ok: false,
      error: `A pull must be a JSON object, got ${raw === null ? "null" : Array.isArray(raw) ? "an array" : typeof raw}.`,
    };
  }
  const result = parseTolerant(pullSchema, raw);
  if (!result.ok) return { ok: false, error: `Not a usable pull: ${result.error}.` };
  return { ok: true, pull: result.value, problems: result.problems };
}
