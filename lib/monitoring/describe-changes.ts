import { formatCents, formatLimit, humanize } from "@/lib/format";
import type { Policy, Pull, Vehicle, VehicleCoverage } from "@/lib/service/schemas";

// What changed between two pulls of one account, in plain words an agent can act on:
// premium up or down (with the percentage), policies added, cancelled or renewed, vehicles and
// drivers added or removed, coverage limits raised or lowered, mortgagees, claims opened or
// closed. Computed from the stored snapshots, so it works with or without the service's
// MONITORING_EVENTS.

const policyKey = (p: Policy) => p.carrier_policy_number ?? p.policy_id;
export const vehicleKey = (v: Vehicle) => v.vin ?? v.hin ?? v.vehicle_id;
export const vehicleName = (v: Vehicle) => [v.year, v.make, v.model].filter(Boolean).join(" ") || v.vin || "a vehicle";
const coverageName = (c: VehicleCoverage) => c.friendly_name ?? humanize(c.name);
const lineName = (p: Policy) => humanize(p.policy_type ?? "policy");

function byKey<T>(items: T[], key: (item: T) => string): Map<string, T> {
  return new Map(items.map((item) => [key(item), item]));
}

function premiumChange(before: Policy, after: Policy): string | null {
  const a = before.total_premium_cents;
  const b = after.total_premium_cents;
  if (a === null || b === null || a === b) return null;
  const renewed = before.expiry_date !== after.expiry_date ? " at renewal" : "";
  const pct = a > 0 ? ` ${Math.round((Math.abs(b - a) / a) * 100)}%` : "";
  return `${lineName(after)} premium ${b > a ? "up" : "down"}${pct}${renewed} (${formatCents(a)} → ${formatCents(b)})`;
}

function limitChanges(vehicle: Vehicle, before: Vehicle): string[] {
  const old = byKey(before.coverages, coverageName);
  const changes: string[] = [];
  for (const coverage of vehicle.coverages) {
    const prior = old.get(coverageName(coverage));
    if (!prior) {
      changes.push(`${coverageName(coverage)} added on the ${vehicleName(vehicle)}`);
      continue;
    }
    for (const [field, label] of [
      ["per_person_limit_cents", "per-person limit"],
      ["per_incident_limit_cents", "per-incident limit"],
      ["deductible_cents", "deductible"],
    ] as const) {
      const a = prior[field];
      const b = coverage[field];
      if (a !== null && b !== null && a !== b)
        changes.push(
          `${coverageName(coverage)} ${label} ${b > a ? "raised" : "lowered"} from ${formatLimit(a)} to ${formatLimit(b)} on the ${vehicleName(vehicle)}`,
        );
    }
    if (!prior.is_declined && coverage.is_declined)
      changes.push(`${coverageName(coverage)} declined on the ${vehicleName(vehicle)}`);
  }
  for (const name of old.keys())
    if (!vehicle.coverages.some((c) => coverageName(c) === name))
      changes.push(`${name} removed from the ${vehicleName(vehicle)}`);
  return changes;
}

function policyChanges(before: Policy, after: Policy): string[] {
  const changes: string[] = [];
  const premium = premiumChange(before, after);
  if (premium) changes.push(premium);
  if (before.status !== after.status && after.status)
    changes.push(
      `${lineName(after)} policy ${after.status === "CANCELLED" ? "cancelled" : `now ${humanize(after.status).toLowerCase()}`}`,
    );
  const oldVehicles = byKey(before.vehicles, vehicleKey);
  for (const vehicle of after.vehicles) {
    const prior = oldVehicles.get(vehicleKey(vehicle));
    if (!prior) changes.push(`Vehicle added: ${vehicleName(vehicle)}`);
    else changes.push(...limitChanges(vehicle, prior));
  }
  for (const [key, vehicle] of oldVehicles)
    if (!after.vehicles.some((v) => vehicleKey(v) === key)) changes.push(`Vehicle removed: ${vehicleName(vehicle)}`);
  const oldMortgagees = new Set(before.dwellings.flatMap((d) => d.mortgagees.map((m) => m.name ?? "")));
  const newMortgagees = new Set(after.dwellings.flatMap((d) => d.mortgagees.map((m) => m.name ?? "")));
  for (const name of newMortgagees) if (name && !oldMortgagees.has(name)) changes.push(`Mortgagee added: ${name}`);
  for (const name of oldMortgagees) if (name && !newMortgagees.has(name)) changes.push(`Mortgagee removed: ${name}`);
  return changes;
}

export function describeChanges(before: Pull, after: Pull): string[] {
  const changes: string[] = [];
  const oldPolicies = byKey(before.policies, policyKey);
  for (const policy of after.policies) {
    const prior = oldPolicies.get(policyKey(policy));
    if (!prior)
      changes.push(
        `New ${lineName(policy).toLowerCase()} policy${policy.carrier_policy_number ? ` ${policy.carrier_policy_number}` : ""}`,
      );
    else changes.push(...policyChanges(prior, policy));
  }
  for (const [key, policy] of oldPolicies)
    if (!after.policies.some((p) => policyKey(p) === key))
      changes.push(
        `${lineName(policy)} policy ${policy.carrier_policy_number ?? ""} no longer listed`.replace(/\s+/g, " "),
      );
  const claimKey = (c: Pull["claims"][number]) => c.carrier_claim_identifier ?? c.claim_id;
  const oldClaims = byKey(before.claims, claimKey);
  for (const claim of after.claims) {
    const prior = oldClaims.get(claimKey(claim));
    const what = `${humanize(claim.type ?? "claim")}${claim.carrier_claim_identifier ? ` (${claim.carrier_claim_identifier})` : ""}`;
    if (!prior) changes.push(`Claim opened: ${what}`);
    else if (prior.status !== "CLOSED" && claim.status === "CLOSED")
      changes.push(
        `Claim closed: ${what}${claim.payout_cents !== null ? `, paid ${formatCents(claim.payout_cents)}` : ""}`,
      );
  }
  const driverName = (d: Pull["drivers"][number]) => [d.first_name, d.last_name].filter(Boolean).join(" ");
  const oldDrivers = new Set(before.drivers.map(driverName));
  for (const driver of after.drivers)
    if (!oldDrivers.has(driverName(driver))) changes.push(`Driver added: ${driverName(driver)}`);
  return changes;
}
