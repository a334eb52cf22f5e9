import { describe, expect, it } from "vitest";
import { parsePull, type Pull } from "@/lib/service/schemas";
import {
  commercialInsuredsOf,
  dwellingsOf,
  indexPull,
  lifePoliciesOf,
  locationsOf,
  policyLabel,
  vehiclesOf,
  vehicleTitle,
  workersCompPoliciesOf,
} from "./pull-lookups";

const PULL_ID = "6f1c1b1e-1d2b-4c3a-9e8f-0a1b2c3d4e5f";

function pullOf(raw: Record<string, unknown>): Pull {
  const parsed = parsePull({ pull_id: PULL_ID, ...raw });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.pull;
}

const business = { name: "Riverbend Bakery LLC", fein: "12-3456789", form_of_business: "LIMITED_LIABILITY_COMPANY" };
const location = { location_id: "loc-1", description: "Main premises" };

const pull = pullOf({
  policies: [
    {
      policy_id: "p1",
      policy_type: "AUTO",
      carrier_name: "geico",
      carrier_friendly_name: "GEICO",
      carrier_policy_number: "GE-1",
      vehicles: [{ vehicle_id: "v1", year: 2020, make: "Toyota", model: "Camry", series: "LE" }],
    },
    { policy_id: "p2", policy_type: "HOMEOWNERS", carrier_name: "erie", dwellings: [{ dwelling_id: "d1" }] },
    {
      policy_id: "p3",
      policy_type: "BUSINESS_OWNERS",
      carrier_name: "hiscox",
      commercial_named_insureds: [{ commercial_named_insured_id: "c1", ...business }],
      locations: [location],
    },
    {
      policy_id: "p4",
      policy_type: "WORKERS_COMPENSATION",
      carrier_name: "hiscox",
      commercial_named_insureds: [{ commercial_named_insured_id: "c2", ...business }],
      locations: [location],
      total_estimated_annual_premium_cents: 500000,
    },
    { policy_id: "p5", policy_type: "TERM_LIFE", carrier_name: "usaa", life: { face_amount_cents: 100 } },
    { policy_id: "p6", policy_type: "UMBRELLA", carrier_name: "usaa", life: {} },
  ],
  drivers: [{ driver_id: "dr1", first_name: "Ann" }],
});

describe("pull lookups", () => {
  it("labels policies and vehicles as an agent reads them", () => {
    expect(policyLabel(pull.policies[0] as Pull["policies"][number])).toBe("Auto · GEICO · GE-1");
    expect(policyLabel(pull.policies[1] as Pull["policies"][number])).toBe("Homeowners · erie");
    expect(vehicleTitle(vehiclesOf(pull)[0]?.item as Pull["policies"][number]["vehicles"][number])).toBe(
      "2020 Toyota Camry LE",
    );
  });

  it("gathers vehicles and homes with the policy they are on, and indexes ids", () => {
    expect(vehiclesOf(pull).map(({ item, policy }) => [item.vehicle_id, policy.policy_id])).toEqual([["v1", "p1"]]);
    expect(dwellingsOf(pull).map(({ item, policy }) => [item.dwelling_id, policy.policy_id])).toEqual([["d1", "p2"]]);
    const index = indexPull(pull);
    expect(index.vehicles.has("v1")).toBe(true);
    expect(index.drivers.get("dr1")?.first_name).toBe("Ann");
    expect(index.policies.size).toBe(6);
  });

  it("shows a business and its locations once, with every policy that names them", () => {
    const insureds = commercialInsuredsOf(pull);
    expect(insureds).toHaveLength(1);
    expect(insureds[0]?.policies.map((p) => p.policy_id)).toEqual(["p3", "p4"]);
    const locations = locationsOf(pull);
    expect(locations).toHaveLength(1);
    expect(locations[0]?.policies.map((p) => p.policy_id)).toEqual(["p3", "p4"]);
  });

  it("finds workers' compensation and life policies", () => {
    expect(workersCompPoliciesOf(pull).map((p) => p.policy_id)).toEqual(["p4"]);
    expect(lifePoliciesOf(pull).map((p) => p.policy_id)).toEqual(["p5"]);
  });
});
