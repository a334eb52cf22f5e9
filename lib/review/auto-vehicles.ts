import { fullName } from "@/lib/format";
import type { Policy, Pull, Vehicle } from "@/lib/service/schemas";
import { activeVehicles, coveragesOfKind, oddCoverages } from "./auto-liability";
import { findingKey, type Finding, type ReviewContext } from "./finding";
import { clip, listWords, money, plural, policyLabel, vehicleLabel } from "./finding-words";

// The auto rules about each vehicle and driver: a financed or leased vehicle without
// comprehensive and collision, deductibles above the agency's ceiling, a household driver on no
// vehicle, a vehicle nobody drives. Keys name the vehicle by its VIN (stable across refreshes,
// where the service's ids may not be) and the driver by the service's id.

const vehicleKey = (v: Vehicle) => v.vin ?? v.hin ?? v.vehicle_id;

/** Who holds an interest in the vehicle: its lien holder, else an additional interest naming it. */
function lenderOf(policy: Policy, vehicle: Vehicle): { lender: string | null; leased: boolean } | null {
  const leased = vehicle.ownership_type === "LEASE";
  const interest = policy.additional_interests.find((i) => {
    const type = typeof i.type === "string" ? i.type.toUpperCase() : "";
    return i.vehicle_id === vehicle.vehicle_id && /LIEN|LESS|LOSS_PAYEE|LENDER/.test(type);
  });
  const interestName = interest && typeof interest.name === "string" ? interest.name : null;
  const lender = clip(vehicle.lien_holder) || clip(interestName) || null;
  if (leased || vehicle.ownership_type === "FINANCE" || lender || interest)
    return {
      lender,
      leased: leased || (typeof interest?.type === "string" && /LESS/i.test(interest.type)),
    };
  return null;
}

function financedPhysicalDamage(context: ReviewContext, policy: Policy, vehicle: Vehicle): Finding | null {
  const owed = lenderOf(policy, vehicle);
  if (!owed) return null;
  const missing: string[] = [];
  const declined: string[] = [];
  for (const [kind, label] of [
    ["COMPREHENSIVE", "comprehensive"],
    ["COLLISION", "collision"],
  ] as const) {
    const listed = coveragesOfKind(vehicle, kind);
    if (listed.length === 0) missing.push(label);
    else if (listed.every((c) => c.is_declined)) declined.push(label);
  }
  if (missing.length === 0 && declined.length === 0) return null;
  const rule = "auto-financed-physical-damage";
  const base = {
    key: findingKey(rule, context.policyKey(policy), vehicleKey(vehicle)),
    rule,
    line: policy.policy_type ?? "OTHER",
  } as const;
  const how = owed.leased ? "leased" : "financed";
  const who = owed.lender ? ` (${owed.lender} holds ${owed.leased ? "the lease" : "the lien"})` : "";
  const odd = oddCoverages(vehicle);
  // Not listed is not proof of not bought, when the carrier's data may be incomplete.
  if (declined.length === 0 && (odd.length > 0 || policy.limited_access))
    return {
      ...base,
      severity: "unknown",
      title: `Cover of a ${how} vehicle unclear`,
      detail: `${vehicleLabel(vehicle)} is ${how}${who}, and ${policyLabel(policy)} lists no ${listWords(missing)}${
        policy.limited_access
          ? ", but the carrier gave limited access to the policy"
          : ` by a name the review knows (it lists ${odd
              .slice(0, 3)
              .map((n) => `"${n}"`)
              .join(", ")})`
      }.`,
      nextStep: "Check the declarations page for comprehensive and collision on this vehicle.",
    };
  const lacking = [...declined.map((d) => `${d} declined`), ...missing.map((m) => `no ${m}`)];
  return {
    ...base,
    severity: "gap",
    title: `${owed.leased ? "Leased" : "Financed"} vehicle without comprehensive and collision`,
    detail: `${vehicleLabel(vehicle)} is ${how}${who}, but ${policyLabel(policy)} has ${listWords(lacking)}. After a theft or a crash the household would still owe the ${owed.leased ? "lease" : "loan"} with no car, and the lender may buy costly cover of its own and bill it.`,
    nextStep: `Add ${listWords([...declined, ...missing])}: the ${owed.leased ? "lease" : "loan"} contract almost always requires them.`,
  };
}

function deductibles(context: ReviewContext, policy: Policy, vehicle: Vehicle): Finding | null {
  const ceiling = context.settings.deductibleCeilingCents;
  const high: string[] = [];
  const unstated: string[] = [];
  for (const [kind, label] of [
    ["COLLISION", "collision"],
    ["COMPREHENSIVE", "comprehensive"],
  ] as const) {
    const coverage = coveragesOfKind(vehicle, kind).find((c) => !c.is_declined);
    if (!coverage) continue;
    if (coverage.deductible_cents === null || coverage.deductible_cents < 0) unstated.push(label);
    else if (coverage.deductible_cents > ceiling) high.push(`${label} ${money(coverage.deductible_cents)}`);
  }
  const rule = "auto-deductible";
  const base = {
    key: findingKey(rule, context.policyKey(policy), vehicleKey(vehicle)),
    rule,
    line: policy.policy_type ?? "OTHER",
  } as const;
  if (high.length > 0)
    return {
      ...base,
      severity: "warning",
      title: `Deductible above ${money(ceiling)}`,
      detail: `${vehicleLabel(vehicle)} on ${policyLabel(policy)} has a ${listWords(high)} deductible, above the agency's ceiling of ${money(ceiling)}: the household pays that much of every claim itself.`,
      nextStep: `Show the client the price of a ${money(ceiling)} deductible, and make sure they could pay the current one tomorrow.`,
    };
  if (unstated.length > 0)
    return {
      ...base,
      severity: "unknown",
      title: "Deductible not stated",
      detail: `${vehicleLabel(vehicle)} on ${policyLabel(policy)} lists ${listWords(unstated)} without a deductible.`,
      nextStep: "Read the deductibles from the declarations page.",
    };
  return null;
}

type DriverOf = Pull["drivers"][number];
const sameDriver = (a: DriverOf, b: Vehicle["drivers"][number]) =>
  a.driver_id === b.driver_id ||
  (Boolean(a.first_name && a.last_name && a.date_of_birth_str) &&
    a.first_name?.toLowerCase() === b.first_name?.toLowerCase() &&
    a.last_name?.toLowerCase() === b.last_name?.toLowerCase() &&
    a.date_of_birth_str === b.date_of_birth_str);

const driverName = (d: { first_name: string | null; middle_name: string | null; last_name: string | null }) => {
  const name = clip(fullName(d));
  return name === "—" || name === "" ? "A driver with no name" : name;
};

/** Drivers on no vehicle, and vehicles with no driver, on the policies that say who drives what. */
function driversAndVehicles(context: ReviewContext, policies: Policy[]): Finding[] {
  const findings: Finding[] = [];
  const listing = policies.filter((p) => activeVehicles(p).some((v) => v.drivers.length > 0));
  if (context.on("auto-vehicle-without-driver")) {
    for (const policy of policies) {
      const rule = "auto-vehicle-without-driver";
      const line = policy.policy_type ?? "OTHER";
      if (!listing.includes(policy)) {
        // Some carriers list drivers only for the whole policy: nothing to match per vehicle.
        if (context.pull.drivers.length > 0)
          findings.push({
            key: findingKey(rule, context.policyKey(policy), "none-listed"),
            rule,
            line,
            severity: "unknown",
            title: "Who drives which vehicle is not stated",
            detail: `${policyLabel(policy)} lists ${plural(activeVehicles(policy).length, "vehicle")} and no driver on any of them, while the account names ${plural(context.pull.drivers.length, "driver")}.`,
            nextStep:
              "Confirm with the client who drives each vehicle, and that every driver is listed with the carrier.",
          });
        continue;
      }
      for (const vehicle of activeVehicles(policy)) {
        if (vehicle.drivers.some((d) => !d.is_excluded)) continue;
        findings.push({
          key: findingKey(rule, context.policyKey(policy), vehicleKey(vehicle)),
          rule,
          line,
          severity: "warning",
          title: "A vehicle with no driver",
          detail:
            vehicle.drivers.length === 0
              ? `${vehicleLabel(vehicle)} on ${policyLabel(policy)} has no driver listed.`
              : `Every driver listed on ${vehicleLabel(vehicle)} (${policyLabel(policy)}) is excluded.`,
          nextStep: "Ask who drives it: an unlisted regular driver can give the carrier grounds to refuse a claim.",
        });
      }
    }
  }
  if (context.on("auto-driver-without-vehicle") && listing.length > 0) {
    const rule = "auto-driver-without-vehicle";
    const line = listing[0]?.policy_type ?? "AUTO";
    for (const driver of context.pull.drivers) {
      const places = listing.flatMap((p) =>
        activeVehicles(p).flatMap((v) => v.drivers.filter((d) => sameDriver(driver, d))),
      );
      if (places.some((d) => !d.is_excluded)) continue;
      const excluded = places.length > 0;
      findings.push({
        key: findingKey(rule, driver.driver_id),
        rule,
        line,
        severity: "warning",
        title: excluded ? "A household driver excluded from every vehicle" : "A household driver on no vehicle",
        detail: excluded
          ? `${driverName(driver)} is excluded from every vehicle: nothing pays if they drive one of them.`
          : `${driverName(driver)} is a driver on the account but is listed on no vehicle.`,
        nextStep: excluded
          ? "Confirm the client wants the exclusion, and that this driver never uses the household's vehicles."
          : "Ask whether they drive one of the household's vehicles, and list them with the carrier if so.",
      });
    }
  }
  return findings;
}

/** The per-vehicle and per-driver findings of the household's auto policies. */
export function vehicleFindings(context: ReviewContext, policies: Policy[]): Finding[] {
  const findings: Finding[] = [];
  for (const policy of policies)
    for (const vehicle of activeVehicles(policy)) {
      const financed = context.on("auto-financed-physical-damage")
        ? financedPhysicalDamage(context, policy, vehicle)
        : null;
      if (financed) findings.push(financed);
      const deductible = context.on("auto-deductible") ? deductibles(context, policy, vehicle) : null;
      if (deductible) findings.push(deductible);
    }
  return [...findings, ...driversAndVehicles(context, policies)];
}
