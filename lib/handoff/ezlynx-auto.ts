import type { Driver, Policy, Pull, Vehicle, VehicleCoverage } from "@/lib/service/schemas";
import { termMonthsOf } from "@/lib/pulls/household";
import {
  EDUCATION,
  GENDER,
  MARITAL_STATUS,
  RELATION,
  autoEmail,
  birthDate,
  branch,
  clean,
  day,
  dollars,
  homeAddressOf,
  leaf,
  carrierKey,
  mapped,
  phoneDigits,
  renderXml,
  splitAddress,
  stateCode,
  type EzlynxFile,
  type XmlNode,
} from "./ezlynx-values";

// The EZLynx applicant file for auto (EZAUTO, schema V200), the one EZLynx's Import Applicant
// and other agency systems read: the applicant (and the spouse or partner as co-applicant), the
// current carrier as prior insurance, up to
// six drivers and six vehicles with their use, and the rating state. Elements come in the order
// of the schema's sequences; what the pull holds that the file cannot carry is listed in
// `leftOut`, shown beside the download. Coverages are not written: V200's limit and deductible
// lists are state-specific choices the agent makes in EZLynx.

export const EZAUTO_NAMESPACE = "http://www.ezlynx.com/XMLSchema/Auto/V200";

/** V200 holds at most six drivers and six vehicles (DriversType, VehiclesType). */
export const EZLYNX_MAX_DRIVERS = 6;
export const EZLYNX_MAX_VEHICLES = 6;

/** The model years the published V200 copy lists (YearType is an enumeration of them). */
export const V200_FIRST_MODEL_YEAR = 1966;
export const V200_LAST_MODEL_YEAR = 2019;

/** The lines whose vehicles are private passenger autos, the ones EZAUTO rates. */
const AUTO_LINES = new Set(["AUTO", "CLASSIC_CAR"]);

const NOT_IN_FORCE = new Set(["CANCELLED", "RESCINDED", "EXPIRED", "QUOTE"]);

const OWNERSHIP: Record<string, string> = { OWN: "Owned", FINANCE: "Lien", LEASE: "Leased" };

/** A vehicle's use, most specific first: V200 takes one. */
const USE_ORDER: Array<[string, string]> = [
  ["WORK", "Business"],
  ["FARM", "Farming"],
  ["COMMUTE", "To/From Work"],
  ["SCHOOL", "To/From School"],
  ["PLEASURE", "Pleasure"],
  ["PERSONAL", "Pleasure"],
];

/** Carriers as the service names them (friendly name or identifier, letters and digits only) → V200's PriorCarrier value. */
const PRIOR_CARRIER: Record<string, string> = {
  statefarm: "State Farm",
  allstate: "Allstate",
  geico: "Geico",
  progressive: "Progressive",
  farmers: "Farmers",
  libertymutual: "Liberty Mutual",
  nationwide: "Nationwide",
  usaa: "USAA",
  travelers: "Travelers",
  americanfamily: "American Family",
  safeco: "Safeco",
  erie: "Erie",
  erieinsurance: "Erie",
  esurance: "Esurance",
  mercury: "Mercury",
  "21stcentury": "21st Century",
  thehartford: "Hartford",
  hartford: "Hartford",
  metlife: "MetLife",
  kemper: "Kemper",
  autoowners: "Auto-Owners",
  amica: "Amica",
  thegeneral: "Other Non-Standard",
  nationalgeneral: "National General",
  bristolwest: "Bristol West",
  dairyland: "Dairyland",
  infinity: "Infinity",
  encompass: "Encompass",
  shelterinsurance: "Shelter Insurance",
  countryfinancial: "Country Insurance",
  plymouthrock: "Plymouth Rock",
  thegeneralinsurance: "Other Non-Standard",
  root: "Other Standard",
};

/** V200's PriorLiabilityLimit values written "per person/per accident" in thousands. */
const PRIOR_LIMITS = new Set([
  "15/30",
  "20/40",
  "25/50",
  "30/60",
  "50/100",
  "100/100",
  "100/300",
  "250/500",
  "300/300",
  "500/500",
  "500/1000",
]);

export type AutoVehicle = { vehicle: Vehicle; policy: Policy };

function vehicleKey(vehicle: Vehicle): string {
  const vin = clean(vehicle.vin)?.toUpperCase();
  return vin ? `vin:${vin}` : `ymm:${vehicle.year ?? ""}|${clean(vehicle.make) ?? ""}|${clean(vehicle.model) ?? ""}`;
}

/** The household's private passenger autos, each once (a refreshed account lists some twice). */
export function autosOf(pull: Pull): AutoVehicle[] {
  const seen = new Set<string>();
  const out: AutoVehicle[] = [];
  const policies = [...pull.policies].sort(
    (a, b) => Number(NOT_IN_FORCE.has(a.status ?? "")) - Number(NOT_IN_FORCE.has(b.status ?? "")),
  );
  for (const policy of policies) {
    if (!AUTO_LINES.has(policy.policy_type ?? "")) continue;
    for (const vehicle of policy.vehicles) {
      if (vehicle.is_removed) continue;
      const key = vehicleKey(vehicle);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ vehicle, policy });
    }
  }
  return out;
}

export type Person = Driver & { is_excluded?: boolean | null };

const personKey = (d: Person) =>
  `${(clean(d.first_name) ?? "").toLowerCase()}|${(clean(d.last_name) ?? "").toLowerCase()}|${birthDate(d.date_of_birth_str) ?? ""}`;

/** The household's drivers: the pull's own list, else the drivers the vehicles name; the insured first. */
export function driversOf(pull: Pull, autos: AutoVehicle[] = autosOf(pull)): Person[] {
  const onVehicles = autos.flatMap(({ vehicle }) => vehicle.drivers);
  const excluded = new Set(onVehicles.filter((d) => d.is_excluded).map(personKey));
  const source: Person[] = pull.drivers.length > 0 ? pull.drivers : onVehicles;
  const seen = new Set<string>();
  const list: Person[] = [];
  for (const driver of source) {
    const key = personKey(driver);
    if (seen.has(key)) continue;
    seen.add(key);
    list.push({ ...driver, is_excluded: driver.is_excluded ?? excluded.has(key) });
  }
  const rank = (d: Person) => (d.relationship_to_insured === "INSURED" ? 0 : 1);
  return list
    .map((d, i) => ({ d, i }))
    .sort((a, b) => rank(a.d) - rank(b.d) || a.i - b.i)
    .map(({ d }) => d);
}

function describeVehicle(vehicle: Vehicle): string {
  const words = [vehicle.year, clean(vehicle.make), clean(vehicle.model)].filter(Boolean).join(" ");
  const vin = clean(vehicle.vin);
  return [words || "a vehicle", vin ? `(VIN ${vin})` : null].filter(Boolean).join(" ");
}

function describePerson(person: Person): string {
  return [clean(person.first_name), clean(person.last_name)].filter(Boolean).join(" ") || "a driver without a name";
}

/** The applicant: the pull's account holder, completed from the insured driver where the pull is silent. */
function applicantNode(pull: Pull, insured: Person | undefined, leftOut: string[], toCheck: string[]): XmlNode {
  let first = clean(pull.first_name, 50) ?? clean(insured?.first_name, 50);
  let last = clean(pull.last_name, 50) ?? clean(insured?.last_name, 50);
  if (!first || !last) {
    toCheck.push('The applicant\'s name is not in the pull: written as "Unknown".');
    first ??= "Unknown";
    last ??= "Unknown";
  }
  const address = splitAddress(homeAddressOf(pull));
  const phones: XmlNode[] = [];
  const seenPhones = new Set<string>();
  for (const [type, value] of [
    ["Mobile", pull.mobile_phone],
    ["Home", pull.home_phone],
    ["Work", pull.work_phone],
    ["Mobile", pull.phone],
  ] as const) {
    const digits = phoneDigits(value);
    if (!digits || seenPhones.has(digits)) continue;
    seenPhones.add(digits);
    const extension = type === "Work" ? clean(pull.work_phone_extension, 10) : null;
    phones.push(branch("Phone", [leaf("PhoneType", type), leaf("PhoneNumber", digits), leaf("Extension", extension)]));
  }
  const emails = [...new Set([autoEmail(pull.account_email), autoEmail(pull.email)].filter((e): e is string => !!e))];
  let addressNode: XmlNode | null = null;
  if (address && address.city && address.state && address.zip5) {
    addressNode = branch("Address", [
      leaf("AddressCode", "StreetAddress"),
      branch("Addr1", [
        leaf("StreetName", address.streetName),
        leaf("StreetNumber", address.streetNumber),
        leaf("UnitNumber", address.unit),
      ]),
      leaf("City", address.city),
      leaf("StateCode", address.state),
      leaf("Zip5", address.zip5),
      leaf("Zip4", address.zip4),
      ...phones,
      ...emails.slice(0, 2).map((e) => leaf("Email", e)),
    ]);
  } else if (homeAddressOf(pull)) {
    leftOut.push(
      "The applicant's address, with the phones and email written under it: it lacks a street, city, state or five-digit ZIP that EZLynx requires.",
    );
  }
  if (!address && !homeAddressOf(pull) && (phones.length > 0 || emails.length > 0))
    leftOut.push("The applicant's phones and email: EZLynx carries them under an address, and the pull has none.");
  return branch("Applicant", [
    leaf("ApplicantType", "Applicant"),
    branch("PersonalInfo", [
      branch("Name", [leaf("FirstName", first), leaf("LastName", last)]),
      leaf("DOB", birthDate(insured?.date_of_birth_str)),
      leaf("Gender", mapped(GENDER, insured?.gender)),
      leaf("MaritalStatus", mapped(MARITAL_STATUS, insured?.marital_status)),
      leaf("Occupation", clean(insured?.occupation)),
      leaf("Education", mapped(EDUCATION, insured?.education)),
      leaf("Relation", "Insured"),
    ]),
    addressNode,
  ]);
}

function priorPolicyNode(policy: Policy | undefined, leftOut: string[]): XmlNode | null {
  if (!policy) return null;
  const carrierName = clean(policy.carrier_friendly_name) ?? clean(policy.carrier_name);
  const carrier = carrierName ? (PRIOR_CARRIER[carrierKey(carrierName)] ?? null) : null;
  if (carrierName && !carrier)
    leftOut.push(`The current carrier, ${carrierName}: it is not one of the names EZLynx's prior-carrier list holds.`);
  const bi = policy.vehicles
    .flatMap((v) => v.coverages)
    .find((c) => c.friendly_name === "Bodily Injury Liability" && !c.is_declined);
  const perPerson = dollars(bi?.per_person_limit_cents);
  const perAccident = dollars(bi?.per_incident_limit_cents);
  const limit = perPerson && perAccident ? `${perPerson / 1000}/${perAccident / 1000}` : null;
  const months = termMonthsOf(policy.effective_date, policy.expiry_date);
  return branch("PriorPolicyInfo", [
    leaf("PriorCarrier", carrier),
    leaf("Expiration", day(policy.expiry_date)),
    leaf("PriorLiabilityLimit", limit && PRIOR_LIMITS.has(limit) ? limit : null),
    leaf("PriorPolicyPremium", dollars(policy.total_premium_cents)),
    leaf("PriorPolicyTerm", months === 6 ? "6 Month" : months === 12 ? "12 Month" : null),
  ]);
}

/** The insured's spouse or partner as EZLynx's co-applicant, when the drivers name one with a name. */
function coApplicantNode(drivers: Person[]): XmlNode | null {
  const partner = drivers.find(
    (d) =>
      (d.relationship_to_insured === "SPOUSE" || d.relationship_to_insured === "DOMESTIC_PARTNERSHIP") &&
      clean(d.first_name) &&
      clean(d.last_name),
  );
  if (!partner) return null;
  return branch("Applicant", [
    leaf("ApplicantType", "CoApplicant"),
    branch("PersonalInfo", [
      branch("Name", [
        leaf("FirstName", clean(partner.first_name, 50)),
        leaf("LastName", clean(partner.last_name, 50)),
      ]),
      leaf("DOB", birthDate(partner.date_of_birth_str)),
      leaf("Gender", mapped(GENDER, partner.gender)),
      leaf("MaritalStatus", mapped(MARITAL_STATUS, partner.marital_status)),
      leaf("Occupation", clean(partner.occupation)),
      leaf("Education", mapped(EDUCATION, partner.education)),
      leaf("Relation", mapped(RELATION, partner.relationship_to_insured)),
    ]),
  ]);
}

function driverNode(person: Person, id: number): XmlNode {
  const first = clean(person.first_name, 50);
  const last = clean(person.last_name, 50);
  const ageLicensed = typeof person.age_licensed === "number" && person.age_licensed >= 0 && person.age_licensed <= 100;
  const dlState = clean(person.drivers_license_state)?.toUpperCase() ?? null;
  return branch(
    "Driver",
    [
      first && last ? branch("Name", [leaf("FirstName", first), leaf("LastName", last)]) : null,
      leaf("Gender", mapped(GENDER, person.gender)),
      leaf("DOB", birthDate(person.date_of_birth_str)),
      leaf("DLNumber", clean(person.drivers_license, 50)),
      leaf("DLState", dlState && stateCode(dlState) ? dlState : null),
      leaf("AgeLicensed", ageLicensed ? person.age_licensed : null),
      leaf("MaritalStatus", mapped(MARITAL_STATUS, person.marital_status)),
      leaf("Occupation", clean(person.occupation)),
      leaf("Relation", mapped(RELATION, person.relationship_to_insured)),
      leaf("Rated", person.is_excluded ? "Excluded" : "Rated"),
    ],
    { id: String(id) },
  );
}

function vehicleNode(vehicle: Vehicle, id: number, leftOut: string[], toCheck: string[]): XmlNode {
  const vin = clean(vehicle.vin)?.replace(/\s+/g, "") ?? null;
  const vinFits = vin !== null && vin.length >= 3 && vin.length <= 17;
  if (vin && !vinFits) leftOut.push(`The VIN of ${describeVehicle(vehicle)}: EZLynx takes 3 to 17 characters.`);
  const year = typeof vehicle.year === "number" && vehicle.year > 0 ? vehicle.year : null;
  if (year !== null && (year > V200_LAST_MODEL_YEAR || year < V200_FIRST_MODEL_YEAR))
    toCheck.push(
      `Model year ${year} of ${describeVehicle(vehicle)} is written as the pull gives it; the published V200 schema lists only ${V200_FIRST_MODEL_YEAR}–${V200_LAST_MODEL_YEAR}.`,
    );
  return branch(
    "Vehicle",
    [
      leaf("UseVinLookup", vinFits ? "Yes" : null),
      leaf("Year", year),
      leaf("Vin", vinFits ? vin : null),
      leaf("Make", clean(vehicle.make, 50)),
      leaf("Model", clean(vehicle.model, 50)),
      leaf("Sub-Model", clean([vehicle.series, vehicle.series2].filter(Boolean).join(" "), 255)),
    ],
    { id: String(id) },
  );
}

function vehicleUseNode(vehicle: Vehicle, id: number): XmlNode | null {
  const uses = new Set(vehicle.uses ?? []);
  const useage = USE_ORDER.find(([use]) => uses.has(use as never))?.[1];
  if (!useage) return null;
  const miles = vehicle.annual_mileage;
  const odometer = vehicle.current_mileage;
  return branch(
    "VehicleUse",
    [
      leaf("Useage", useage),
      leaf("AnnualMiles", typeof miles === "number" && miles >= 0 && miles <= 100_000 ? miles : null),
      leaf("Ownership", mapped(OWNERSHIP, vehicle.ownership_type)),
      leaf("Odometer", typeof odometer === "number" && odometer >= 0 && odometer <= 999_999 ? odometer : null),
    ],
    { id: String(id) },
  );
}

// The liability limits V200 lists (GeneralCoverageType): split limits in thousands, combined
// single limits as "300 CSL". A carrier's limit outside them is not written (EZLynx would refuse it).
const SPLIT_LIMITS = [
  "10/20",
  "12/25",
  "12.5/25",
  "15/30",
  "20/40",
  "20/50",
  "25/25",
  "25/50",
  "25/65",
  "30/60",
  "50/50",
  "50/100",
  "100/100",
  "100/300",
  "200/600",
  "250/500",
  "300/300",
  "500/500",
  "500/1000",
  "1000/1000",
];
const BI_LIMITS = new Set([
  ...SPLIT_LIMITS,
  "35 CSL",
  "50 CSL",
  "55 CSL",
  "100 CSL",
  "115 CSL",
  "300 CSL",
  "500 CSL",
  "1000 CSL",
]);
const UM_LIMITS = new Set([...BI_LIMITS, "25/60", "35/80", "100/200", "200/400", "250/1000", "300/500", "600 CSL"]);
UM_LIMITS.delete("115 CSL");
UM_LIMITS.add("Reject");
const PD_LIMITS = new Set([
  5_000, 7_500, 10_000, 15_000, 20_000, 25_000, 35_000, 50_000, 100_000, 250_000, 300_000, 500_000,
]);
const MP_LIMITS = new Set([500, 1_000, 2_000, 2_500, 5_000, 10_000, 15_000, 25_000, 50_000, 100_000]);

const BI_NAMES = ["Bodily Injury Liability"];
const CSL_NAMES = ["Combined Single Limit", "Single Limit Liability"];
const UM_NAMES = [
  "Uninsured Motorist Bodily Injury Liability",
  "Uninsured Motorists",
  "Uninsured / Underinsured Motorist Bodily Injury Liability",
  "Uninsured / Underinsured Motorists",
];
const UIM_NAMES = [
  "Underinsured Motorist Bodily Injury Liability",
  "Underinsured Motorists",
  "Uninsured / Underinsured Motorist Bodily Injury Liability",
  "Uninsured / Underinsured Motorists",
];

function findCoverage(coverages: VehicleCoverage[], names: string[]): VehicleCoverage | undefined {
  for (const name of names) {
    const found = coverages.find((c) => c.friendly_name === name);
    if (found) return found;
  }
  return undefined;
}

/** "100/300" from split limits, "300 CSL" from a single limit; null when absent or not whole thousands. */
function limitWords(coverage: VehicleCoverage | undefined, single: VehicleCoverage | undefined): string | null {
  const thousands = (cents: number | null | undefined) => {
    const value = dollars(cents);
    return value !== null && value > 0 && value % 500 === 0 ? value / 1000 : null;
  };
  const perPerson = thousands(coverage?.per_person_limit_cents);
  const perAccident = thousands(coverage?.per_incident_limit_cents);
  if (coverage && !coverage.is_declined && perPerson !== null && perAccident !== null)
    return `${perPerson}/${perAccident}`;
  const csl = thousands(single?.per_incident_limit_cents ?? single?.per_person_limit_cents);
  if (single && !single.is_declined && csl !== null) return `${csl} CSL`;
  return null;
}

/**
 * The policy's liability, property damage, medical and uninsured motorist limits, read from its
 * first vehicle (liability is the policy's, the same on each vehicle), when every one of them is
 * a value V200 lists; null otherwise (the page then says the coverages are left out).
 */
function generalCoverageNode(policy: Policy | undefined, toCheck: string[]): XmlNode | null {
  const coverages = policy?.vehicles.find((v) => !v.is_removed)?.coverages ?? [];
  if (coverages.length === 0) return null;
  const single = findCoverage(coverages, CSL_NAMES);
  const bi = limitWords(findCoverage(coverages, BI_NAMES), single);
  const pdCoverage = findCoverage(coverages, ["Property Damage Liability"]);
  const pdDollars = dollars(pdCoverage?.per_incident_limit_cents);
  const pd = pdCoverage?.is_declined
    ? "No Coverage"
    : pdDollars !== null && PD_LIMITS.has(pdDollars)
      ? String(pdDollars)
      : null;
  if (!bi || !BI_LIMITS.has(bi) || !pd) return null;
  const mpCoverage = findCoverage(coverages, ["Medical Payments"]);
  const mpDollars = dollars(mpCoverage?.per_person_limit_cents ?? mpCoverage?.per_incident_limit_cents);
  const mp =
    !mpCoverage || mpCoverage.is_declined
      ? "None"
      : mpDollars !== null && MP_LIMITS.has(mpDollars)
        ? String(mpDollars)
        : null;
  const umCoverage = findCoverage(coverages, UM_NAMES);
  const uimCoverage = findCoverage(coverages, UIM_NAMES);
  const um = !umCoverage || umCoverage.is_declined ? "Reject" : limitWords(umCoverage, umCoverage);
  const uim = !uimCoverage || uimCoverage.is_declined ? "Reject" : limitWords(uimCoverage, uimCoverage);
  if (!mp || !um || !UM_LIMITS.has(um) || !uim || !UM_LIMITS.has(uim)) return null;
  const absent = [
    !mpCoverage && "medical payments",
    !umCoverage && "uninsured motorist",
    !uimCoverage && "underinsured motorist",
  ].filter(Boolean);
  if (absent.length > 0)
    toCheck.push(`The policy lists no ${absent.join(", ")} coverage: written as none ("None", "Reject").`);
  return branch("GeneralCoverage", [leaf("BI", bi), leaf("PD", pd), leaf("MP", mp), leaf("UM", um), leaf("UIM", uim)]);
}

/**
 * The EZAUTO file of a pull, or null when the pull has no private passenger auto. Pure: the
 * download route, the public API and the pull page's hand-off panel all call it.
 */
export function buildEzlynxAuto(pull: Pull): EzlynxFile | null {
  const autos = autosOf(pull);
  if (autos.length === 0) return null;
  const leftOut: string[] = [];
  const toCheck: string[] = [];
  const drivers = driversOf(pull, autos);
  const insured = drivers.find((d) => d.relationship_to_insured === "INSURED") ?? drivers[0];

  const keptDrivers = drivers.slice(0, EZLYNX_MAX_DRIVERS);
  const droppedDrivers = drivers.slice(EZLYNX_MAX_DRIVERS);
  if (droppedDrivers.length > 0)
    leftOut.push(
      `${droppedDrivers.length} driver${droppedDrivers.length === 1 ? "" : "s"} past the sixth (EZLynx holds six): ${droppedDrivers.map(describePerson).join(", ")}.`,
    );
  const keptAutos = autos.slice(0, EZLYNX_MAX_VEHICLES);
  const droppedAutos = autos.slice(EZLYNX_MAX_VEHICLES);
  if (droppedAutos.length > 0)
    leftOut.push(
      `${droppedAutos.length} vehicle${droppedAutos.length === 1 ? "" : "s"} past the sixth (EZLynx holds six): ${droppedAutos.map(({ vehicle }) => describeVehicle(vehicle)).join(", ")}.`,
    );
  const unnamed = keptDrivers.filter((d) => !clean(d.first_name) || !clean(d.last_name));
  if (unnamed.length > 0)
    leftOut.push(
      `The name of ${unnamed.length === 1 ? "a driver" : `${unnamed.length} drivers`}: the pull gives no first or last name.`,
    );
  if (keptDrivers.some((d) => clean(d.middle_name)) || clean(pull.middle_name))
    leftOut.push("Middle names: EZLynx's field takes a middle initial in a pattern strict validators reject.");

  const useNodes = keptAutos.map(({ vehicle }, i) => vehicleUseNode(vehicle, i + 1));
  const withoutUse = keptAutos.filter((_, i) => !useNodes[i]);
  if (withoutUse.length > 0)
    leftOut.push(
      `How ${withoutUse.map(({ vehicle }) => describeVehicle(vehicle)).join(", ")} ${withoutUse.length === 1 ? "is" : "are"} used, with mileage and ownership: the pull does not say, and EZLynx needs the use first.`,
    );
  const current =
    autos.find(({ policy }) => !NOT_IN_FORCE.has(policy.status ?? ""))?.policy ?? autos[0]?.policy ?? undefined;
  const general = generalCoverageNode(current, toCheck);
  leftOut.push(
    general
      ? "Deductibles and optional coverages (comprehensive, collision, towing, rental): EZLynx holds one set for all vehicles; set them per vehicle in EZLynx from the pull page's policies."
      : "Coverages, limits and deductibles: the policy's limits are not all among the values EZLynx lists; set them in EZLynx from the pull page's policies.",
  );
  const ratingState = stateCode(current?.state) ?? splitAddress(homeAddressOf(pull))?.state ?? null;
  if (!ratingState)
    leftOut.push("The rating state: neither the auto policy nor the applicant's address names a state.");

  const vehicleUses = useNodes.filter((n): n is XmlNode => n !== null);
  const root = branch("EZAUTO", [
    applicantNode(pull, insured, leftOut, toCheck),
    coApplicantNode(drivers),
    priorPolicyNode(current, leftOut),
    keptDrivers.length > 0
      ? branch(
          "Drivers",
          keptDrivers.map((d, i) => driverNode(d, i + 1)),
        )
      : null,
    branch(
      "Vehicles",
      keptAutos.map(({ vehicle }, i) => vehicleNode(vehicle, i + 1, leftOut, toCheck)),
    ),
    vehicleUses.length > 0 ? branch("VehiclesUse", vehicleUses) : null,
    general ? branch("Coverages", [general]) : null,
    ratingState ? branch("GeneralInfo", [leaf("RatingStateCode", ratingState)]) : null,
  ]);
  return { xml: renderXml(EZAUTO_NAMESPACE, root), leftOut, toCheck };
}
