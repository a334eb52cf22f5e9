import type { Policy, Vehicle, VehicleCoverage } from "@/lib/service/schemas";
import { coverageLabel, vehicleCoverageKind, type VehicleCoverageKind } from "./coverage-names";

// A vehicle's liability and uninsured-motorist cover as numbers a rule can compare: split limits
// (per person / per accident), a combined single limit, declined, or not listed. Unlimited reads
// as Infinity; a limit that is missing, zero or negative reads as null (unknown), never as $0.

/** Lines whose vehicles are the personal autos the liability floors are meant for. */
export const AUTO_LINES = new Set(["AUTO", "MOTORCYCLE", "CLASSIC_CAR"]);

/** Vehicles still on the policy (a removed one is listed but no longer covered). */
export const activeVehicles = (policy: Policy) => policy.vehicles.filter((v) => !v.is_removed);

export type Limit = number | null;

export type Split = { perPerson: Limit; perAccident: Limit };

export type LiabilityRead =
  | { kind: "split"; perPerson: Limit; perAccident: Limit }
  | { kind: "csl"; limit: Limit }
  | { kind: "declined" }
  | { kind: "none"; odd: string[] };

const positive = (cents: number | null): Limit => (cents !== null && cents > 0 ? cents : null);

export function limitOf(cents: number | null, unlimited: boolean | null): Limit {
  return unlimited ? Infinity : positive(cents);
}

export function coveragesOfKind(vehicle: Vehicle, kind: VehicleCoverageKind): VehicleCoverage[] {
  return vehicle.coverages.filter((c) => vehicleCoverageKind(c) === kind);
}

/** The names of the vehicle's coverages the review cannot read, as the carrier wrote them. */
export function oddCoverages(vehicle: Vehicle): string[] {
  return vehicle.coverages.filter((c) => vehicleCoverageKind(c) === "ODD").map(coverageLabel);
}

const taken = (coverages: VehicleCoverage[]) => coverages.filter((c) => !c.is_declined);

/** Bodily injury: split limits first, else a combined single limit, else declined, else nothing. */
export function bodilyInjuryOf(vehicle: Vehicle): LiabilityRead {
  const split = taken(coveragesOfKind(vehicle, "BODILY_INJURY"))[0];
  if (split)
    return {
      kind: "split",
      perPerson: limitOf(split.per_person_limit_cents, split.per_person_unlimited),
      perAccident: limitOf(split.per_incident_limit_cents, split.per_incident_unlimited),
    };
  const csl = taken(coveragesOfKind(vehicle, "COMBINED_SINGLE_LIMIT"))[0];
  if (csl) return { kind: "csl", limit: limitOf(csl.per_incident_limit_cents, csl.per_incident_unlimited) };
  if (coveragesOfKind(vehicle, "BODILY_INJURY").length > 0) return { kind: "declined" };
  return { kind: "none", odd: oddCoverages(vehicle) };
}

/** Property damage: its own limit, else the combined single limit that also pays it. */
export function propertyDamageOf(vehicle: Vehicle): LiabilityRead {
  const pd = taken(coveragesOfKind(vehicle, "PROPERTY_DAMAGE"))[0];
  if (pd) return { kind: "csl", limit: limitOf(pd.per_incident_limit_cents, pd.per_incident_unlimited) };
  const csl = taken(coveragesOfKind(vehicle, "COMBINED_SINGLE_LIMIT"))[0];
  if (csl) return { kind: "csl", limit: limitOf(csl.per_incident_limit_cents, csl.per_incident_unlimited) };
  if (coveragesOfKind(vehicle, "PROPERTY_DAMAGE").length > 0) return { kind: "declined" };
  return { kind: "none", odd: oddCoverages(vehicle) };
}

/**
 * Uninsured/underinsured motorist bodily injury: the highest such cover taken (a vehicle may
 * list uninsured and underinsured apart). Split when it states a per-person limit.
 */
export function uninsuredMotoristOf(vehicle: Vehicle): LiabilityRead {
  const all = coveragesOfKind(vehicle, "UNINSURED_MOTORIST");
  const listed = taken(all).map((c) => ({
    perPerson: limitOf(c.per_person_limit_cents, c.per_person_unlimited),
    perAccident: limitOf(c.per_incident_limit_cents, c.per_incident_unlimited),
  }));
  if (listed.length === 0) return all.length > 0 ? { kind: "declined" } : { kind: "none", odd: oddCoverages(vehicle) };
  const best = listed.reduce((a, b) =>
    (b.perAccident ?? b.perPerson ?? 0) > (a.perAccident ?? a.perPerson ?? 0) ? b : a,
  );
  return best.perPerson === null && best.perAccident !== null
    ? { kind: "csl", limit: best.perAccident }
    : { kind: "split", ...best };
}
