import { vehicleDriver, type Driver } from "./drivers";
import { address, type Address } from "./people";
import { flat, isoDaysFrom, type Random } from "./random";

// Personal and commercial auto (spec 2.9, 2.10): vehicles with the coverages a real
// declarations page lists — split or combined limits, deductibles, stacked UM, unlimited PIP
// in Michigan, tort options in Pennsylvania, coverages the insured declined — drivers shared
// with the pull (some excluded), lien holders, and per-vehicle premium groups.

export const CARS = [
  ["Toyota", "Camry", "LE"],
  ["Honda", "CR-V", "EX-L"],
  ["Ford", "F-150", "XLT"],
  ["Subaru", "Outback", "Premium"],
  ["Tesla", "Model 3", "Long Range"],
  ["Chevrolet", "Equinox", "LT"],
  ["Hyundai", "Elantra", "SEL"],
  ["Jeep", "Grand Cherokee", "Limited"],
  ["Kia", "Telluride", "EX"],
  ["Nissan", "Rogue", "SV"],
] as const;
const BODY: Record<string, string> = {
  Camry: "Sedan",
  "CR-V": "SUV",
  "F-150": "Pickup",
  Outback: "Wagon",
  "Model 3": "Sedan",
  Equinox: "SUV",
  Elantra: "Sedan",
  "Grand Cherokee": "SUV",
  Telluride: "SUV",
  Rogue: "SUV",
};
const WORK_VEHICLES = [
  ["Ford", "Transit", "250 Cargo"],
  ["Ram", "ProMaster", "2500"],
  ["Chevrolet", "Silverado 2500HD", "WT"],
  ["Ford", "F-250", "XL"],
] as const;
const MOTORCYCLES = [
  ["Harley-Davidson", "Street Glide", "Special"],
  ["Honda", "Gold Wing", "Tour"],
  ["Kawasaki", "Ninja 650", "ABS"],
] as const;
export const LENDERS = [
  "Ally Financial",
  "Capital One Auto Finance",
  "Toyota Financial Services",
  "Wells Fargo Auto",
  "Chase Auto",
  "Navy Federal Credit Union",
];
const VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789";

export function vin(random: Random): string {
  const chars: string[] = [];
  for (let i = 0; i < 17; i++) chars.push(VIN_CHARS.charAt(Math.floor(random.next() * VIN_CHARS.length)));
  return chars.join("");
}

const LIMIT_PAIRS = [
  [2_500_000, 5_000_000],
  [5_000_000, 10_000_000],
  [10_000_000, 30_000_000],
  [25_000_000, 50_000_000],
  [50_000_000, 100_000_000],
] as const;

type CoverageValues = {
  premium_cents?: number | null;
  per_person_limit_cents?: number | null;
  per_incident_limit_cents?: number | null;
  per_day_limit_cents?: number | null;
  per_person_unlimited?: boolean;
  per_incident_unlimited?: boolean;
  max_days?: number | null;
  deductible_cents?: number | null;
  actual_cash_value?: boolean;
  is_declined?: boolean;
  is_stacked?: boolean | null;
  pip_deductible_applicability?: string | null;
};

/** Every field written out, in the spec's order: the most numerous object of a book, kept cheap. */
function coverage(random: Random, friendly: string, name: string, v: CoverageValues) {
  return {
    vehicle_coverage_id: random.uuid(),
    premium_group_id: null as string | null,
    name,
    friendly_name: friendly,
    premium_cents: v.premium_cents === undefined ? random.int(15, 320) * 100 : v.premium_cents,
    per_person_limit_cents: v.per_person_limit_cents ?? null,
    per_incident_limit_cents: v.per_incident_limit_cents ?? null,
    per_day_limit_cents: v.per_day_limit_cents ?? null,
    per_person_unlimited: v.per_person_unlimited ?? false,
    per_incident_unlimited: v.per_incident_unlimited ?? false,
    max_days: v.max_days ?? null,
    deductible_cents: v.deductible_cents ?? null,
    actual_cash_value: v.actual_cash_value ?? false,
    is_declined: v.is_declined ?? false,
    is_stacked: v.is_stacked ?? null,
    pip_deductible_applicability: v.pip_deductible_applicability ?? null,
    per_mile_premium_tenth_of_cents: null as number | null,
  };
}

export type Coverage = ReturnType<typeof coverage>;

/** A coverage the insured was offered and turned down: no limit, no premium. */
const declined = (random: Random, friendly: string, name: string) =>
  coverage(random, friendly, name, { is_declined: true, premium_cents: null });

export type AutoOptions = {
  state: string;
  financed: boolean;
  oldCar: boolean;
  unlimitedPip: boolean;
  commercial: boolean;
};

function coverages(random: Random, o: AutoOptions): Coverage[] {
  const list: Coverage[] = [];
  if (o.commercial || random.chance(0.1)) {
    list.push(
      coverage(random, "Combined Single Limit", "CSL", {
        per_incident_limit_cents: random.pick([50_000_000, 100_000_000]),
      }),
    );
  } else {
    const [perPerson, perIncident] = random.pick(LIMIT_PAIRS);
    list.push(
      coverage(random, "Bodily Injury Liability", "BI", {
        per_person_limit_cents: perPerson,
        per_incident_limit_cents: perIncident,
      }),
    );
    list.push(
      coverage(random, "Property Damage Liability", "PD", {
        per_incident_limit_cents: random.pick([2_500_000, 5_000_000, 10_000_000]),
      }),
    );
    // Rejecting UM in writing is common and must show as declined, not as missing.
    if (random.chance(0.15))
      list.push(declined(random, "Uninsured / Underinsured Motorist Bodily Injury Liability", "UMUIM"));
    else
      list.push(
        coverage(random, "Uninsured / Underinsured Motorist Bodily Injury Liability", "UMUIM", {
          per_person_limit_cents: perPerson,
          per_incident_limit_cents: perIncident,
          is_stacked: random.pick([true, false, null]),
        }),
      );
    if (random.chance(0.3))
      list.push(
        coverage(random, "Uninsured Motorist Property Damage Liability", "UMPD", {
          per_incident_limit_cents: 2_500_000,
          deductible_cents: 25_000,
        }),
      );
  }
  if (o.state === "MI" || o.unlimitedPip) {
    list.push(
      coverage(random, "Personal Injury Protection", "PIP", {
        per_person_unlimited: true,
        per_incident_unlimited: true,
        pip_deductible_applicability: random.pick(["NAMED_INSURED", "NAMED_INSURED_AND_RESIDENT_RELATIVES"]),
      }),
    );
  } else if (o.state === "FL" || o.state === "TX") {
    list.push(
      coverage(random, "Personal Injury Protection", "PIP", {
        per_person_limit_cents: 1_000_000,
        deductible_cents: random.pick([0, 25_000, 100_000]),
        pip_deductible_applicability: "NAMED_INSURED",
      }),
    );
  } else {
    list.push(
      coverage(random, "Medical Payments", "MEDPAY", {
        per_person_limit_cents: random.pick([100_000, 500_000, 1_000_000]),
      }),
    );
  }
  if (o.state === "PA") {
    const full = random.chance(0.6);
    list.push(full ? coverage(random, "Full Tort", "FTORT", {}) : declined(random, "Full Tort", "FTORT"));
    list.push(full ? declined(random, "Limited Tort", "LTORT") : coverage(random, "Limited Tort", "LTORT", {}));
  }
  // Physical damage: often dropped on an old car that is paid off.
  if (o.oldCar && !o.financed) {
    list.push(declined(random, "Comprehensive", "COMP"), declined(random, "Collision", "COLL"));
  } else {
    list.push(
      coverage(random, "Comprehensive", "COMP", {
        deductible_cents: random.pick([10_000, 25_000, 50_000, 100_000]),
        actual_cash_value: true,
      }),
    );
    list.push(
      coverage(random, "Collision", "COLL", {
        deductible_cents: random.pick([25_000, 50_000, 100_000, 250_000]),
        actual_cash_value: true,
      }),
    );
    if (random.chance(0.25)) list.push(coverage(random, "Full Glass", "GLASS", { deductible_cents: 0 }));
  }
  if (o.commercial) {
    list.push(
      coverage(random, "Motor Cargo", "CARGO", {
        per_incident_limit_cents: random.pick([2_500_000, 10_000_000]),
        deductible_cents: 100_000,
      }),
    );
    if (random.chance(0.3))
      list.push(
        coverage(random, "On Hook", "ONHOOK", { per_incident_limit_cents: 5_000_000, deductible_cents: 50_000 }),
      );
    return list;
  }
  if (random.chance(0.7))
    list.push(
      coverage(random, "Rental Reimbursement", "RREIM", {
        per_day_limit_cents: random.pick([3_000, 4_000, 5_000]),
        max_days: 30,
      }),
    );
  else list.push(declined(random, "Rental Reimbursement", "RREIM"));
  list.push(
    coverage(random, random.pick(["Towing and Labor", "Emergency Road Service"]), "TL", {
      per_incident_limit_cents: random.pick([7_500, 10_000, 20_000]),
    }),
  );
  if (o.financed) list.push(coverage(random, "Loan or Lease Assistance", "GAP", { per_incident_limit_cents: null }));
  if (random.chance(0.12)) list.push(coverage(random, "Rideshare Gap Protection", "RIDESHARE", {}));
  if (random.chance(0.1))
    list.push(
      coverage(random, "Custom Parts and Equipment", "CPE", {
        per_incident_limit_cents: random.pick([100_000, 500_000]),
      }),
    );
  return list;
}

export type VehicleOptions = {
  now: Date;
  state: string;
  drivers: Driver[];
  /** Drivers the carrier excluded: listed on every vehicle with is_excluded true. */
  excludedIds: ReadonlySet<string>;
  /** The same list for every vehicle of a policy, built once (see vehicleDrivers). */
  vehicleDrivers?: ReturnType<typeof vehicleDrivers>;
  perMile: boolean;
  unlimitedPip: boolean;
  kind: "car" | "motorcycle" | "work";
  /** Where the vehicles are usually kept. */
  garage?: Address;
};

export function vehicle(random: Random, o: VehicleOptions) {
  const [make, model, series] =
    o.kind === "motorcycle"
      ? random.pick(MOTORCYCLES)
      : o.kind === "work"
        ? random.pick(WORK_VEHICLES)
        : random.pick(CARS);
  const year = random.int(o.now.getUTCFullYear() - 16, o.now.getUTCFullYear() + 1);
  const oldCar = year < o.now.getUTCFullYear() - 10;
  const ownership = oldCar ? "OWN" : random.pick(["OWN", "FINANCE", "FINANCE", "LEASE", null] as const);
  const financed = ownership === "FINANCE" || ownership === "LEASE";
  const lienHolderAddress: Address | null = financed ? address(random, "LIENHOLDER") : null;
  const covs = coverages(random, {
    state: o.state,
    financed,
    oldCar,
    unlimitedPip: o.unlimitedPip,
    commercial: o.kind === "work",
  });
  if (o.perMile) for (const c of covs) if (!c.is_declined) c.per_mile_premium_tenth_of_cents = random.int(20, 90);
  const ageYears = Math.max(0, o.now.getUTCFullYear() - year);
  return {
    vehicle_id: random.uuid(),
    year,
    make,
    model,
    series,
    series2: random.chance(0.2) ? random.pick(["AWD", "4dr", "Hybrid", "Crew Cab"]) : null,
    type:
      o.kind === "motorcycle"
        ? "Motorcycle"
        : o.kind === "work"
          ? random.pick(["Cargo Van", "Pickup"])
          : (BODY[model] ?? "Private Passenger"),
    annual_mileage: o.kind === "work" ? random.int(15, 40) * 1000 : random.int(3, 18) * 1000,
    current_mileage: random.chance(0.85)
      ? Math.max(50, ageYears * random.int(6, 15) * 1000 + random.int(0, 999))
      : null,
    vin: vin(random),
    hin: null,
    serial_number: null,
    uses:
      o.kind === "work"
        ? ["WORK"]
        : o.kind === "motorcycle"
          ? ["PLEASURE"]
          : BODY[model] === "Pickup" && random.chance(0.4)
            ? ["FARM", "WORK"]
            : random.pick([
                ["COMMUTE"],
                ["PERSONAL"],
                ["PLEASURE"],
                ["COMMUTE", "PLEASURE"],
                ["WORK"],
                ["SCHOOL"],
                null,
              ]),
    purchase_date: random.chance(0.8) ? isoDaysFrom(o.now, -random.int(30, Math.max(60, ageYears * 365))) : null,
    ownership_type: ownership,
    features: random.pick([
      ["Anti-lock brakes", "Anti-theft device"],
      ["Passive restraints", "Daytime running lights"],
      [],
      null,
    ]),
    is_removed: false,
    lien_holder: financed ? random.pick(LENDERS) : null,
    // Mostly kept at home; a student's car may live elsewhere.
    garaging_address: o.garage && random.chance(0.85) ? o.garage : address(random, "PHYSICAL", o.state),
    lien_holder_address: lienHolderAddress,
    coverages: covs,
    drivers: o.vehicleDrivers ?? vehicleDrivers(o.drivers, o.excludedIds),
  };
}

/** A policy's drivers as each of its vehicles lists them; vehicles may share the one list. */
export function vehicleDrivers(drivers: Driver[], excludedIds: ReadonlySet<string>) {
  return drivers.map((d) => vehicleDriver(d, excludedIds.has(d.driver_id)));
}

export type Vehicle = ReturnType<typeof vehicle>;

/** A boat: no VIN but a hull identification number, and boat coverages. */
export function boat(random: Random, now: Date, state: string, drivers: Driver[]) {
  const year = random.int(now.getUTCFullYear() - 20, now.getUTCFullYear());
  const [make, model] = random.pick([
    ["Sea Ray", "SPX 190"],
    ["Boston Whaler", "170 Montauk"],
    ["Yamaha", "AR195"],
  ] as const);
  return {
    vehicle_id: random.uuid(),
    year,
    make,
    model,
    series: null,
    series2: null,
    type: "Boat",
    annual_mileage: null,
    current_mileage: null,
    vin: null,
    hin: `${random.pick(["SER", "BWC", "YAM"])}${random.digits(5)}${random.pick(["A", "B", "C", "D"])}${random.digits(3)}`,
    serial_number: `ENG${random.digits(7)}`,
    uses: ["PLEASURE"],
    purchase_date: isoDaysFrom(now, -random.int(100, 3000)),
    ownership_type: "OWN",
    features: ["Trailer"],
    is_removed: false,
    lien_holder: null,
    garaging_address: address(random, "PHYSICAL", state),
    lien_holder_address: null,
    coverages: [
      coverage(random, "Single Limit Liability", "LIAB", { per_incident_limit_cents: 30_000_000 }),
      coverage(random, "Medical Payments", "MEDPAY", { per_person_limit_cents: 100_000 }),
      coverage(random, "Uninsured Motorists", "UM", { per_incident_limit_cents: 10_000_000 }),
      coverage(random, "Replacement Cost Personal Effects", "EFFECTS", {
        per_incident_limit_cents: 150_000,
        deductible_cents: 25_000,
      }),
      coverage(random, "Emergency Expense", "EMERG", { per_incident_limit_cents: 50_000 }),
    ],
    drivers: drivers.map((d) => vehicleDriver(d, false)),
  };
}

/** One premium group per vehicle, and each of its coverages pointing at it. */
export function premiumGroups(
  random: Random,
  vehicles: Array<{ year: number | null; make: string; model: string; coverages: Coverage[] }>,
) {
  return vehicles.map((v) => {
    const id = random.uuid();
    let total = 0;
    for (const c of v.coverages) {
      c.premium_group_id = id;
      total += c.premium_cents ?? 0;
    }
    return {
      premium_group_id: id,
      name: flat(v.year === null ? "" : `${v.year} `, v.make, " ", v.model),
      premium_cents: total,
    };
  });
}

/** A vehicle the insured sold mid-term: still on the policy record, flagged removed. */
export function removed<V extends { is_removed: boolean; coverages: Coverage[] }>(v: V): V {
  return { ...v, is_removed: true, coverages: v.coverages.map((c) => ({ ...c, premium_cents: 0 })) };
}
