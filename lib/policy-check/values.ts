import { formatLimit } from "@/lib/format";
import type { Dwelling, Policy, Vehicle } from "@/lib/service/schemas";
import {
  bodilyInjuryOf,
  coveragesOfKind,
  propertyDamageOf,
  uninsuredMotoristOf,
  type LiabilityRead,
} from "@/lib/review/auto-liability";
import { dwellingCoverageKind } from "@/lib/review/coverage-names";

// What the carrier has on file for each policy-check rule, read from the pull itself, beside
// the service's outcome: the service's own message need not state the values it compared (its
// results' form is not published), and the agent discussing a failed rule needs the figure.
// Nothing on file reads as "not stated", never as $0.

const NOT_STATED = "not stated";

const money = (cents: number | null) =>
  cents === null ? NOT_STATED : cents === Infinity ? "unlimited" : formatLimit(cents);

function liabilityWords(read: LiabilityRead): string {
  switch (read.kind) {
    case "split":
      return `${money(read.perPerson)} per person / ${money(read.perAccident)} per accident`;
    case "csl":
      return `${money(read.limit)} combined`;
    case "declined":
      return "declined";
    case "none":
      return "none listed";
  }
}

function deductibleWords(vehicle: Vehicle, kind: "COLLISION" | "COMPREHENSIVE"): string {
  const coverage = coveragesOfKind(vehicle, kind).find((c) => !c.is_declined);
  if (!coverage) return coveragesOfKind(vehicle, kind).length > 0 ? "declined" : "none listed";
  const deductible = coverage.deductible_cents;
  return `deductible ${deductible === null || deductible < 0 ? NOT_STATED : formatLimit(deductible)}`;
}

const statusWords = (policy: Policy | undefined) =>
  policy?.status ? `policy ${policy.status.toLowerCase().replace(/_/g, " ")}` : `policy status ${NOT_STATED}`;

/** The carrier's figure for a vehicle rule; null for a rule we do not know. */
export function vehicleValue(rule: string, vehicle: Vehicle, policy: Policy | undefined): string | null {
  switch (rule) {
    case "MIN_BODILY_INJURY_COVERAGE":
      return liabilityWords(bodilyInjuryOf(vehicle));
    case "MIN_PROPERTY_DAMAGE_COVERAGE_CENTS":
      return liabilityWords(propertyDamageOf(vehicle));
    case "MIN_UNINSURED_MOTORIST_BODILY_INJURY_COVERAGE":
      return liabilityWords(uninsuredMotoristOf(vehicle));
    case "NO_COLLISION_COVERAGE":
    case "MAX_COLLISION_DEDUCTIBLE_CENTS":
      return `collision: ${deductibleWords(vehicle, "COLLISION")}`;
    case "NO_COMPREHENSIVE_COVERAGE":
    case "MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS":
      return `comprehensive: ${deductibleWords(vehicle, "COMPREHENSIVE")}`;
    case "POLICY_NOT_ACTIVE":
      return statusWords(policy);
    case "LIENHOLDER_NAME_MISMATCH":
      return vehicle.lien_holder
        ? `lien holder ${vehicle.lien_holder}`
        : vehicle.ownership_type
          ? `${vehicle.ownership_type.toLowerCase()}, no lien holder named`
          : `ownership ${NOT_STATED}`;
    case "VEHICLE_REMOVED":
      return vehicle.is_removed ? "removed from the policy" : "on the policy";
    case "DRIVER_REMOVED": {
      const excluded = vehicle.drivers.filter((d) => d.is_excluded).length;
      return excluded === 0 ? "no driver excluded" : `${excluded} driver${excluded === 1 ? "" : "s"} excluded`;
    }
    default:
      return null;
  }
}

/** The carrier's figure for a dwelling rule; null for a rule we do not know. */
export function dwellingValue(rule: string, dwelling: Dwelling, policy: Policy | undefined): string | null {
  switch (rule) {
    case "DWELLING_POLICY_NOT_ACTIVE":
      return statusWords(policy);
    case "LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST":
      return dwelling.loss_settlement_type
        ? `settled at ${dwelling.loss_settlement_type.toLowerCase().replace(/_/g, " ")}`
        : `loss settlement ${NOT_STATED}`;
    case "REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT": {
      const coverageA = dwelling.coverages.find((c) => dwellingCoverageKind(c) === "DWELLING" && !c.is_declined);
      const limit = coverageA?.per_incident_unlimited ? Infinity : (coverageA?.per_incident_limit_cents ?? null);
      const cost = dwelling.replacement_cost_cents;
      return `replacement cost ${money(cost !== null && cost > 0 ? cost : null)}, dwelling limit ${money(limit !== null && limit > 0 ? limit : null)}`;
    }
    default:
      return null;
  }
}

/** For each result of a pull's check, what the carrier has on file for its rule and subject. */
export function onFileOf(pull: { policies: Policy[] }) {
  const vehicles = new Map<string, { vehicle: Vehicle; policy: Policy }>();
  const dwellings = new Map<string, { dwelling: Dwelling; policy: Policy }>();
  const policies = new Map<string, Policy>();
  for (const policy of pull.policies) {
    policies.set(policy.policy_id, policy);
    for (const vehicle of policy.vehicles) vehicles.set(vehicle.vehicle_id, { vehicle, policy });
    for (const dwelling of policy.dwellings) dwellings.set(dwelling.dwelling_id, { dwelling, policy });
  }
  return (result: {
    check: string | null;
    vehicle_id: string | null;
    dwelling_id: string | null;
    policy_id: string | null;
  }): string | null => {
    const rule = result.check ?? "";
    const onVehicle = result.vehicle_id ? vehicles.get(result.vehicle_id) : undefined;
    if (onVehicle)
      return vehicleValue(rule, onVehicle.vehicle, policies.get(result.policy_id ?? "") ?? onVehicle.policy);
    const onDwelling = result.dwelling_id ? dwellings.get(result.dwelling_id) : undefined;
    if (onDwelling)
      return dwellingValue(rule, onDwelling.dwelling, policies.get(result.policy_id ?? "") ?? onDwelling.policy);
    const policy = result.policy_id ? policies.get(result.policy_id) : undefined;
    if (policy && (rule === "POLICY_NOT_ACTIVE" || rule === "DWELLING_POLICY_NOT_ACTIVE")) return statusWords(policy);
    return null;
  };
}
