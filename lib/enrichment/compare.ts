import { humanize } from "@/lib/format";

// What public records say about a home beside what the carrier has on file: year built, size,
// construction, roof. Each line says, in words, whether the two agree, differ or cannot be
// compared. It never claims more than the data shows: a value either side lacks, or one that
// says "unknown", makes the line "unknown"; two different words that may name the same build
// ("frame" and "wood frame") are "described differently", never a difference. Pure: the page
// and the tests call it with the carrier's property data and the service's answer.

export type Verdict = "same" | "differs" | "similar" | "unknown";

export type ComparisonLine = {
  field: "year_built" | "square_ft" | "construction_type" | "roof_cover" | "roof_shape";
  label: string;
  /** The carrier's value in words, or "unknown". */
  carrier: string;
  /** Public records' value in words, or "unknown". */
  records: string;
  verdict: Verdict;
  /** The line in one sentence. */
  sentence: string;
};

export type PropertyComparison = { lines: ComparisonLine[]; differences: number };

/** The fields compared, as either side may hold them (the service's schemas read them leniently). */
export type ComparableProperty = {
  year_built?: unknown;
  square_ft?: unknown;
  construction_type?: unknown;
  roof_cover?: unknown;
  roof_shape?: unknown;
};

export const UNKNOWN = "unknown";

const count = (n: number) => new Intl.NumberFormat("en-US").format(n);

/** A whole number from a number or a digit string; anything else (a fraction, words, NaN) is null. */
function wholeNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isSafeInteger(value) ? value : null;
  if (typeof value === "string" && /^\s*\d+\s*$/.test(value)) return Number(value);
  return null;
}

/** A year a house can have been built in; 0, negative or the far future are data errors, not years. */
function plausibleYear(value: unknown, now: Date): number | null {
  const year = wholeNumber(value);
  return year !== null && year >= 1600 && year <= now.getUTCFullYear() + 2 ? year : null;
}

/** A living area in square feet; 0 or absurd sizes are read as unknown. */
function plausibleArea(value: unknown): number | null {
  const area = wholeNumber(value);
  return area !== null && area >= 100 && area <= 100_000 ? area : null;
}

function unknownLine(field: ComparisonLine["field"], label: string, carrier: string, records: string): ComparisonLine {
  const missing =
    carrier === UNKNOWN && records === UNKNOWN
      ? "neither the carrier nor public records give it"
      : carrier === UNKNOWN
        ? `the carrier does not give it; public records say ${records}`
        : `public records do not give it; the carrier has ${carrier}`;
  return { field, label, carrier, records, verdict: "unknown", sentence: `${label}: unknown (${missing}).` };
}

function yearLine(carrierValue: unknown, recordsValue: unknown, now: Date): ComparisonLine {
  const label = "Year built";
  const carrier = plausibleYear(carrierValue, now);
  const records = plausibleYear(recordsValue, now);
  const c = carrier === null ? UNKNOWN : String(carrier);
  const r = records === null ? UNKNOWN : String(records);
  if (carrier === null || records === null) return unknownLine("year_built", label, c, r);
  if (carrier === records)
    return {
      field: "year_built",
      label,
      carrier: c,
      records: r,
      verdict: "same",
      sentence: `${label}: both say ${c}.`,
    };
  const gap = Math.abs(carrier - records);
  return {
    field: "year_built",
    label,
    carrier: c,
    records: r,
    verdict: "differs",
    sentence: `${label} differs: the carrier has ${c}, public records say ${r} (${gap} ${gap === 1 ? "year" : "years"} ${records > carrier ? "later" : "earlier"}).`,
  };
}

function areaLine(carrierValue: unknown, recordsValue: unknown): ComparisonLine {
  const label = "Size";
  const carrier = plausibleArea(carrierValue);
  const records = plausibleArea(recordsValue);
  const c = carrier === null ? UNKNOWN : `${count(carrier)} sq ft`;
  const r = records === null ? UNKNOWN : `${count(records)} sq ft`;
  if (carrier === null || records === null) return unknownLine("square_ft", label, c, r);
  if (carrier === records)
    return { field: "square_ft", label, carrier: c, records: r, verdict: "same", sentence: `${label}: both say ${c}.` };
  const gap = Math.abs(carrier - records);
  const percent = Math.round((gap / carrier) * 100);
  return {
    field: "square_ft",
    label,
    carrier: c,
    records: r,
    verdict: "differs",
    sentence: `${label} differs: the carrier has ${c}, public records say ${r} (${count(gap)} sq ft ${records > carrier ? "more" : "less"}${percent > 0 ? `, ${percent}%` : ""}).`,
  };
}

// Enum values name materials in parts ("WOOD_FRAME_CONCRETE_BLOCK"); each part that names a
// kind of build puts the value in that family. Two values differ for sure only when both are in
// known families and share none; otherwise they may describe the same thing.

const CONSTRUCTION_FAMILIES: Record<string, string[]> = {
  WOOD: ["frame"],
  FRAME: ["frame"],
  LOG: ["frame"],
  CLAPBOARD: ["frame"],
  POLE: ["frame"],
  VENEER: ["frame", "masonry"],
  SIDING: ["frame"],
  VINYL: ["frame"],
  BRICK: ["masonry"],
  BLOCK: ["masonry"],
  CINDER: ["masonry"],
  CONCRETE: ["masonry"],
  MASONRY: ["masonry"],
  STONE: ["masonry"],
  ROCK: ["masonry"],
  ADOBE: ["masonry"],
  TILT: ["masonry"],
  FLEXICORE: ["masonry"],
  STEEL: ["steel"],
  METAL: ["steel"],
  ALUMINUM: ["steel"],
};
/** Finishes and words that say nothing of the structure ("frame stucco" is a frame house). */
const CONSTRUCTION_FINISHES = new Set(["STUCCO", "UP", "PREFAB", "FLEXIBLE"]);
const CONSTRUCTION_UNKNOWN = new Set(["TYPE_UNKNOWN", "TYPE_NOT_SPECIFIED", "NONE", "UNKNOWN", "NOT_AVAILABLE"]);

const ROOF_COVER_FAMILIES: Record<string, string[]> = {
  ASPHALT: ["asphalt"],
  COMPOSITION: ["asphalt"],
  FIBERGLASS: ["asphalt"],
  ROLL: ["asphalt"],
  BUILTUP: ["asphalt"],
  TAR: ["asphalt"],
  WOOD: ["wood"],
  TILE: ["tile"],
  CLAY: ["tile"],
  CONCRETE: ["concrete"],
  SLATE: ["slate"],
  METAL: ["metal"],
  ALUMINUM: ["metal"],
  GALVANIZED: ["metal"],
  ENAMEL: ["metal"],
  BI: ["metal"],
  RUBBER: ["membrane"],
  URETHANE: ["membrane"],
  GRAVEL: ["gravel"],
  ROCK: ["gravel"],
  ASBESTOS: ["asbestos"],
  GYPSUM: ["gypsum"],
  MASONITE: ["masonite"],
  CEMENT: ["masonite"],
};
/** Parts that name a form more than a material: read only when no other part names one. */
const ROOF_COVER_FORMS: Record<string, string[]> = { SHINGLE: ["asphalt", "wood"], SHAKE: ["wood", "masonite"] };
/** Parts that change nothing about the material ("heavy" composition shingle is still asphalt). */
const ROOF_COVER_QUALIFIERS = new Set([
  "AVERAGE",
  "HEAVY",
  "LIGHT",
  "MEDIUM",
  "LAYERED",
  "STYLE",
  "BAR",
  "SPANISH",
  "TWO",
  "PLY",
  "ROLLED",
  "MINERAL",
  "ROOF",
  "PAPER",
  "SMOOTH",
  "SYNTHETIC",
  "ELASTOMETRIC",
]);
const ROOF_COVER_UNKNOWN = new Set([
  "UNKNOWN",
  "UNKNOWN_OR_NOT_PROVIDED",
  "NOT_AVAILABLE",
  "NP",
  "OTHER_NOT_CLASSIFIED",
]);

const PITCHED = ["gable", "hip", "gambrel", "mansard", "shed", "a-frame", "pyramid", "butterfly", "sawtooth"];
const ROOF_SHAPE_FAMILIES: Record<string, string[]> = {
  FLAT: ["flat"],
  GABLE: ["gable"],
  HIP: ["hip"],
  GAMBREL: ["gambrel"],
  MANSARD: ["mansard"],
  SHED: ["shed"],
  A_FRAME: ["a-frame"],
  PYRAMID: ["pyramid"],
  BUTTERFLY: ["butterfly"],
  SAWTOOTH: ["sawtooth"],
  PITCHED,
  BARN: ["gambrel"],
  DOME: ["dome"],
  GEODESIC_DOME: ["dome"],
  BUBBLE: ["dome"],
  ARCHED: ["arched"],
  BARREL: ["arched"],
  BOWSTRING_TRUSS: ["arched"],
};
const ROOF_SHAPE_UNKNOWN = new Set(["UNKNOWN", "NOT_AVAILABLE", "NONE"]);

type EnumRule = {
  field: "construction_type" | "roof_cover" | "roof_shape";
  label: string;
  unknown: Set<string>;
  families: (code: string) => Set<string> | null;
};

/** A value as an enum code: "Wood frame" from a carrier that writes words reads as WOOD_FRAME. */
const codeOf = (value: string) =>
  value
    .trim()
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");

/** The families of a code from its parts; null when a part names nothing known, or none does. */
const familiesByPart =
  (table: Record<string, string[]>, options: { forms?: Record<string, string[]>; ignore?: Set<string> } = {}) =>
  (code: string): Set<string> | null => {
    const found = new Set<string>();
    const forms = new Set<string>();
    for (const part of code.split("_")) {
      if (table[part]) table[part].forEach((f) => found.add(f));
      else if (options.forms?.[part]) options.forms[part].forEach((f) => forms.add(f));
      // A part nothing knows ("CUSTOM", "MODULAR") could name anything: only a fully read code is sure.
      else if (!options.ignore?.has(part) && part.length > 1) return null;
    }
    const families = found.size > 0 ? found : forms;
    return families.size > 0 ? families : null;
  };

/** Roof shapes are named whole ("GABLE_HIP" is both), not by parts ("A_FRAME" is not a frame). */
const familiesByName = (table: Record<string, string[]>) => (code: string) => {
  if (table[code]) return new Set(table[code]);
  const parts = code.split("_");
  if (parts.length > 1 && parts.every((part) => table[part]))
    return new Set(parts.flatMap((part) => table[part] ?? []));
  return null;
};

const ENUM_RULES: EnumRule[] = [
  {
    field: "construction_type",
    label: "Construction",
    unknown: CONSTRUCTION_UNKNOWN,
    families: familiesByPart(CONSTRUCTION_FAMILIES, { ignore: CONSTRUCTION_FINISHES }),
  },
  {
    field: "roof_cover",
    label: "Roof covering",
    unknown: ROOF_COVER_UNKNOWN,
    families: familiesByPart(ROOF_COVER_FAMILIES, { forms: ROOF_COVER_FORMS, ignore: ROOF_COVER_QUALIFIERS }),
  },
  {
    field: "roof_shape",
    label: "Roof shape",
    unknown: ROOF_SHAPE_UNKNOWN,
    families: familiesByName(ROOF_SHAPE_FAMILIES),
  },
];

function enumLine(rule: EnumRule, carrierValue: unknown, recordsValue: unknown): ComparisonLine {
  const read = (value: unknown) => {
    if (typeof value !== "string" || value.trim() === "") return null;
    const code = codeOf(value);
    if (code === "" || rule.unknown.has(code)) return null;
    // A code is said in words; anything else (a carrier's own wording) is shown as written.
    const written = value.trim();
    return { code, words: /^[A-Z0-9_]+$/.test(written) ? humanize(written).toLowerCase() : written };
  };
  const carrier = read(carrierValue);
  const records = read(recordsValue);
  const c = carrier?.words ?? UNKNOWN;
  const r = records?.words ?? UNKNOWN;
  const base = { field: rule.field, label: rule.label, carrier: c, records: r };
  if (!carrier || !records) return unknownLine(rule.field, rule.label, c, r);
  if (carrier.code === records.code) return { ...base, verdict: "same", sentence: `${rule.label}: both say ${c}.` };
  const a = rule.families(carrier.code);
  const b = rule.families(records.code);
  if (a && b && ![...a].some((family) => b.has(family)))
    return {
      ...base,
      verdict: "differs",
      sentence: `${rule.label} differs: the carrier has ${c}, public records say ${r}.`,
    };
  return {
    ...base,
    verdict: "similar",
    sentence: `${rule.label}: described differently (the carrier has ${c}, public records say ${r}); they may mean the same.`,
  };
}

/**
 * The carrier's dwelling beside public records. Either side may be null (the carrier sent no
 * property data, the service's answer had none): every line is then "unknown".
 */
export function compareProperty(
  carrier: ComparableProperty | null | undefined,
  records: ComparableProperty | null | undefined,
  now: Date = new Date(),
): PropertyComparison {
  const c = carrier ?? {};
  const r = records ?? {};
  const lines = [
    yearLine(c.year_built, r.year_built, now),
    areaLine(c.square_ft, r.square_ft),
    ...ENUM_RULES.map((rule) => enumLine(rule, c[rule.field], r[rule.field])),
  ];
  return { lines, differences: lines.filter((line) => line.verdict === "differs").length };
}
