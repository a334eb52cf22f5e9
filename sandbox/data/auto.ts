import { address, type Person } from "./people";
import type { Random } from "./random";
import { isoDaysFrom } from "./random";

// Personal auto: vehicles with realistic coverages, limits, deductibles, drivers and liens.
const CARS = [["Toyota", "Camry", "LE"], ["Honda", "CR-V", "EX-L"], ["Ford", "F-150", "XLT"], ["Subaru", "Outback", "Premium"], ["Tesla", "Model 3", "Long Range"], ["Chevrolet", "Equinox", "LT"], ["Hyundai", "Elantra", "SEL"], ["Jeep", "Grand Cherokee", "Limited"]] as const;
const LENDERS = ["Ally Financial", "Capital One Auto Finance", "Toyota Financial Services", "Wells Fargo Auto"];
const VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789";

export function vin(random: Random): string {
  return Array.from({ length: 17 }, () => random.pick(VIN_CHARS.split(""))).join("");
}

const LIMIT_PAIRS = [[2_500_000, 5_000_000], [5_000_000, 10_000_000], [10_000_000, 30_000_000], [25_000_000, 50_000_000]] as const;

type Coverage = Record<string, unknown> & { per_mile_premium_tenth_of_cents: number | null };

function coverage(random: Random, friendly: string, name: string, values: Record<string, unknown>): Coverage {
  return {
    vehicle_coverage_id: random.uuid(),
    premium_group_id: null,
    name,
    friendly_name: friendly,
    premium_cents: random.int(40, 600) * 100,
    per_person_limit_cents: null,
    per_incident_limit_cents: null,
    per_day_limit_cents: null,
    per_person_unlimited: false,
    per_incident_unlimited: false,
    max_days: null,
    deductible_cents: null,
    actual_cash_value: false,
    is_declined: false,
    is_stacked: null,
    pip_deductible_applicability: null,
    per_mile_premium_tenth_of_cents: null,
    ...values,
  };
}

function coverages(random: Random) {
  const [perPerson, perIncident] = random.pick(LIMIT_PAIRS);
  const list = [
    coverage(random, "Bodily Injury Liability", "BI", { per_person_limit_cents: perPerson, per_incident_limit_cents: perIncident }),
    coverage(random, "Property Damage Liability", "PD", { per_incident_limit_cents: random.pick([5_000_000, 10_000_000]) }),
    coverage(random, "Uninsured Motorist Bodily Injury Liability", "UMBI", { per_person_limit_cents: perPerson, per_incident_limit_cents: perIncident, is_stacked: random.chance(0.5) }),
    coverage(random, "Comprehensive", "COMP", { deductible_cents: random.pick([25_000, 50_000, 100_000]), actual_cash_value: true }),
    coverage(random, "Collision", "COLL", { deductible_cents: random.pick([50_000, 100_000]), actual_cash_value: true }),
    coverage(random, "Medical Payments", "MEDPAY", { per_person_limit_cents: 500_000 }),
    coverage(random, "Rental Reimbursement", "RREIM", { per_day_limit_cents: 4_000, max_days: 30 }),
    coverage(random, "Towing and Labor", "TL", { per_incident_limit_cents: 10_000 }),
  ];
  if (random.chance(0.3)) list.push(coverage(random, "Personal Injury Protection", "PIP", { per_person_unlimited: true, per_incident_unlimited: true, pip_deductible_applicability: "NAMED_INSURED" }));
  if (random.chance(0.3)) list.push(coverage(random, "Loan or Lease Assistance", "GAP", { is_declined: true, premium_cents: null }));
  return list;
}

export function vehicleDriver(random: Random, who: Person, relationship: string, excluded: boolean) {
  return {
    driver_id: random.uuid(),
    first_name: who.first,
    middle_name: who.middle,
    last_name: who.last,
    drivers_license: `${random.pick(["D", "S", "K"])}${random.digits(8)}`,
    drivers_license_state: random.pick(["TX", "OH", "FL", "CO"]),
    date_of_birth_str: who.birth,
    occupation: random.pick(["Teacher", "Engineer", "Nurse", "Sales", null]),
    age_on_date: null,
    age: 2026 - Number(who.birth.slice(0, 4)),
    age_licensed: 16,
    gender: who.gender,
    marital_status: random.pick(["SINGLE", "MARRIED", "DIVORCED"]),
    education: random.pick(["BACHELORS", "HIGH_SCHOOL", "MASTERS", null]),
    relationship_to_insured: relationship,
    is_excluded: excluded,
  };
}

export function vehicles(random: Random, holder: Person, household: Person[], now: Date, perMile: boolean) {
  return Array.from({ length: random.int(1, 3) }, () => {
    const [make, model, series] = random.pick(CARS);
    const ownership = random.pick(["OWN", "FINANCE", "LEASE"] as const);
    const financed = ownership !== "OWN";
    const covs = coverages(random);
    if (perMile) for (const c of covs) c.per_mile_premium_tenth_of_cents = random.int(20, 90);
    return {
      vehicle_id: random.uuid(),
      year: random.int(2012, 2026),
      make,
      model,
      series,
      series2: null,
      type: "Private Passenger",
      annual_mileage: random.int(4, 18) * 1000,
      current_mileage: random.int(5, 140) * 1000,
      vin: vin(random),
      hin: null,
      serial_number: null,
      uses: [random.pick(["COMMUTE", "PERSONAL", "PLEASURE", "WORK"])],
      purchase_date: isoDaysFrom(now, -random.int(200, 3000)),
      ownership_type: ownership,
      features: random.chance(0.5) ? ["Anti-lock brakes", "Anti-theft device"] : [],
      is_removed: false,
      lien_holder: financed ? random.pick(LENDERS) : null,
      garaging_address: address(random, "PHYSICAL"),
      lien_holder_address: financed ? address(random, "LIENHOLDER") : null,
      coverages: covs,
      drivers: [
        vehicleDriver(random, holder, "INSURED", false),
        ...household.map((p, i) => vehicleDriver(random, p, i === 0 ? "SPOUSE" : "CHILD", i === 1 && random.chance(0.6))),
      ],
    };
  });
}
