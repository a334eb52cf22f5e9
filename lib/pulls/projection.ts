import { createHash } from "node:crypto";
import type { Pull } from "@/lib/service/schemas";
import { calendarDate } from "@/lib/service/schemas";

// What lists, filters and reports need from a pull, computed once at ingestion so that
// they are indexed columns instead of scans over JSON.

export type PullProjection = {
  status: string;
  type: string | null;
  parentPullId: string | null;
  accountIdentifier: string | null;
  firstName: string | null;
  lastName: string | null;
  sortName: string;
  email: string | null;
  phone: string | null;
  providerName: string | null;
  providerFriendlyName: string | null;
  isArchived: boolean;
  serviceCreatedAt: Date | null;
  policyCount: number;
  totalPremiumCents: number | null;
  nextExpiryDate: string | null;
  policyTypes: string[];
};

export type PolicyProjection = {
  policyId: string;
  policyType: string | null;
  status: string | null;
  carrierName: string | null;
  carrierFriendlyName: string | null;
  carrierPolicyNumber: string | null;
  totalPremiumCents: number | null;
  effectiveDate: string | null;
  expiryDate: string | null;
};

const LAPSED_STATUSES = new Set(["CANCELLED", "EXPIRED", "RESCINDED"]);

export function projectPolicies(pull: Pull): PolicyProjection[] {
  return pull.policies.map((policy) => ({
    policyId: policy.policy_id,
    policyType: policy.policy_type,
    status: policy.status,
    carrierName: policy.carrier_name,
    carrierFriendlyName: policy.carrier_friendly_name,
    carrierPolicyNumber: policy.carrier_policy_number,
    totalPremiumCents: policy.total_premium_cents,
    effectiveDate: calendarDate(policy.effective_date),
    expiryDate: calendarDate(policy.expiry_date),
  }));
}

function sortNameOf(pull: Pull): string {
  const last = pull.last_name?.trim() ?? "";
  const first = pull.first_name?.trim() ?? "";
  if (last && first) return `${last}, ${first}`;
  return last || first || pull.account_email || pull.email || "";
}

function parseInstant(iso: string | null): Date | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function projectPull(pull: Pull): PullProjection {
  const policies = projectPolicies(pull);
  const premiums = policies.map((p) => p.totalPremiumCents).filter((c): c is number => c !== null);
  const upcoming = policies
    .filter((p) => p.expiryDate && !LAPSED_STATUSES.has(p.status ?? ""))
    .map((p) => p.expiryDate as string)
    .sort();
  return {
    status: pull.status ?? "UNKNOWN",
    type: pull.type,
    parentPullId: pull.parent_pull_id,
    accountIdentifier: pull.account_identifier,
    firstName: pull.first_name,
    lastName: pull.last_name,
    sortName: sortNameOf(pull).toLowerCase(),
    email: pull.account_email ?? pull.email,
    phone: pull.phone ?? pull.mobile_phone ?? pull.home_phone ?? pull.work_phone,
    providerName: pull.insurance_provider_name,
    providerFriendlyName: pull.insurance_provider_friendly_name,
    isArchived: pull.is_archived ?? false,
    serviceCreatedAt: parseInstant(pull.created_at),
    policyCount: policies.length,
    totalPremiumCents: premiums.length > 0 ? premiums.reduce((a, b) => a + b, 0) : null,
    nextExpiryDate: upcoming[0] ?? null,
    policyTypes: [...new Set(policies.map((p) => p.policyType).filter((t): t is string => t !== null))].sort(),
  };
}

/** Stable hash of a payload: key order does not matter, so a refetch of the same data is a no-op. */
export function contentHash(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex");
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
