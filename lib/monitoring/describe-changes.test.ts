import { describe, expect, it } from "vitest";
import { parsePull, type Pull } from "@/lib/service/schemas";
import { generatePulls } from "@/sandbox/data/pulls";
import { describeChanges } from "./describe-changes";

// Between two pulls of one account: each kind of change in plain words, and nothing when
// nothing changed.

type Raw = Record<string, unknown> & { policies: Array<Record<string, unknown>> };
const parse = (raw: unknown): Pull => {
  const result = parsePull(raw);
  if (!result.ok) throw new Error(result.error);
  return result.pull;
};
const clone = <T>(value: T): T => structuredClone(value);

const base = generatePulls(61, 40, new Date("2026-11-01T00:00:00Z")).find((p) => {
  const policies = p.policies as Array<{ policy_type: string; vehicles: Array<{ coverages: unknown[] }> }>;
  return (
    policies.some(
      (pol) => pol.policy_type === "AUTO" && pol.vehicles.length > 0 && pol.vehicles[0]?.coverages.length,
    ) && policies.some((pol) => pol.policy_type === "HOMEOWNERS")
  );
}) as Raw | undefined;

describe("what changed between two pulls", () => {
  it("says nothing when nothing changed", () => {
    if (!base) throw new Error("no auto + home pull in the sample");
    expect(describeChanges(parse(base), parse(clone(base)))).toEqual([]);
  });

  it("names a premium rise at renewal with its percentage, and a cancellation", () => {
    if (!base) throw new Error("no sample");
    const after = clone(base);
    const auto = after.policies.find((p) => p.policy_type === "AUTO") as Record<string, unknown>;
    const before = base.policies.find((p) => p.policy_type === "AUTO") as Record<string, unknown>;
    auto.total_premium_cents = Math.round(Number(before.total_premium_cents) * 1.18);
    auto.expiry_date = "2030-01-01T00:00:00Z";
    const home = after.policies.find((p) => p.policy_type === "HOMEOWNERS") as Record<string, unknown>;
    home.status = "CANCELLED";
    const changes = describeChanges(parse(base), parse(after));
    expect(changes).toContain(
      `Auto premium up 18% at renewal (${fmt(Number(before.total_premium_cents))} → ${fmt(Number(auto.total_premium_cents))})`,
    );
    expect(changes).toContain("Homeowners policy cancelled");
  });

  it("names a vehicle added, a limit lowered, a mortgagee added and a claim opened", () => {
    if (!base) throw new Error("no sample");
    const after = clone(base);
    const auto = after.policies.find((p) => p.policy_type === "AUTO") as {
      vehicles: Array<Record<string, unknown> & { coverages: Array<Record<string, unknown>> }>;
    };
    const first = auto.vehicles[0];
    if (!first) throw new Error("no vehicle");
    auto.vehicles.push({
      ...first,
      vehicle_id: "v-new",
      vin: "1HGCM82633A004352",
      year: 2024,
      make: "Honda",
      model: "Accord",
    });
    const limited = first.coverages.find(
      (c) => typeof c.per_person_limit_cents === "number" && Number(c.per_person_limit_cents) > 100,
    );
    if (!limited) throw new Error("no coverage with a per-person limit");
    limited.per_person_limit_cents = Number(limited.per_person_limit_cents) / 2;
    const home = after.policies.find((p) => p.policy_type === "HOMEOWNERS") as {
      dwellings: Array<{ mortgagees: Array<Record<string, unknown>> }>;
    };
    home.dwellings[0]?.mortgagees.push({ name: "First Federal Savings", loan_number: "L-1", address: null });
    (after.claims as Array<Record<string, unknown>>).push({
      claim_id: "c-new",
      carrier_claim_identifier: "CLM-NEW-1",
      type: "CAR_ACCIDENT",
      status: "OPEN",
      payout_cents: null,
    });
    const changes = describeChanges(parse(base), parse(after));
    expect(changes).toContain("Vehicle added: 2024 Honda Accord");
    expect(changes).toContain("Mortgagee added: First Federal Savings");
    expect(changes).toContain("Claim opened: Car accident (CLM-NEW-1)");
    expect(changes.some((c) => c.includes("per-person limit lowered"))).toBe(true);
  });
});

function fmt(cents: number): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);
}
