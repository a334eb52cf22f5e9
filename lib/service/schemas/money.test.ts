import { describe, expect, it } from "vitest";
import { acceptedPull, kindsAt, only } from "./test-support";

// Money is integer cents end to end. A value that is not a whole number of cents is not
// money we can trust: it reads as null and is reported, never rounded or multiplied by 100.

const premiumOf = (value: unknown) => {
  const { pull, problems } = acceptedPull({ policies: [{ policy_id: "p-1", total_premium_cents: value }] });
  return {
    cents: only(pull.policies).total_premium_cents,
    kinds: kindsAt(problems, "policies[0].total_premium_cents"),
  };
};

describe("cents fields", () => {
  it("keep an integer exactly, including zero, negatives and large amounts", () => {
    for (const value of [0, 175349, -2500, 9_007_199_254_740_991])
      expect(premiumOf(value)).toEqual({ cents: value, kinds: [] });
  });

  it("read an integer written as a string as the same number of cents", () => {
    expect(premiumOf("175349")).toEqual({ cents: 175349, kinds: [] });
  });

  it("read a fraction of a cent as null and report it, never rounding", () => {
    expect(premiumOf(1753.49)).toEqual({ cents: null, kinds: ["wrong_type"] });
  });

  it('read a dollar string such as "12.34" as null and report it, never multiplying', () => {
    expect(premiumOf("12.34")).toEqual({ cents: null, kinds: ["wrong_type"] });
    expect(premiumOf("$12.34")).toEqual({ cents: null, kinds: ["wrong_type"] });
    expect(premiumOf("1,234")).toEqual({ cents: null, kinds: ["wrong_type"] });
  });

  it("read amounts beyond safe integers as null, since they cannot be exact", () => {
    expect(premiumOf(2 ** 53)).toEqual({ cents: null, kinds: ["wrong_type"] });
    expect(premiumOf("90071992547409931")).toEqual({ cents: null, kinds: ["wrong_type"] });
  });

  it("read booleans, objects and lists as null and report them", () => {
    for (const value of [true, { amount: 1 }, [100]])
      expect(premiumOf(value)).toEqual({ cents: null, kinds: ["wrong_type"] });
  });

  it("read absent and null as null without a problem", () => {
    expect(premiumOf(null)).toEqual({ cents: null, kinds: [] });
    expect(premiumOf(undefined)).toEqual({ cents: null, kinds: [] });
  });

  it("apply in every resource that carries money", () => {
    const { pull, problems } = acceptedPull({
      claims: [{ claim_id: "c-1", payout_cents: 10.5 }],
      loss_events: [{ loss_event_id: "l-1", amount_paid_cents: 400000, amount_reserved_cents: "5000.00" }],
      policies: [
        {
          policy_id: "p-1",
          vehicles: [
            {
              vehicle_id: "v-1",
              coverages: [{ vehicle_coverage_id: "vc-1", premium_cents: 16439, deductible_cents: 500.0 }],
            },
          ],
          dwellings: [
            { dwelling_id: "d-1", replacement_cost_cents: 0.5, property_data: { purchase_price_cents: "50000000" } },
          ],
        },
      ],
    });
    expect(only(pull.claims).payout_cents).toBeNull();
    expect(only(pull.loss_events)).toMatchObject({ amount_paid_cents: 400000, amount_reserved_cents: null });
    const policy = only(pull.policies);
    // 500.0 is the integer 500 once parsed from JSON: nothing was lost.
    expect(only(only(policy.vehicles).coverages)).toMatchObject({ premium_cents: 16439, deductible_cents: 500 });
    const dwelling = only(policy.dwellings);
    expect(dwelling.replacement_cost_cents).toBeNull();
    expect(dwelling.property_data?.purchase_price_cents).toBe(50000000);
    expect(problems.map((p) => p.path).sort()).toEqual(
      [
        "claims[0].payout_cents",
        "loss_events[0].amount_reserved_cents",
        "policies[0].dwellings[0].replacement_cost_cents",
      ].sort(),
    );
  });

  it("keep the funnel premium, which the spec gives as a plain number rather than cents", () => {
    expect(acceptedPull({ funnel: { stage: "WON", premium: 1234.5 } }).pull.funnel?.premium).toBe(1234.5);
  });
});
