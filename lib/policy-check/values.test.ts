import { describe, expect, it } from "vitest";
import {
  autoPolicy,
  coverage,
  deductible,
  driver,
  dwelling,
  homeCoverage,
  homePolicy,
  limit,
  onVehicle,
  pullOf,
  split,
  vehicle,
} from "@/test/review-pulls";
import { onFileOf } from "./values";

// Beside each policy-check outcome, the carrier's own figure for the rule, read from the pull:
// limits, deductibles, status, lien holder, settlement, replacement cost against Coverage A.
// What the pull does not state reads "not stated" or "none listed", never $0 or a pass.

const thin = vehicle(
  { lien_holder: "Ally Financial", ownership_type: "FINANCE" },
  [
    coverage("Bodily Injury Liability", split(25_000, 50_000)),
    coverage("Combined Single Limit", limit(300_000)),
    coverage("Collision", { deductible_cents: null }),
    coverage("Comprehensive", { ...deductible(2_000), is_declined: true }),
  ],
  [onVehicle(driver("Sam", "Doe"), true)],
);
const bare = vehicle({ ownership_type: "LEASE" }, []);
const auto = autoPolicy([thin, bare], { status: "CANCELED" });
const home = dwelling({ loss_settlement_type: "ACTUAL_CASH_VALUE", replacement_cost_cents: 500_000_00 }, [
  homeCoverage("DWELLING", limit(350_000)),
]);
const unknownHome = dwelling({ loss_settlement_type: null, replacement_cost_cents: 0 }, []);
const homes = homePolicy([home, unknownHome]);
const pull = pullOf([auto, homes]);
const onFile = onFileOf(pull);

const on = (check: string, ids: { vehicle?: unknown; dwelling?: unknown; policy?: unknown }) =>
  onFile({
    check,
    vehicle_id: (ids.vehicle as string) ?? null,
    dwelling_id: (ids.dwelling as string) ?? null,
    policy_id: (ids.policy as string) ?? null,
  });

describe("what the carrier has on file for a policy-check rule", () => {
  it("reads a vehicle's limits, deductibles, lien holder, drivers and status", () => {
    const v = { vehicle: thin.vehicle_id };
    expect(on("MIN_BODILY_INJURY_COVERAGE", v)).toBe("$25,000 per person / $50,000 per accident");
    expect(on("MIN_PROPERTY_DAMAGE_COVERAGE_CENTS", v)).toBe("$300,000 combined");
    expect(on("MIN_UNINSURED_MOTORIST_BODILY_INJURY_COVERAGE", v)).toBe("none listed");
    expect(on("MAX_COLLISION_DEDUCTIBLE_CENTS", v)).toBe("collision: deductible not stated");
    expect(on("NO_COMPREHENSIVE_COVERAGE", v)).toBe("comprehensive: declined");
    expect(on("LIENHOLDER_NAME_MISMATCH", v)).toBe("lien holder Ally Financial");
    expect(on("DRIVER_REMOVED", v)).toBe("1 driver excluded");
    expect(on("VEHICLE_REMOVED", v)).toBe("on the policy");
    expect(on("POLICY_NOT_ACTIVE", v)).toBe("policy canceled");
  });

  it("says what is missing on a vehicle without coverages", () => {
    const v = { vehicle: bare.vehicle_id };
    expect(on("MIN_BODILY_INJURY_COVERAGE", v)).toBe("none listed");
    expect(on("NO_COLLISION_COVERAGE", v)).toBe("collision: none listed");
    expect(on("LIENHOLDER_NAME_MISMATCH", v)).toBe("lease, no lien holder named");
  });

  it("reads a home's settlement and its replacement cost against Coverage A", () => {
    expect(on("LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST", { dwelling: home.dwelling_id })).toBe(
      "settled at actual cash value",
    );
    expect(on("REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT", { dwelling: home.dwelling_id })).toBe(
      "replacement cost $500,000, dwelling limit $350,000",
    );
    expect(on("REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT", { dwelling: unknownHome.dwelling_id })).toBe(
      "replacement cost not stated, dwelling limit not stated",
    );
    expect(on("LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST", { dwelling: unknownHome.dwelling_id })).toBe(
      "loss settlement not stated",
    );
    expect(on("DWELLING_POLICY_NOT_ACTIVE", { policy: homes.policy_id })).toBe("policy active");
  });

  it("gives nothing for a rule it does not know or a subject not on the pull", () => {
    expect(on("SOME_NEW_RULE", { vehicle: thin.vehicle_id })).toBeNull();
    expect(on("MIN_BODILY_INJURY_COVERAGE", { vehicle: "not-on-this-pull" })).toBeNull();
    expect(on("NO_COLLISION_COVERAGE", { policy: auto.policy_id })).toBeNull();
  });
});
