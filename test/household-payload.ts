import { randomUUID } from "node:crypto";
import { generatePulls } from "@/sandbox/data/pulls";

// A household's pull payload for the cross-sell tests: a generated pull with its policies,
// drivers and account replaced by what the test names, so each gap is there on purpose.

const [template] = generatePulls(41, 1, new Date());

export type HouseholdPolicy = { type: string; carrier?: string; premium?: number | null; status?: string };

export function householdPayload(options: {
  pullId?: string;
  account?: string | null;
  createdAt?: string;
  status?: string;
  first?: string;
  policies: HouseholdPolicy[];
  drivers?: Array<{ birth: string; first?: string }>;
}) {
  if (!template) throw new Error("no template pull");
  const base = (template.policies as Array<Record<string, unknown>>)[0];
  return {
    ...template,
    pull_id: options.pullId ?? randomUUID(),
    status: options.status ?? "SUCCESS",
    account_identifier: options.account === undefined ? `acct_${randomUUID()}` : options.account,
    created_at: options.createdAt ?? new Date().toISOString(),
    first_name: options.first ?? "Jane",
    last_name: "Doe",
    parent_pull_id: null,
    drivers: (options.drivers ?? []).map((d) => ({
      driver_id: randomUUID(),
      first_name: d.first ?? "Sam",
      last_name: "Doe",
      date_of_birth_str: d.birth,
    })),
    policies: options.policies.map((p) => ({
      ...base,
      policy_id: randomUUID(),
      policy_type: p.type,
      carrier_name: (p.carrier ?? "Progressive").toLowerCase(),
      carrier_friendly_name: p.carrier ?? "Progressive",
      total_premium_cents: p.premium === undefined ? 100_000 : p.premium,
      total_estimated_annual_premium_cents: null,
      effective_date: "2026-01-01",
      expiry_date: "2027-01-01",
      renewal_date: null,
      canceled_date: null,
      status: p.status ?? "ACTIVE",
      vehicles: [],
      dwellings: [],
    })),
  };
}
