import { createHash } from "node:crypto";
import { CARS, LENDERS, vin } from "./auto";
import { person } from "./people";
import { propertyFields } from "./property";
import { createRandom, isoDaysFrom, type Random } from "./random";

// Enrichment look-ups (spec 2.18). Public records have no seed of their own, so each answer is
// drawn from a stream seeded by the sandbox seed and the normalized question: asking the same
// thing twice gives the same answer, as a records vendor would.

export function randomFor(seed: number, question: unknown): Random {
  const digest = createHash("sha256")
    .update(`${seed}:${JSON.stringify(question)}`)
    .digest();
  return createRandom(digest.readUInt32BE(0));
}

export type LicenseQuestion = {
  first_name: string;
  middle_name?: string | null;
  last_name: string;
  date_of_birth_str?: string;
  state?: string;
};

const licenseNumber = (random: Random) => `${random.pick(["D", "S", "K", "F"])}${random.digits(8)}`;
const STATES = ["TX", "OH", "FL", "CO", "NC", "AZ", "TN", "WI"];
const birthDate = (random: Random) =>
  `${random.int(1950, 2005)}-${String(random.int(1, 12)).padStart(2, "0")}-${String(random.int(1, 28)).padStart(2, "0")}`;

/** The driver_license object of spec 2.18. */
export type LicenseData = {
  first_name: string;
  middle_name: string | null;
  last_name: string;
  date_of_birth_str: string | null;
  drivers_license: string | null;
  drivers_license_state: string | null;
  gender: string | null;
  marital_status: string | null;
};

function driverLicenseData(random: Random, who: LicenseQuestion): LicenseData {
  return {
    first_name: who.first_name,
    middle_name: who.middle_name ?? (random.chance(0.3) ? random.pick(["A", "J", "M", "R"]) : null),
    last_name: who.last_name,
    date_of_birth_str: who.date_of_birth_str ?? birthDate(random),
    drivers_license: licenseNumber(random),
    drivers_license_state: who.state ?? random.pick(STATES),
    gender: random.pick(["MALE", "FEMALE", "NONBINARY"]),
    marital_status: random.pick(["SINGLE", "MARRIED", "DIVORCED", "WIDOWED", null]),
  };
}

/** `known`: the license of a driver the seeded book already has (see records.ts). */
export function driverLicense(seed: number, who: LicenseQuestion, known?: LicenseData) {
  const random = randomFor(seed, ["driver-license", who]);
  return { driver_license_id: random.uuid(), driver_license: known ?? driverLicenseData(random, who) };
}

export function drivingRecordIq(seed: number, now: Date, question: unknown) {
  const random = randomFor(seed, ["driving-record-iq", question]);
  const id = random.uuid();
  const status = random.pick(["CLEAN", "CLEAN", "NO_EVIDENCE", "MINOR_VIOLATIONS", "MAJOR_VIOLATIONS"] as const);
  const minor = status === "MINOR_VIOLATIONS" ? random.int(1, 3) : status === "MAJOR_VIOLATIONS" ? random.int(0, 2) : 0;
  const major = status === "MAJOR_VIOLATIONS" ? random.int(1, 2) : 0;
  const day = (count: number) => (count > 0 ? isoDaysFrom(now, -random.int(30, 1500)).slice(0, 10) : null);
  return {
    driving_record_iq_id: id,
    driving_record_iq: {
      status,
      minor_violations: minor,
      last_minor_violation_date_str: day(minor),
      major_violations: major,
      last_major_violation_date_str: day(major),
    },
  };
}

/** The household vehicle fields (spec 2.18) of a pull's vehicle. */
export function householdVehicle(v: Record<string, unknown>) {
  const pick = <T>(value: unknown, test: (x: unknown) => x is T): T | null => (test(value) ? value : null);
  const isString = (x: unknown): x is string => typeof x === "string";
  const isNumber = (x: unknown): x is number => typeof x === "number";
  return {
    vin: pick(v.vin, isString),
    year: pick(v.year, isNumber),
    make: pick(v.make, isString),
    model: pick(v.model, isString),
    series: pick(v.series, isString),
    series2: pick(v.series2, isString),
    type: pick(v.type, isString),
    ownership_type: pick(v.ownership_type, isString),
    lien_holder: pick(v.lien_holder, isString),
    purchase_date: pick(v.purchase_date, isString),
  };
}

/** `known`: the household of an account the seeded book already has (see records.ts). */
export function household(
  seed: number,
  now: Date,
  question: { address: unknown; last_name?: string },
  known?: { drivers: LicenseData[]; vehicles: Array<ReturnType<typeof householdVehicle>> },
) {
  const random = randomFor(seed, ["household", question]);
  const id = random.uuid();
  if (known) return { household_id: id, drivers: known.drivers, vehicles: known.vehicles };
  const lastName = question.last_name ?? person(random).last;
  const drivers = Array.from({ length: random.int(1, 4) }, () =>
    driverLicenseData(random, { first_name: person(random).first, last_name: lastName }),
  );
  const vehicles = Array.from({ length: random.int(0, 3) }, () => {
    const [make, model, series] = random.pick(CARS);
    const ownership = random.pick(["OWN", "FINANCE", "LEASE", null] as const);
    return {
      vin: vin(random),
      year: random.int(2008, 2026),
      make,
      model,
      series,
      series2: null,
      type: random.pick(["Sedan", "SUV", "Pickup", "Hatchback"]),
      ownership_type: ownership,
      lien_holder: ownership === "FINANCE" || ownership === "LEASE" ? random.pick(LENDERS) : null,
      purchase_date: random.chance(0.8) ? isoDaysFrom(now, -random.int(100, 4000)) : null,
    };
  });
  return { household_id: id, drivers, vehicles };
}

export type PlaceQuestion = {
  number?: string;
  prefix?: string;
  street: string;
  type?: string;
  sec_unit_type?: string;
  sec_unit_num?: string;
  city: string;
  state: string;
  zip: string;
};

/** `known`: the property data of a dwelling the seeded book already has (see records.ts). */
export function propertyDataLookup(
  seed: number,
  now: Date,
  place: PlaceQuestion,
  ownerLast: string | undefined,
  known?: Record<string, unknown>,
) {
  const random = randomFor(seed, ["property-data", place]);
  const kind = place.sec_unit_num ? "condo" : random.chance(0.1) ? "multi_unit" : "single_family";
  const owner = { first: person(random).first, last: ownerLast ?? person(random).last };
  return {
    address: {
      country: "US",
      number: place.number ?? null,
      street: place.street,
      type: place.type ?? null,
      city: place.city,
      state: place.state,
      sec_unit_type: place.sec_unit_type ?? null,
      sec_unit_num: place.sec_unit_num ?? null,
      zip: place.zip,
      prefix: place.prefix ?? null,
    },
    data: known
      ? asRecorded(randomFor(seed, ["property-record", place]), known)
      : propertyFields(random, now, kind, [owner]),
  };
}

const ROOF_COVERS = ["COMPOSITION_SHINGLE", "ASPHALT", "METAL", "TILE", "WOOD_SHAKE", "SLATE"];

/**
 * The public record of a home the carrier also describes. Records are not the carrier's file:
 * an addition the assessor counted (or the carrier did not), a year of construction from another
 * source, a roof replaced since. Some homes differ, the same way every time for an address.
 */
function asRecorded(random: Random, known: Record<string, unknown>): Record<string, unknown> {
  const record = { ...known };
  if (typeof record.square_ft === "number" && random.chance(0.35))
    record.square_ft = Math.round(record.square_ft * (1 + random.int(6, 25) / 100));
  if (typeof record.year_built === "number" && random.chance(0.2)) record.year_built -= random.int(1, 6);
  if (typeof record.roof_cover === "string" && random.chance(0.15))
    record.roof_cover = random.pick(ROOF_COVERS.filter((roof) => roof !== record.roof_cover));
  return record;
}
