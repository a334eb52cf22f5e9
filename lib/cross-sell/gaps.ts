import { DASH, formatAddress, formatLimit, humanize } from "@/lib/format";
import { householdOf, type HouseholdPolicy } from "@/lib/pulls/household";
import { isKnownValue, POLICY_TYPES, type Dwelling, type Policy, type Pull } from "@/lib/service/schemas";
import { floodZoneOf } from "@/lib/review/flood-zone";

// Cross-sell gaps of one household: what the agency could add or join, in words with the
// figures behind them. Pure, so the pull page, ingest (the household_gaps row the book-level
// list reads) and tests all share it. Only policies in force (lib/pulls/household.ts: cancelled,
// rescinded, expired and quoted ones cost nothing) of a type the spec lists count; a policy of
// an unknown type is left out, since we cannot tell what it covers. Missing or odd data (no
// birth date, no limits, no premium) leaves a gap out rather than invent one.

// Append only: a gap's place in this list is its bit in household_gaps.gap_mask (and in migration 0024's backfill).
export const GAP_CODES = ["AUTO_NO_HOME", "NO_UMBRELLA", "NO_FLOOD", "YOUNG_DRIVER", "MULTI_CARRIER"] as const;
export type GapCode = (typeof GAP_CODES)[number];

/** The gaps as one integer, bit i for GAP_CODES[i]: the book-level counts group by it (an integer hashes far faster than an array). */
export function gapMaskOf(codes: readonly string[]): number {
  return GAP_CODES.reduce((mask, code, bit) => (codes.includes(code) ? mask | (1 << bit) : mask), 0);
}

/** The gap codes of a mask, in GAP_CODES order. */
export function gapsOfMask(mask: number): GapCode[] {
  return GAP_CODES.filter((_, bit) => (mask & (1 << bit)) !== 0);
}

/** Short names of the gaps, for filters, counts and CSV. */
export const GAP_LABELS: Record<GapCode, string> = {
  AUTO_NO_HOME: "Auto without home",
  NO_UMBRELLA: "No umbrella",
  NO_FLOOD: "No flood policy",
  YOUNG_DRIVER: "Driver under 25",
  MULTI_CARRIER: "Several carriers",
};

export type Gap = {
  code: GapCode;
  title: string;
  detail: string;
  /** The premium a year this gap puts in play (lines a bundle would move), or null for a new line. */
  premiumInPlayCents: number | null;
};

export type CrossSell = {
  gaps: Gap[];
  /** Policy types in force, sorted. */
  lines: string[];
  policyCount: number;
  carrierCount: number;
  annualPremiumCents: number | null;
  /** The premium of every policy some gap puts in play, each counted once. */
  premiumInPlayCents: number | null;
};

/**
 * When a household with home and auto is shown an umbrella: any one of these, at or above. An
 * umbrella carrier usually asks for 250/500 auto and $300,000 home liability beneath it, and a
 * household that already buys that much, or owns a home or pays premiums this size, has assets
 * a lawsuit could reach.
 */
export const UMBRELLA_TRIGGERS = {
  /** A home's personal liability, or an auto's single (combined) limit. */
  liabilityLimitCents: 300_000_00,
  /** An auto's bodily injury limit per person (split limits: 250/500). */
  bodilyInjuryPerPersonCents: 250_000_00,
  /** The dwelling (Coverage A) limit of a home. */
  dwellingLimitCents: 500_000_00,
  /** The household's premium a year. */
  householdPremiumCents: 5_000_00,
} as const;

/** Drivers younger than this are worth a rating review; younger than the minimum is odd data. */
export const YOUNG_DRIVER_AGE = 25;
const MIN_DRIVER_AGE = 14;

const AUTO = new Set(["AUTO"]);
/** Where the household lives: what bundles with auto. */
const RESIDENCE = new Set(["HOMEOWNERS", "CONDO", "RENTERS", "MOBILE_HOME", "FARMOWNER"]);
/** A home the household owns: what flood insurance protects beyond the contents. */
const OWNED_HOME = new Set(["HOMEOWNERS", "CONDO", "MOBILE_HOME", "FARMOWNER"]);
const UMBRELLA = new Set(["UMBRELLA", "PERSONAL_LIABILITY", "EXCESS_LIABILITY", "FARM_UMBRELLA"]);
/**
 * Personal lines one carrier can write together. Flood (mostly the NFIP), earthquake, life,
 * pet and the business lines are written apart, so a second carrier for them is no gap.
 */
const BUNDLES = new Set([
  "AUTO",
  "NAMED_NON_OWNER",
  "HOMEOWNERS",
  "CONDO",
  "RENTERS",
  "MOBILE_HOME",
  "FARMOWNER",
  "LANDLORD",
  "FIRE",
  "UMBRELLA",
  "PERSONAL_LIABILITY",
  "MOTORCYCLE",
  "CLASSIC_CAR",
  "BOAT",
  "YACHT",
  "PERSONAL_WATERCRAFT",
  "RECREATIONAL_VEHICLE",
  "SNOWMOBILE",
  "OFFROAD_VEHICLE",
  "GOLF_CART",
  "TRAILER",
  "PERSONAL_ARTICLES",
]);

const BODILY_INJURY = new Set(["Bodily Injury Liability", "BODILY_INJURY_LIABILITY", "BI"]);
const SINGLE_LIMIT = new Set([
  "Single Limit Liability",
  "Combined Single Limit",
  "SINGLE_LIMIT_LIABILITY",
  "COMBINED_SINGLE_LIMIT",
  "CSL",
]);
const HOME_LIABILITY = new Set(["PERSONAL_LIABILITY", "FAMILY_LIABILITY_PROTECTION"]);

type Held = HouseholdPolicy & { type: string; carrierKey: string | null; carrierName: string | null };

// ---------------------------------------------------------------------------- words

/** Whole dollars: "$1,204". */
const dollars = (cents: number) => formatLimit(Math.round(cents / 100) * 100);
const lineWord = (type: string) => humanize(type).toLowerCase();
const capitalised = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

const listWords = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;

/** "Progressive auto ($1,204 a year)", "auto (premium not stated)". */
function describe(held: Held): string {
  const what = held.carrierName ? `${held.carrierName} ${lineWord(held.type)}` : lineWord(held.type);
  return `${what} (${held.annualCents === null ? "premium not stated" : `${dollars(held.annualCents)} a year`})`;
}

/** The sum of the premiums stated; null when none is. */
function premiumOf(list: Held[]): number | null {
  const priced = list.filter((h) => h.annualCents !== null);
  return priced.length === 0 ? null : priced.reduce((sum, h) => sum + (h.annualCents ?? 0), 0);
}

const positive = (value: number | null | undefined): value is number =>
  typeof value === "number" && Number.isFinite(value) && value > 0;

// ---------------------------------------------------------------------------- reading the pull

/** The carrier as one key across its spellings ("statefarm", "State Farm"); null when unnamed. */
function carrierOf(policy: Policy): { key: string | null; name: string | null } {
  const name = [policy.carrier_friendly_name, policy.carrier_name].find((n) => n && n.trim())?.trim() ?? null;
  const id = [policy.carrier_name, policy.carrier_friendly_name].find((n) => n && n.trim()) ?? "";
  const key = id.toLowerCase().replace(/[^a-z0-9]/g, "");
  return { key: key || null, name };
}

function heldPolicies(pull: Pull): Held[] {
  return householdOf(pull).policies.flatMap((p): Held[] => {
    if (!p.inForce || !isKnownValue(POLICY_TYPES, p.policy.policy_type)) return [];
    const carrier = carrierOf(p.policy);
    return [{ ...p, type: p.policy.policy_type, carrierKey: carrier.key, carrierName: carrier.name }];
  });
}

/** A liability limit with where it comes from, in words. */
type Limit = { cents: number; words: string };

function liabilityLimits(held: Held[]): Limit[] {
  const limits: Limit[] = [];
  for (const h of held) {
    for (const vehicle of AUTO.has(h.type) ? h.policy.vehicles : []) {
      for (const c of vehicle.coverages) {
        if (c.is_declined) continue;
        const names = [c.friendly_name, c.name];
        if (names.some((n) => n && SINGLE_LIMIT.has(n)) && positive(c.per_incident_limit_cents)) {
          if (c.per_incident_limit_cents >= UMBRELLA_TRIGGERS.liabilityLimitCents)
            limits.push({
              cents: c.per_incident_limit_cents,
              words: `a ${dollars(c.per_incident_limit_cents)} auto liability limit`,
            });
        } else if (names.some((n) => n && BODILY_INJURY.has(n)) && positive(c.per_person_limit_cents)) {
          if (c.per_person_limit_cents >= UMBRELLA_TRIGGERS.bodilyInjuryPerPersonCents) {
            const perAccident = positive(c.per_incident_limit_cents) ? `/${dollars(c.per_incident_limit_cents)}` : "";
            limits.push({
              cents: c.per_person_limit_cents,
              words: `auto bodily injury limits of ${dollars(c.per_person_limit_cents)}${perAccident}`,
            });
          }
        }
      }
    }
    for (const dwelling of RESIDENCE.has(h.type) ? h.policy.dwellings : []) {
      for (const c of dwelling.coverages) {
        const isLiability =
          (c.name && HOME_LIABILITY.has(c.name)) ||
          c.friendly_name === "Personal Liability" ||
          c.friendly_name === "Family Liability Protection";
        const limit = c.per_incident_limit_cents;
        if (c.is_declined || !isLiability || !positive(limit)) continue;
        if (limit >= UMBRELLA_TRIGGERS.liabilityLimitCents)
          limits.push({ cents: limit, words: `${dollars(limit)} of personal liability on the ${lineWord(h.type)}` });
      }
    }
  }
  return limits.sort((a, b) => b.cents - a.cents);
}

/** The Coverage A limit of a dwelling; null when the carrier did not state one. */
function dwellingLimitOf(dwelling: Dwelling): number | null {
  const limits = dwelling.coverages
    .filter((c) => !c.is_declined && (c.name === "DWELLING" || (!c.name && c.friendly_name === "Dwelling")))
    .map((c) => c.per_incident_limit_cents)
    .filter(positive);
  return limits.length > 0 ? Math.max(...limits) : null;
}

/**
 * How the property data names the flood zone of a dwelling the data places in one ("zone AE",
 * "a flood zone" for a bare flag); null when it does not (no field, a lower-risk zone, or a value
 * nobody can read). The same reading as the coverage review's (./flood-zone.ts).
 */
function highRiskZoneOf(dwelling: Dwelling): string | null {
  const zone = floodZoneOf(dwelling.property_data);
  if (zone?.inZone !== true) return null;
  const code = zone.value
    .toUpperCase()
    .replace(/^(ZONE|FEMA)\s+/, "")
    .trim();
  return /^[AV][A-Z0-9/]{0,4}$/.test(code) ? `FEMA flood zone ${code}` : "a flood zone";
}

const DATE_ISO = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/;
const DATE_US = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** Whole years from a birth date as carriers write it (1987-05-03 or 05/03/1987); null when it is not one. */
export function ageOn(birth: string | null | undefined, today: string): number | null {
  if (!birth) return null;
  const text = birth.trim();
  const iso = DATE_ISO.exec(text);
  const us = iso ? null : DATE_US.exec(text);
  const [year, month, day] = iso
    ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
    : us
      ? [Number(us[3]), Number(us[1]), Number(us[2])]
      : [NaN, NaN, NaN];
  const now = DATE_ISO.exec(today);
  if (!now || !Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  // 02/30/1990 rolls into March in Date: a day that does not exist is not a birth date.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  const [ty, tm, td] = [Number(now[1]), Number(now[2]), Number(now[3])];
  const age = ty - year - (tm < month || (tm === month && td < day) ? 1 : 0);
  return age >= 0 && age <= 120 ? age : null;
}

// ---------------------------------------------------------------------------- the rules

type Found = Gap & { inPlay: Held[] };

function autoWithoutHome(held: Held[]): Found | null {
  const autos = held.filter((h) => AUTO.has(h.type));
  if (autos.length === 0 || held.some((h) => RESIDENCE.has(h.type))) return null;
  const inPlay = premiumOf(autos);
  return {
    code: "AUTO_NO_HOME",
    title: "Auto without a home, condo or renters policy",
    detail:
      `${listWords(autos.map(describe))} and no home, condo or renters policy in force: quote one to bundle with the auto` +
      (inPlay === null ? "." : `, putting ${dollars(inPlay)} a year of auto premium in play.`),
    premiumInPlayCents: inPlay,
    inPlay: autos,
  };
}

function noUmbrella(held: Held[], annualCents: number | null): Found | null {
  const homes = held.filter((h) => RESIDENCE.has(h.type));
  if (!held.some((h) => AUTO.has(h.type)) || homes.length === 0 || held.some((h) => UMBRELLA.has(h.type))) return null;
  const reasons: string[] = [];
  const [limit] = liabilityLimits(held);
  if (limit) reasons.push(limit.words);
  const dwelling = Math.max(
    0,
    ...homes.flatMap((h) => h.policy.dwellings.map(dwellingLimitOf)).filter((n): n is number => n !== null),
  );
  if (dwelling >= UMBRELLA_TRIGGERS.dwellingLimitCents) reasons.push(`a dwelling insured for ${dollars(dwelling)}`);
  if (annualCents !== null && annualCents >= UMBRELLA_TRIGGERS.householdPremiumCents)
    reasons.push(`${dollars(annualCents)} a year in premium`);
  if (reasons.length === 0) return null;
  return {
    code: "NO_UMBRELLA",
    title: "No umbrella over home and auto",
    detail: `${capitalised(listWords([...new Set(homes.map((h) => lineWord(h.type)))]))} and auto in force with no umbrella, and ${listWords(reasons)}: an umbrella adds liability cover above both policies for what those limits and assets show is at stake.`,
    premiumInPlayCents: null,
    inPlay: [],
  };
}

function noFlood(held: Held[]): Found | null {
  const homes = held.filter((h) => OWNED_HOME.has(h.type));
  if (homes.length === 0 || held.some((h) => h.type === "FLOOD")) return null;
  // A flood endorsement on the home policy is flood cover too.
  const endorsed = homes.some((h) =>
    h.policy.dwellings.some((d) => d.coverages.some((c) => !c.is_declined && c.name === "FLOOD")),
  );
  if (endorsed) return null;
  const dwellings = homes.flatMap((h) => h.policy.dwellings.map((dwelling) => ({ home: h, dwelling })));
  const zoned = dwellings.map((d) => ({ ...d, zone: highRiskZoneOf(d.dwelling) })).find((d) => d.zone !== null);
  const where = zoned ?? dwellings[0];
  const anchor = where?.home ?? homes[0];
  if (!anchor) return null;
  const limit = where ? dwellingLimitOf(where.dwelling) : null;
  const home = `${describe(anchor)}${limit === null ? "" : ` covers a ${dollars(limit)} dwelling`}`;
  if (zoned) {
    const address = formatAddress(zoned.dwelling.address);
    return {
      code: "NO_FLOOD",
      title: "In a flood zone without flood insurance",
      detail: `The property data places ${address === DASH ? "the home" : address} in ${zoned.zone}, a high-risk area, and no flood policy is in force: ${home}${limit === null ? "" : " but"} excludes flood damage. A lender may require flood cover there; quote a flood policy.`,
      premiumInPlayCents: null,
      inPlay: [],
    };
  }
  return {
    code: "NO_FLOOD",
    title: "No flood policy",
    detail: `${capitalised(home)}, and no flood policy is in force: home policies exclude flood damage, and floods also reach homes outside the mapped high-risk zones.`,
    premiumInPlayCents: null,
    inPlay: [],
  };
}

function youngDrivers(pull: Pull, held: Held[], today: string): Found | null {
  const autos = held.filter((h) => AUTO.has(h.type));
  if (autos.length === 0) return null;
  // The account's drivers, and those the auto policies list on their vehicles (same driver_id).
  const drivers = new Map<string, { name: string; age: number }>();
  const candidates = [
    ...pull.drivers,
    ...autos.flatMap((h) => h.policy.vehicles.flatMap((v) => v.drivers.filter((d) => d.is_excluded !== true))),
  ];
  for (const driver of candidates) {
    if (drivers.has(driver.driver_id)) continue;
    const age = ageOn(driver.date_of_birth_str, today);
    if (age === null || age < MIN_DRIVER_AGE || age >= YOUNG_DRIVER_AGE) continue;
    const name = [driver.first_name, driver.last_name].filter((p) => p && p.trim()).join(" ") || "A driver";
    drivers.set(driver.driver_id, { name, age });
  }
  if (drivers.size === 0) return null;
  const young = [...drivers.values()].sort((a, b) => a.age - b.age);
  const inPlay = premiumOf(autos);
  return {
    code: "YOUNG_DRIVER",
    title: young.length === 1 ? "A driver under 25" : `${young.length} drivers under 25`,
    detail:
      `${listWords(young.map((d) => `${d.name} (${d.age})`))} ${young.length === 1 ? "drives" : "drive"} on ${listWords(autos.map(describe))}: ` +
      `review how ${young.length === 1 ? "they are" : "each is"} rated (which car, good-student, driver-training and away-at-school discounts)` +
      (inPlay === null ? "." : `, with ${dollars(inPlay)} a year of auto premium in play.`),
    premiumInPlayCents: inPlay,
    inPlay: autos,
  };
}

function severalCarriers(held: Held[]): Found | null {
  const byCarrier = new Map<string, Held[]>();
  for (const h of held) {
    if (!BUNDLES.has(h.type) || h.carrierKey === null) continue;
    byCarrier.set(h.carrierKey, [...(byCarrier.get(h.carrierKey) ?? []), h]);
  }
  if (byCarrier.size < 2) return null;
  // The carrier a bundle would join: the one with the most premium, then the most policies.
  const groups = [...byCarrier.values()].sort(
    (a, b) =>
      (premiumOf(b) ?? 0) - (premiumOf(a) ?? 0) ||
      b.length - a.length ||
      (a[0]?.carrierKey ?? "").localeCompare(b[0]?.carrierKey ?? ""),
  );
  const [biggest, ...rest] = groups;
  const outside = rest.flat();
  const inPlay = premiumOf(outside);
  const name = biggest?.[0]?.carrierName ?? "the largest carrier";
  return {
    code: "MULTI_CARRIER",
    title: `Lines with ${byCarrier.size} carriers`,
    detail:
      `${capitalised(listWords(groups.flat().map(describe)))}: a bundle with ${name}, which has the most of the premium, would join them` +
      (inPlay === null ? "." : `, putting ${dollars(inPlay)} a year with the other carriers in play.`),
    premiumInPlayCents: inPlay,
    inPlay: outside,
  };
}

/** The household's cross-sell gaps on `today` (an ISO day: a driver's age depends on it). */
export function crossSellGaps(pull: Pull, today: string): CrossSell {
  const held = heldPolicies(pull);
  const annualPremiumCents = premiumOf(held);
  const found = [
    autoWithoutHome(held),
    noUmbrella(held, annualPremiumCents),
    noFlood(held),
    youngDrivers(pull, held, today),
    severalCarriers(held),
  ].filter((gap): gap is Found => gap !== null);
  // Each policy once, however many gaps put it in play.
  const inPlay = [...new Set(found.flatMap((gap) => gap.inPlay))];
  return {
    gaps: found.map(({ inPlay: _inPlay, ...gap }) => gap),
    lines: [...new Set(held.map((h) => h.type))].sort(),
    policyCount: held.length,
    carrierCount: new Set(held.flatMap((h) => (h.carrierKey ? [h.carrierKey] : []))).size,
    annualPremiumCents,
    premiumInPlayCents: premiumOf(inPlay),
  };
}
