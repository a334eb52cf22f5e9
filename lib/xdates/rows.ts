import type { Pull } from "@/lib/service/schemas";
import { householdOf } from "@/lib/pulls/household";
import { deriveXDate, type XDate } from "./derive";

// The X-date row of each policy of a pull, from its parsed payload and the raw one (a malformed
// date is null in the parsed pull; the raw text says it was sent, so the page can say so). Pure.

export type XDateRow = {
  policyId: string;
  policyType: string | null;
  carrierName: string | null;
  carrierLabel: string | null;
  carrierPolicyNumber: string | null;
  status: string | null;
  annualPremiumCents: number | null;
  expiryDate: string | null;
  termMonths: number | null;
  xDate: string | null;
  basis: string | null;
  reason: string | null;
  note: string;
};

function rawPolicies(raw: unknown): Map<string, Record<string, unknown>> {
  const byId = new Map<string, Record<string, unknown>>();
  const list = raw && typeof raw === "object" ? (raw as { policies?: unknown }).policies : undefined;
  if (!Array.isArray(list)) return byId;
  for (const item of list) {
    if (item && typeof item === "object" && typeof (item as { policy_id?: unknown }).policy_id === "string")
      byId.set((item as { policy_id: string }).policy_id, item as Record<string, unknown>);
  }
  return byId;
}

export function xdateRowsOf(pull: Pull, raw: unknown, today: string): XDateRow[] {
  const sent = rawPolicies(raw);
  const seen = new Set<string>();
  const rows: XDateRow[] = [];
  for (const { policy, annualCents } of householdOf(pull).policies) {
    // A policy repeated within one payload would break the primary key: keep the first.
    if (seen.has(policy.policy_id)) continue;
    seen.add(policy.policy_id);
    const original = sent.get(policy.policy_id);
    const derived: XDate = deriveXDate(
      {
        status: policy.status,
        effectiveDate: policy.effective_date ?? original?.effective_date,
        expiryDate: policy.expiry_date ?? original?.expiry_date,
        renewalDate: policy.renewal_date,
        canceledDate: policy.canceled_date,
      },
      today,
    );
    rows.push({
      policyId: policy.policy_id,
      policyType: policy.policy_type,
      carrierName: policy.carrier_name,
      carrierLabel: policy.carrier_friendly_name ?? policy.carrier_name ?? null,
      carrierPolicyNumber: policy.carrier_policy_number,
      status: policy.status,
      annualPremiumCents: annualCents,
      expiryDate: derived.expiryDate,
      termMonths: derived.termMonths,
      xDate: derived.xDate,
      basis: derived.basis,
      reason: derived.reason,
      note: derived.note,
    });
  }
  return rows;
}
