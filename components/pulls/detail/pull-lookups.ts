import type {
  Address,
  CommercialNamedInsured,
  Driver,
  Dwelling,
  Location,
  Policy,
  Pull,
  Vehicle,
} from "@/lib/service/schemas";
import { POLICY_TYPES } from "@/lib/service/schemas";
import { enumLabel } from "./enum-label";

// Records of a pull point at each other by id (a claim at its policy, vehicle and driver; an
// agent at its policies). These lookups turn the ids into what an agent reads, and gather the
// vehicles, homes and business records from every policy into the page's own sections.

export function policyLabel(policy: Policy): string {
  const carrier = policy.carrier_friendly_name ?? policy.carrier_name;
  return [enumLabel(POLICY_TYPES, policy.policy_type), carrier, policy.carrier_policy_number]
    .filter((part) => part && part !== "—")
    .join(" · ");
}

export function vehicleTitle(vehicle: Vehicle): string {
  return (
    [vehicle.year, vehicle.make, vehicle.model, vehicle.series, vehicle.series2]
      .filter((part) => part !== null && part !== "")
      .join(" ") || "Vehicle"
  );
}

export type PullIndex = {
  policies: Map<string, Policy>;
  drivers: Map<string, Driver>;
  addresses: Map<string, Address>;
  vehicles: Map<string, Vehicle>;
  dwellings: Map<string, Dwelling>;
};

export function indexPull(pull: Pull): PullIndex {
  const index: PullIndex = {
    policies: new Map(),
    drivers: new Map(),
    addresses: new Map(),
    vehicles: new Map(),
    dwellings: new Map(),
  };
  for (const policy of pull.policies) {
    index.policies.set(policy.policy_id, policy);
    for (const vehicle of policy.vehicles) index.vehicles.set(vehicle.vehicle_id, vehicle);
    for (const dwelling of policy.dwellings) index.dwellings.set(dwelling.dwelling_id, dwelling);
  }
  for (const driver of pull.drivers) index.drivers.set(driver.driver_id, driver);
  for (const address of pull.addresses) index.addresses.set(address.address_id, address);
  return index;
}

type OnPolicy<T> = { item: T; policy: Policy };

export function vehiclesOf(pull: Pull): OnPolicy<Vehicle>[] {
  return pull.policies.flatMap((policy) => policy.vehicles.map((item) => ({ item, policy })));
}

export function dwellingsOf(pull: Pull): OnPolicy<Dwelling>[] {
  return pull.policies.flatMap((policy) => policy.dwellings.map((item) => ({ item, policy })));
}

export type Grouped<T> = { item: T; policies: Policy[] };

/** A business is usually named on each of its policies: one row per business, with its policies. */
export function commercialInsuredsOf(pull: Pull): Grouped<CommercialNamedInsured>[] {
  const groups = new Map<string, Grouped<CommercialNamedInsured>>();
  for (const policy of pull.policies) {
    for (const insured of policy.commercial_named_insureds) {
      const key = JSON.stringify([insured.name, insured.fein, insured.form_of_business]);
      const group = groups.get(key);
      if (group) group.policies.push(policy);
      else groups.set(key, { item: insured, policies: [policy] });
    }
  }
  return [...groups.values()];
}

/** Policies of one business share its locations: each location once, with its policies. */
export function locationsOf(pull: Pull): Grouped<Location>[] {
  const groups = new Map<string, Grouped<Location>>();
  pull.policies.forEach((policy, policyIndex) =>
    policy.locations.forEach((location, locationIndex) => {
      const id = location.location_id;
      const key = typeof id === "string" ? id : `${policyIndex}:${locationIndex}`;
      const group = groups.get(key);
      if (group) group.policies.push(policy);
      else groups.set(key, { item: location, policies: [policy] });
    }),
  );
  return [...groups.values()];
}

/** Policies that report workers' compensation premiums (estimated annual, minimum, deposit). */
export function workersCompPoliciesOf(pull: Pull): Policy[] {
  return pull.policies.filter(
    (policy) =>
      policy.policy_type === "WORKERS_COMPENSATION" ||
      policy.total_estimated_annual_premium_cents !== null ||
      policy.total_minimum_premium_cents !== null ||
      policy.total_deposit_premium_cents !== null,
  );
}

export function lifePoliciesOf(pull: Pull): Policy[] {
  return pull.policies.filter((policy) => policy.life !== null && Object.keys(policy.life).length > 0);
}
