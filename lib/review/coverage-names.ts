import {
  DWELLING_COVERAGE_FRIENDLY_NAMES,
  DWELLING_COVERAGE_NAMES,
  isKnownValue,
  VEHICLE_COVERAGE_FRIENDLY_NAMES,
  type DwellingCoverage,
  type VehicleCoverage,
} from "@/lib/service/schemas";

// What a coverage is, read robustly. Carriers name the same coverage many ways: the spec's
// friendly names ("Bodily Injury Liability"), short codes ("BI", "UMUIM", "COMP"), enum-like
// names ("BODILY_INJURY_LIABILITY"), and friendly names the spec does not list. A documented
// friendly name decides (vehicles); for homes the documented `name` decides first, because the
// service's own example calls Coverage A "Dwelling Liability" and contents "Personal Property
// Liability": reading words like "liability" in a friendly name would find liability where
// there is none. A coverage nothing recognises is ODD, so a rule can say "unknown" instead of
// reporting a missing coverage that is only named strangely.

export type VehicleCoverageKind =
  | "BODILY_INJURY"
  | "PROPERTY_DAMAGE"
  | "COMBINED_SINGLE_LIMIT"
  | "UNINSURED_MOTORIST"
  | "COMPREHENSIVE"
  | "COLLISION"
  | "OTHER"
  | "ODD";

export type DwellingCoverageKind = "DWELLING" | "LIABILITY" | "WATER_BACKUP" | "FLOOD" | "OTHER" | "ODD";

/** "Bodily injury", "bodily-injury liability", "BODILY_INJURY" → "BODILY_INJURY"… */
const normalized = (value: string) =>
  value
    .trim()
    .toUpperCase()
    .replace(/&/g, " AND ")
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");

const VEHICLE_FRIENDLY: Partial<Record<(typeof VEHICLE_COVERAGE_FRIENDLY_NAMES)[number], VehicleCoverageKind>> = {
  "Bodily Injury Liability": "BODILY_INJURY",
  "Property Damage Liability": "PROPERTY_DAMAGE",
  "Single Limit Liability": "COMBINED_SINGLE_LIMIT",
  "Combined Single Limit": "COMBINED_SINGLE_LIMIT",
  Comprehensive: "COMPREHENSIVE",
  Collision: "COLLISION",
  "Uninsured Motorists": "UNINSURED_MOTORIST",
  "Uninsured Motorist Bodily Injury Liability": "UNINSURED_MOTORIST",
  "Uninsured Motorist Bodily Injury & Property Damage Liability": "UNINSURED_MOTORIST",
  "Underinsured Motorists": "UNINSURED_MOTORIST",
  "Underinsured Motorist Bodily Injury Liability": "UNINSURED_MOTORIST",
  "Underinsured Motorist Bodily Injury & Property Damage Liability": "UNINSURED_MOTORIST",
  "Uninsured / Underinsured Motorists": "UNINSURED_MOTORIST",
  "Uninsured / Underinsured Motorist Bodily Injury Liability": "UNINSURED_MOTORIST",
  "Uninsured / Underinsured Motorist Bodily Injury & Property Damage Liability": "UNINSURED_MOTORIST",
  "Supplemental Uninsured / Underinsured Motorists": "UNINSURED_MOTORIST",
};

// Codes and spellings seen outside the friendly-name list, matched on the normalised text.
const VEHICLE_PATTERNS: Array<[RegExp, VehicleCoverageKind]> = [
  [/^(BI|BIL|BODILY_INJURY(_LIABILITY)?)$/, "BODILY_INJURY"],
  [/^(PD|PDL|PROPERTY_DAMAGE(_LIABILITY)?)$/, "PROPERTY_DAMAGE"],
  [/^(CSL|SLL|COMBINED_SINGLE_LIMIT(_LIABILITY)?|SINGLE_LIMIT(_LIABILITY)?)$/, "COMBINED_SINGLE_LIMIT"],
  [/^(COMP|COMPREHENSIVE|OTC|OTHER_THAN_COLLISION)$/, "COMPREHENSIVE"],
  [/^(COLL|COLLISION)$/, "COLLISION"],
  [/^(UMPD|UIMPD|UM_PD|(UNINSURED|UNDERINSURED)_MOTORISTS?_PROPERTY_DAMAGE(_LIABILITY)?)$/, "OTHER"],
  [
    /^(UM|UIM|UMUIM|UM_UIM|UMBI|UIMBI|UM_BI|(UNINSURED_|UNDERINSURED_|UNINSURED_UNDERINSURED_)MOTORISTS?(_BODILY_INJURY(_LIABILITY)?)?)$/,
    "UNINSURED_MOTORIST",
  ],
];

// Each rule asks about the same coverages again: each is classified once.
const vehicleKinds = new WeakMap<object, VehicleCoverageKind>();
const dwellingKinds = new WeakMap<object, DwellingCoverageKind>();

export function vehicleCoverageKind(coverage: Pick<VehicleCoverage, "name" | "friendly_name">): VehicleCoverageKind {
  let kind = vehicleKinds.get(coverage);
  if (!kind) vehicleKinds.set(coverage, (kind = classifyVehicleCoverage(coverage)));
  return kind;
}

function classifyVehicleCoverage(coverage: Pick<VehicleCoverage, "name" | "friendly_name">): VehicleCoverageKind {
  const friendly = coverage.friendly_name;
  if (isKnownValue(VEHICLE_COVERAGE_FRIENDLY_NAMES, friendly)) return VEHICLE_FRIENDLY[friendly] ?? "OTHER";
  for (const text of [coverage.name, friendly]) {
    if (!text) continue;
    const key = normalized(text);
    for (const [pattern, kind] of VEHICLE_PATTERNS) if (pattern.test(key)) return kind;
  }
  return "ODD";
}

const DWELLING_KINDS: Partial<Record<(typeof DWELLING_COVERAGE_NAMES)[number], DwellingCoverageKind>> = {
  DWELLING: "DWELLING",
  PERSONAL_LIABILITY: "LIABILITY",
  FAMILY_LIABILITY_PROTECTION: "LIABILITY",
  PREMISES_LIABILITY: "LIABILITY",
  WATER_BACKUP_AND_SUMP_OVERFLOW: "WATER_BACKUP",
  FLOOD: "FLOOD",
};

/** The spec lists the friendly names in the order of the names: the same index is the same coverage. */
function nameOfFriendly(friendly: string | null): (typeof DWELLING_COVERAGE_NAMES)[number] | null {
  if (!isKnownValue(DWELLING_COVERAGE_FRIENDLY_NAMES, friendly)) return null;
  return DWELLING_COVERAGE_NAMES[DWELLING_COVERAGE_FRIENDLY_NAMES.indexOf(friendly)] ?? null;
}

const DWELLING_PATTERNS: Array<[RegExp, DwellingCoverageKind]> = [
  [/^(COV_A|COVERAGE_A|DWELLING)$/, "DWELLING"],
  [/^(COV_E|COVERAGE_E|PERSONAL_LIABILITY|FAMILY_LIABILITY(_PROTECTION)?|PREMISES_LIABILITY)$/, "LIABILITY"],
  [/^(WATER_BACK_?UP.*|SEWER_BACK_?UP.*|SUMP.*)$/, "WATER_BACKUP"],
  [/^FLOOD$/, "FLOOD"],
];

export function dwellingCoverageKind(coverage: Pick<DwellingCoverage, "name" | "friendly_name">): DwellingCoverageKind {
  let kind = dwellingKinds.get(coverage);
  if (!kind) dwellingKinds.set(coverage, (kind = classifyDwellingCoverage(coverage)));
  return kind;
}

function classifyDwellingCoverage(coverage: Pick<DwellingCoverage, "name" | "friendly_name">): DwellingCoverageKind {
  const name = isKnownValue(DWELLING_COVERAGE_NAMES, coverage.name)
    ? coverage.name
    : nameOfFriendly(coverage.friendly_name);
  if (name) return DWELLING_KINDS[name] ?? "OTHER";
  for (const text of [coverage.name, coverage.friendly_name]) {
    if (!text) continue;
    const key = normalized(text);
    for (const [pattern, kind] of DWELLING_PATTERNS) if (pattern.test(key)) return kind;
  }
  return "ODD";
}

/** How a coverage is named on screen: its friendly name, else its name, as the carrier wrote it. */
export const coverageLabel = (coverage: { name: string | null; friendly_name: string | null }) =>
  coverage.friendly_name ?? coverage.name ?? "a coverage with no name";
