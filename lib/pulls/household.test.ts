import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { acceptedPull, at } from "@/lib/service/schemas/test-support";
import { householdOf, termMonthsOf } from "./household";

const policy = (id: string, fields: Record<string, unknown>) => ({
  policy_id: id,
  policy_type: "AUTO",
  carrier_name: "Progressive",
  vehicles: [],
  dwellings: [],
  ...fields,
});

describe("the household at a glance", () => {
  it("reads a term's length from its dates, and gives up on missing or odd ones", () => {
    expect(termMonthsOf("2026-01-15", "2026-07-15")).toBe(6);
    expect(termMonthsOf("2026-01-15", "2027-01-15")).toBe(12);
    expect(termMonthsOf("2026-01-01", "2026-02-01")).toBe(1);
    expect(termMonthsOf(null, "2027-01-15")).toBeNull();
    expect(termMonthsOf("2027-01-15", "2026-01-15")).toBeNull(); // expiry before effective
    expect(termMonthsOf("2026-01-15", "2026-01-16")).toBeNull(); // a one-day "term"
  });

  it("totals a year of premium over the policies in force: six-month terms count twice, ended ones not at all", () => {
    const { pull } = acceptedPull({
      policies: [
        policy("auto", { total_premium_cents: 60_000, effective_date: "2026-03-01", expiry_date: "2026-09-01" }),
        policy("home", {
          policy_type: "HOMEOWNERS",
          total_premium_cents: 150_000,
          effective_date: "2026-01-01",
          expiry_date: "2027-01-01",
        }),
        policy("old", { status: "CANCELLED", total_premium_cents: 99_999 }),
        policy("free", { total_premium_cents: 0 }),
      ],
    });
    const household = householdOf(pull);
    expect(household.totalAnnualCents).toBe(120_000 + 150_000);
    expect(at(household.policies, 0)).toMatchObject({ termMonths: 6, annualCents: 120_000, inForce: true });
    expect(at(household.policies, 2).inForce).toBe(false);
    expect(household.unpricedInForce).toBe(1); // the zero premium is unknown, not free
  });

  it("prefers the carrier's own annual estimate", () => {
    const { pull } = acceptedPull({
      policies: [
        policy("a", {
          total_premium_cents: 50_000,
          total_estimated_annual_premium_cents: 110_000,
          effective_date: "2026-03-01",
          expiry_date: "2026-09-01",
        }),
      ],
    });
    expect(householdOf(pull).totalAnnualCents).toBe(110_000);
  });

  it("has no total, rather than $0.00, when no policy states a premium", () => {
    const { pull } = acceptedPull({ policies: [policy("a", {})] });
    expect(householdOf(pull)).toMatchObject({ totalAnnualCents: null, unpricedInForce: 1 });
    expect(householdOf(acceptedPull({}).pull)).toMatchObject({ totalAnnualCents: null, unpricedInForce: 0 });
  });

  it("totals the published example pulls as an agent would by hand", () => {
    const example = (name: string) =>
      acceptedPull(
        (
          JSON.parse(readFileSync(path.join(__dirname, `../service/fixtures/real/pulls/${name}.json`), "utf8")) as {
            pull: Record<string, unknown>;
          }
        ).pull,
      ).pull;
    // Home $1,753.49 a year, auto $507.81 for six months, term life $1,250.00 (a 20-year term: as stated).
    const personal = householdOf(example("personal"));
    expect(personal.totalAnnualCents).toBe(175_349 + 2 * 50_781 + 125_000);
    expect(personal.policies.map((p) => p.termMonths)).toEqual([12, 6, null]);
    expect([personal.vehicles.length, personal.dwellings.length]).toEqual([1, 1]);
    // Commercial auto for six months, a business owner's policy, and workers' comp with its own annual estimate.
    expect(householdOf(example("commercial")).totalAnnualCents).toBe(2 * 540_348 + 525_345 + 382_550);
  });
});
