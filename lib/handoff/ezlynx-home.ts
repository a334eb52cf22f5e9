import type { Dwelling, DwellingCoverage, Policy, PropertyData, Pull } from "@/lib/service/schemas";
import { driversOf } from "./ezlynx-auto";
import {
  EDUCATION,
  GENDER,
  MARITAL_STATUS,
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
  type EzlynxFile,
  type XmlNode,
} from "./ezlynx-values";

// The EZLynx applicant file for a home (EZHOME, schema V200). EZHOME rates one dwelling and
// requires much the pull cannot know (distance to a hydrant, protection class, a county, years at
// the address, rating credits): each such value is written as a stated default and listed in
// `toCheck`, so the agent corrects it in EZLynx before rating. What the file leaves out (other
// dwellings, the applicant's name in the name fields, email) is listed in `leftOut`.
//
// V200's name and email patterns are written with ^ and $ anchors, which XML Schema reads as
// literal characters: a strict validator (xmllint) then rejects every real name and address. The
// applicant's name goes in GeneralInfo's comments instead, where EZLynx shows it.

export const EZHOME_NAMESPACE = "http://www.ezlynx.com/XMLSchema/Home/V200";

/** The lines whose dwellings EZHOME rates, and the policy form each maps to. */
const HOME_FORMS: Record<string, string> = { HOMEOWNERS: "HO3", CONDO: "HO6", RENTERS: "HO4" };

const NOT_IN_FORCE = new Set(["CANCELLED", "RESCINDED", "EXPIRED", "QUOTE"]);

/** Home carriers as the service names them (friendly name or identifier, letters and digits only) → V200's PriorCarrier value. */
const PRIOR_CARRIER: Record<string, string> = {
  statefarm: "State Farm",
  allstate: "Allstate",
  farmers: "Farmers",
  libertymutual: "Liberty Mutual",
  nationwide: "Nationwide",
  usaa: "USAA",
  travelers: "Travelers",
  americanfamily: "American Family",
  safeco: "Safeco",
  erie: "Erie",
  erieinsurance: "Erie",
  chubb: "Chubb",
  geico: "Geico",
  progressive: "Progressive",
  thehartford: "Hartford",
  hartford: "Hartford",
  metlife: "MetLife",
  amica: "Amica",
  autoowners: "Auto-Owners",
  cincinnati: "Cincinnati",
  universal: "Universal",
  citizens: "Citizens",
  homeownersofamerica: "Homeowners of America",
  heritage: "Heritage P/C",
  kemper: "Kemper",
  encompass: "Encompass",
  mercury: "Mercury",
  "21stcentury": "21st Century",
};

const PERSONAL_LIABILITY = new Set([25_000, 50_000, 100_000, 200_000, 300_000, 400_000, 500_000, 1_000_000]);
const MEDICAL_PAYMENTS = new Set([1_000, 2_000, 3_000, 4_000, 5_000]);
const DEDUCTIBLES = new Set([100, 250, 500, 750, 1_000, 1_500, 2_000, 2_500, 3_000, 4_000, 5_000, 10_000]);
const WIND_DEDUCTIBLES = new Set([100, 250, 500, 1_000, 1_500, 2_000, 2_500, 5_000, 10_000]);

const HEATING: Record<string, string> = {
  ELECTRIC: "Electric",
  ELECTRIC_HOT_WATER: "Electric",
  HEAT_PUMP: "Electric",
  GAS: "Gas",
  PROPANE: "Gas",
  LIQUEFIED_PETROLEUM_GAS: "Gas",
  OIL: "Oil",
  WOOD: "Solid Fuel",
  COAL: "Solid Fuel",
  SOLID: "Solid Fuel",
};

const ROOF: Record<string, string> = {
  ASBESTOS: "ASBESTOS",
  ASPHALT: "ASPHALT SHINGLES",
  COMPOSITION_SHINGLE: "COMPOSITION",
  AVERAGE_COMPOSITION_SHINGLE: "COMPOSITION",
  HEAVY_COMPOSITION_SHINGLE: "COMPOSITION",
  LIGHT_COMPOSITION_SHINGLE: "COMPOSITION",
  CLAY_TILE: "TILE(CLAY)",
  CONCRETE_TILE: "TILE(CONCRETE)",
  BAR_TILE_SPANISH_STYLE: "TILE(SPANISH)",
  FIBERGLASS: "FIBERGLASS",
  METAL: "METAL(PITCHED)",
  ROCK_GRAVEL: "GRAVEL",
  ROLL_TAR_GRAVEL: "TAR and GRAVEL",
  SLATE: "SLATE",
  WOOD_SHAKE: "WOOD SHAKE",
  WOOD_SHINGLE: "WOOD SHINGLES",
};

const CONSTRUCTION: Record<string, string> = {
  ADOBE: "Adobe",
  ALUMINUM_VINYL: "Aluminum/Vinyl",
  ALUMINUM_SIDING: "Siding, Aluminum",
  BRICK: "Brick",
  BRICK_FRAME: "Brick Veneer",
  CLAPBOARD: "Clapboard",
  CONCRETE: "Poured Concrete",
  FRAME: "Frame",
  FRAME_STUCCO: "Stucco on Frame",
  LOG: "Logs",
  STUCCO: "Stucco",
};

export type HomeDwelling = { dwelling: Dwelling; policy: Policy };

/** The household's dwellings on home lines, the in-force ones first; each address once. */
export function homesOf(pull: Pull): HomeDwelling[] {
  const policies = [...pull.policies].sort(
    (a, b) => Number(NOT_IN_FORCE.has(a.status ?? "")) - Number(NOT_IN_FORCE.has(b.status ?? "")),
  );
  const seen = new Set<string>();
  const out: HomeDwelling[] = [];
  for (const policy of policies) {
    if (!HOME_FORMS[policy.policy_type ?? ""]) continue;
    for (const dwelling of policy.dwellings) {
      const key =
        (
          clean(dwelling.address?.full_address) ??
          [dwelling.address?.number, dwelling.address?.street, dwelling.address?.zip].join("|")
        ).toLowerCase() || dwelling.dwelling_id;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ dwelling, policy });
    }
  }
  return out;
}

function describeDwelling(dwelling: Dwelling): string {
  const split = splitAddress(dwelling.address);
  const line = split ? [split.streetNumber, split.streetName].filter(Boolean).join(" ") : null;
  return clean(dwelling.address?.full_address) ?? line ?? "a dwelling without an address";
}

const limitOf = (c: DwellingCoverage | undefined) => dollars(c?.per_incident_limit_cents ?? c?.per_person_limit_cents);

function coverage(dwelling: Dwelling, ...names: string[]): DwellingCoverage | undefined {
  for (const name of names) {
    const found = dwelling.coverages.find((c) => c.name === name && !c.is_declined);
    if (found) return found;
  }
  return undefined;
}

/** "1.000" (per cent of Coverage A) → "1%"; "0.500" → "1/2%"; null when V200 has no such choice. */
function percentDeductible(value: string | null | undefined, allowed: string[]): string | null {
  const n = Number(value);
  if (!value || !Number.isFinite(n)) return null;
  const word = n === 0.5 ? "1/2%" : Number.isInteger(n) ? `${n}%` : null;
  return word && allowed.includes(word) ? word : null;
}

/** Whole years between two days, worded as V200's YearsAtAddress values. */
function yearsAt(since: string | null, today: string): string | null {
  if (!since) return null;
  const months =
    (Number(today.slice(0, 4)) - Number(since.slice(0, 4))) * 12 +
    Number(today.slice(5, 7)) -
    Number(since.slice(5, 7));
  if (months < 0) return null;
  if (months <= 6) return "6 months or less";
  if (months < 12) return "6-12 months";
  const years = Math.floor(months / 12);
  return years > 10 ? "More than 10" : String(years);
}

/** Whole years and months between two days, as V200's Duration (years above 15 worded). */
function duration(since: string | null, today: string): { years: string; months: string } | null {
  if (!since) return null;
  const months =
    (Number(today.slice(0, 4)) - Number(since.slice(0, 4))) * 12 +
    Number(today.slice(5, 7)) -
    Number(since.slice(5, 7));
  if (months < 0) return null;
  const years = Math.floor(months / 12);
  return { years: years > 15 ? "More than 15" : String(years), months: String(months % 12) };
}

/**
 * The EZHOME file of a pull, or null when the pull has no dwelling on a home line. `today`
 * (YYYY-MM-DD) dates what the pull does not: years at the address, the new term's start.
 */
export function buildEzlynxHome(pull: Pull, today: string = new Date().toISOString().slice(0, 10)): EzlynxFile | null {
  const homes = homesOf(pull);
  const chosen = homes[0];
  if (!chosen) return null;
  const { dwelling, policy } = chosen;
  const property: Partial<PropertyData> = dwelling.property_data ?? {};
  const leftOut: string[] = [];
  const toCheck: string[] = [];
  /** A value the schema requires: the pull's, or the stated default, listed to check. */
  const required = <T extends string | number>(value: T | null | undefined, fallback: T, what: string): T => {
    if (value !== null && value !== undefined && value !== "") return value;
    toCheck.push(`${what}: not in the pull, written as ${JSON.stringify(String(fallback))}.`);
    return fallback;
  };

  if (homes.length > 1)
    leftOut.push(
      `${homes.length - 1} other dwelling${homes.length === 2 ? "" : "s"} (EZHOME holds one; export each from EZLynx): ${homes
        .slice(1)
        .map(({ dwelling: d }) => describeDwelling(d))
        .join("; ")}.`,
    );

  // The applicant and the insured driver's facts (the pull's people are drivers).
  const insured = driversOf(pull).find((d) => d.relationship_to_insured === "INSURED") ?? pull.drivers[0];
  const first = clean(pull.first_name, 64) ?? clean(insured?.first_name, 64);
  const last = clean(pull.last_name, 64) ?? clean(insured?.last_name, 64);
  const name = [first, last].filter(Boolean).join(" ");
  leftOut.push(
    "The applicant's name in EZLynx's name fields: V200's name pattern rejects every name under strict validators, so the name is written in the comments.",
  );
  if (pull.email || pull.account_email)
    leftOut.push("The applicant's email: V200's home email pattern rejects every address under strict validators.");

  // The address written is the insured dwelling's (the mailing address when it has none).
  const address = splitAddress(dwelling.address) ?? splitAddress(homeAddressOf(pull));
  const purchase = day(property.purchase_date ?? null);
  const phones: XmlNode[] = [];
  for (const [type, value] of [
    ["Mobile", pull.mobile_phone ?? pull.phone],
    ["Home", pull.home_phone],
    ["Work", pull.work_phone],
  ] as const) {
    const digits = phoneDigits(value);
    if (digits && !phones.some((p) => p.children?.[1]?.text === digits))
      phones.push(branch("Phone", [leaf("PhoneType", type), leaf("PhoneNumber", digits)]));
  }
  let addressNode: XmlNode | null = null;
  if (address && address.city && address.state && address.zip5) {
    addressNode = branch("Address", [
      leaf("AddressCode", "StreetAddress"),
      branch("Addr1", [
        leaf("StreetName", address.streetName),
        leaf("StreetNumber", address.streetNumber),
        leaf("UnitNumber", address.unit),
      ]),
      leaf("Addr2", ""),
      leaf("City", address.city),
      leaf("StateCode", address.state),
      leaf("County", required(null, "Unknown", "County")),
      leaf("Zip5", address.zip5),
      leaf("Zip4", address.zip4),
      ...phones.slice(0, 5),
      leaf("YearsAtAddress", required(yearsAt(purchase, today), "1", "Years at the address")),
    ]);
  } else {
    leftOut.push(
      "The dwelling's address, with the phones written under it: it lacks a street, city, state or five-digit ZIP that EZLynx requires.",
    );
  }

  const applicant = branch("Applicant", [
    leaf("ApplicantType", "Applicant"),
    branch("PersonalInfo", [
      branch("Name", []),
      leaf("DOB", required(birthDate(insured?.date_of_birth_str), "1900-01-01", "Date of birth")),
      leaf("Gender", required(mapped(GENDER, insured?.gender), "X - Not Specified", "Gender")),
      leaf("MaritalStatus", required(mapped(MARITAL_STATUS, insured?.marital_status), "Single", "Marital status")),
      leaf("Relation", "Insured"),
      leaf("Industry", ""),
      leaf("Occupation", clean(insured?.occupation) ?? ""),
      leaf("Education", mapped(EDUCATION, insured?.education)),
    ]),
    addressNode,
  ]);

  // The current carrier as prior insurance; the new term starts when the current one ends.
  const carrierName = clean(policy.carrier_friendly_name) ?? clean(policy.carrier_name);
  const carrier = carrierName ? (PRIOR_CARRIER[carrierKey(carrierName)] ?? null) : null;
  if (carrierName && !carrier)
    toCheck.push(`Prior carrier: ${carrierName} is not in EZLynx's list, written as "Other Standard".`);
  const expiry = day(policy.expiry_date) ?? day(policy.renewal_date);
  const withCarrier = duration(day(policy.effective_date), today);
  const prior = branch("PriorPolicyInfo", [
    leaf(
      "PriorCarrier",
      carrier ?? (carrierName ? "Other Standard" : required(null, "Other Standard", "Prior carrier")),
    ),
    leaf("Expiration", required(expiry, today, "Expiration of the current policy")),
    branch("YearsWithPriorCarrier", [
      leaf("Years", required(withCarrier?.years, "0", "Years with the prior carrier")),
      leaf("Months", withCarrier?.months ?? "0"),
    ]),
    branch("YearsWithContinuousCoverage", [
      leaf("Years", required(null, "0", "Years of continuous coverage")),
      leaf("Months", "0"),
    ]),
    leaf("PriorPolicyPremium", dollars(policy.total_premium_cents)),
  ]);
  const policyInfo = branch("PolicyInfo", [
    leaf("PolicyTerm", "12 Month"),
    leaf("PolicyType", HOME_FORMS[policy.policy_type ?? ""] ?? "HO3"),
    leaf("Package", "No"),
    leaf("Effective", required(expiry, today, "Effective date of the new policy")),
    leaf("CreditCheckAuth", "No"),
  ]);
  toCheck.push('Credit check authorization: written as "No"; record the client\'s consent in EZLynx.');

  // What the house is: property data where the plan gives it, else stated defaults.
  const yearBuilt = required(
    property.year_built && property.year_built > 0 ? property.year_built : null,
    1900,
    "Year built",
  );
  const units = property.num_units;
  const stories = property.num_stories;
  const pool = property.has_pool === true ? "Yes" : property.has_pool === false ? "No" : null;
  toCheck.push(
    "Rating questions the pull cannot answer (insurance cancelled or lapsed, dwelling use, hydrant and fire-station distance, city limits, fire district, protection class, dog, business on premises, under construction): written as the most common answer; confirm each with the client.",
  );
  toCheck.push("Roof, electrical, plumbing and heating updates: written as not updated since the year built.");
  const rating = branch("RatingInfo", [
    leaf("PropertyInsCancelledLapsed", "No"),
    leaf("YearBuilt", yearBuilt),
    leaf(
      "Dwelling",
      required(
        units && units >= 1 && units <= 4
          ? ["One Family", "Two Family", "Three Family", "Four Family"][units - 1]
          : null,
        "One Family",
        "Number of families",
      ),
    ),
    leaf("DwellingUse", "Primary"),
    leaf("DistanceToFireHydrant", "1-500"),
    leaf("WithinCityLimits", "Yes"),
    leaf("DistanceToFireStation", 1),
    leaf("WithinFireDistrict", "Yes"),
    leaf("ProtectionClass", "1"),
    leaf("NumberOfStories", stories && stories >= 1 && stories <= 4 ? String(stories) : null),
    leaf("Construction", required(mapped(CONSTRUCTION, property.construction_type), "Frame", "Construction")),
    leaf("Structure", policy.policy_type === "CONDO" ? "Condo" : "Dwelling"),
    leaf("Roof", required(mapped(ROOF, property.roof_cover), "OTHER", "Roof")),
    leaf("SwimmingPool", required(pool, "No", "Swimming pool")),
    leaf("SwimmingPoolFenced", "No"),
    leaf("DogOnPremises", "No"),
    leaf("HeatingType", required(mapped(HEATING, property.heating_fuel), "Other", "Heating")),
    leaf("RoofingUpdate", "NOT UPDATED"),
    leaf("RoofingUpdateYear", yearBuilt),
    leaf("ElectricalUpdate", "NOT UPDATED"),
    leaf("ElectricalUpdateYear", yearBuilt),
    leaf("PlumbingUpdate", "NOT UPDATED"),
    leaf("PlumbingUpdateYear", yearBuilt),
    leaf("HeatingUpdate", "NOT UPDATED"),
    leaf("HeatingUpdateYear", yearBuilt),
    leaf("UnderConstruction", "No"),
    leaf("SquareFootage", property.square_ft && property.square_ft > 0 ? property.square_ft : null),
    leaf("PurchaseDate", purchase),
    leaf("PurchasePrice", dollars(property.purchase_price_cents)),
    leaf("BusinessOnPremises", "No"),
  ]);

  // Coverage limits and deductibles, where V200's choices hold the carrier's value.
  const dwellingLimit = limitOf(coverage(dwelling, "DWELLING", "BUILDING"));
  const replacement = dollars(dwelling.replacement_cost_cents) ?? dwellingLimit;
  const liability = limitOf(coverage(dwelling, "PERSONAL_LIABILITY", "FAMILY_LIABILITY_PROTECTION"));
  const medical = limitOf(coverage(dwelling, "MEDICAL_PAYMENTS", "GUEST_MEDICAL_PROTECTION"));
  const perils = coverage(dwelling, "ALL_PERILS", "ALL_OTHER_PERILS", "DWELLING");
  const deductibleDollars = dollars(perils?.deductible_cents);
  const deductible =
    (deductibleDollars !== null && DEDUCTIBLES.has(deductibleDollars) ? String(deductibleDollars) : null) ??
    percentDeductible(perils?.deductible_percent, ["1/2%", "1%"]);
  const wind = coverage(dwelling, "WINDSTORM_OR_HAIL");
  const windDollars = dollars(wind?.deductible_cents);
  const windDeductible =
    (windDollars !== null && WIND_DEDUCTIBLES.has(windDollars) ? String(windDollars) : null) ??
    percentDeductible(wind?.deductible_percent, ["1%", "2%", "3%", "4%", "5%"]);
  toCheck.push(
    'Rating credits (retirees, mature, gated or limited-access community, multipolicy, non-smoker): written as "No".',
  );
  const replacementCost = branch("ReplacementCost", [
    leaf("ReplacementCost", required(replacement, 0, "Replacement cost")),
    leaf("Dwelling", required(dwellingLimit, 0, "Dwelling limit")),
    leaf("OtherStructures", limitOf(coverage(dwelling, "OTHER_STRUCTURES"))),
    leaf("LossOfUse", limitOf(coverage(dwelling, "LOSS_OF_USE", "ADDITIONAL_LIVING_EXPENSE"))),
    leaf("PersonalProperty", limitOf(coverage(dwelling, "PERSONAL_PROPERTY", "CONTENTS"))),
    leaf(
      "PersonalLiability",
      required(
        liability !== null && PERSONAL_LIABILITY.has(liability) ? String(liability) : null,
        "300000",
        "Personal liability limit",
      ),
    ),
    leaf(
      "MedicalPayments",
      required(
        medical !== null && MEDICAL_PAYMENTS.has(medical) ? String(medical) : null,
        "1000",
        "Medical payments limit",
      ),
    ),
    branch("DeductibeInfo", [
      leaf("Deductible", required(deductible, "1000", "All-perils deductible")),
      leaf("WindDeductible", windDeductible),
    ]),
    branch(
      "RatingCredits",
      [
        "RetireesCredit",
        "MatureDiscount",
        "RetirementCommunity",
        "LimitedAccessCommunity",
        "GatedCommunity",
        "Multipolicy",
        "NonSmoker",
      ].map((credit) => leaf(credit, "No")),
    ),
  ]);
  if (pull.claims.length > 0)
    leftOut.push(
      "Past claims: EZHOME's loss list needs a loss type from its own list; enter them in EZLynx from the pull page.",
    );
  leftOut.push(
    "Endorsements (water backup, scheduled property and others): set them in EZLynx from the pull page's coverages.",
  );

  const state = address?.state ?? null;
  if (!state) leftOut.push("The rating state and the applicant's name: the dwelling's address names no state.");
  const root = branch("EZHOME", [
    applicant,
    prior,
    policyInfo,
    rating,
    replacementCost,
    branch("Endorsements", []),
    state
      ? branch("GeneralInfo", [leaf("RatingStateCode", state), leaf("Comments", name ? `Applicant: ${name}` : null)])
      : null,
  ]);
  return { xml: renderXml(EZHOME_NAMESPACE, root), leftOut, toCheck };
}
