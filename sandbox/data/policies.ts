import { DAY_MS, flat, type Random } from "./random";
import { carrierById } from "./carriers";

// One policy of any line; the line-specific parts (vehicles, dwellings…) are passed in. The
// term, status and payments are coherent: a cancelled policy has a cancellation date, an
// expired one ended in the past, one pending activation starts in the future.
/** `[carrier_id, name]` of catalogue carriers: what a pull carries as carrier_name and friendly name. */
function fromCatalog<const I extends readonly string[]>(ids: I): { [K in keyof I]: Carrier } {
  return ids.map((id) => {
    const found = carrierById(id);
    if (!found) throw new Error(`no carrier ${id} in the catalogue`);
    return [found.carrier_id, found.name] as const;
  }) as { [K in keyof I]: Carrier };
}

export const CARRIERS = fromCatalog([
  "progressive",
  "statefarm",
  "geico",
  "allstate",
  "libertymutual",
  "travelers",
  "nationwide",
  "usaa",
  "erie",
  "lemonade",
] as const);

export const COMMERCIAL_CARRIERS = fromCatalog([
  "thehartford",
  "nextinsurance",
  "hiscox",
  "travelers",
  "nationwide",
] as const);

export const FLOOD_CARRIER = fromCatalog(["nfip"] as const)[0];

export type Carrier = readonly [id: string, friendly: string];

const PREMIUM_RANGE: Record<string, [number, number]> = {
  AUTO: [900, 3200],
  MOTORCYCLE: [180, 900],
  BOAT: [250, 1200],
  HOMEOWNERS: [1100, 4500],
  CONDO: [400, 1200],
  RENTERS: [120, 400],
  LANDLORD: [900, 2600],
  FLOOD: [450, 2200],
  UMBRELLA: [180, 600],
  BUSINESS_OWNERS: [1500, 6000],
  WORKERS_COMPENSATION: [2500, 12000],
  GENERAL_LIABILITY: [800, 3500],
  COMMERCIAL_AUTO: [2200, 9000],
  TERM_LIFE: [300, 1500],
  WHOLE_LIFE: [2400, 7200],
  UNIVERSAL_LIFE: [1200, 4800],
};

const NAMES: Record<string, string> = {
  AUTO: "Personal Auto",
  MOTORCYCLE: "Motorcycle",
  BOAT: "Watercraft",
  HOMEOWNERS: "Homeowners (HO-3)",
  CONDO: "Condominium (HO-6)",
  RENTERS: "Renters (HO-4)",
  LANDLORD: "Dwelling Fire (DP-3)",
  FLOOD: "Standard Flood Insurance Policy",
  UMBRELLA: "Personal Umbrella",
  BUSINESS_OWNERS: "Businessowners Policy",
  WORKERS_COMPENSATION: "Workers Compensation and Employers Liability",
  GENERAL_LIABILITY: "Commercial General Liability",
  COMMERCIAL_AUTO: "Business Auto",
  TERM_LIFE: "20-Year Term Life",
  WHOLE_LIFE: "Whole Life",
  UNIVERSAL_LIFE: "Universal Life",
};

const calendarIso = (ms: number) => flat(new Date(ms).toISOString().slice(0, 10), "T00:00:00Z");

export type PolicyStatus =
  | "ACTIVE"
  | "CANCELLED"
  | "EXPIRED"
  | "UNVERIFIED"
  | "PENDING_ACTIVATION"
  | "PENDING_CANCELLATION"
  | "RESCINDED"
  | "QUOTE";

export type PolicyOptions = {
  /** Days until the term ends; the status stays ACTIVE. */
  expiresInDays?: number;
  state?: string;
  status?: PolicyStatus;
  /** The carrier shared only a summary: no premium detail, no payment history. */
  limitedAccess?: boolean;
};

/** A mostly-active mix, as in a real book. */
export function policyStatus(random: Random): PolicyStatus {
  const roll = random.next();
  if (roll < 0.86) return "ACTIVE";
  if (roll < 0.9) return "PENDING_CANCELLATION";
  if (roll < 0.93) return "CANCELLED";
  if (roll < 0.96) return "EXPIRED";
  if (roll < 0.98) return "PENDING_ACTIVATION";
  return random.pick(["UNVERIFIED", "RESCINDED", "QUOTE"] as const);
}

export function policy(
  random: Random,
  now: Date,
  type: string,
  carrier: Carrier,
  parts: Record<string, unknown>,
  options: PolicyOptions = {},
) {
  const [low, high] = PREMIUM_RANGE[type] ?? [500, 2000];
  const premium = random.int(low, high) * 100 + random.int(0, 99);
  const termMonths = (type === "AUTO" || type === "MOTORCYCLE") && random.chance(0.5) ? 6 : 12;
  const termMs = Math.round(termMonths * 30.4 * DAY_MS);
  const status: PolicyStatus = options.expiresInDays !== undefined ? "ACTIVE" : (options.status ?? "ACTIVE");
  const expiresIn =
    options.expiresInDays ??
    (status === "EXPIRED"
      ? -random.int(5, 200)
      : status === "PENDING_ACTIVATION" || status === "QUOTE"
        ? random.int(termMonths * 30 + 3, termMonths * 30 + 40)
        : random.int(20, termMonths * 30 - 5));
  const expiry = now.getTime() + expiresIn * DAY_MS;
  const effective = expiry - termMs;
  const frequency = random.pick(["MONTHLY", "MONTHLY", "QUARTERLY", "SEMIANNUALLY", "ANNUALLY", null] as const);
  const notStarted = status === "PENDING_ACTIVATION" || status === "QUOTE";
  const paid = notStarted ? 0 : frequency === "ANNUALLY" ? premium : Math.round(premium * random.next() * 0.8);
  const limited = options.limitedAccess ?? false;
  const canceled =
    status === "CANCELLED" || status === "RESCINDED"
      ? Math.min(now.getTime() - random.int(3, 60) * DAY_MS, expiry - DAY_MS)
      : null;
  const due = status === "PENDING_CANCELLATION" ? Math.max(premium - paid, random.int(80, 400) * 100) : premium - paid;
  return {
    policy_id: random.uuid(),
    name: random.chance(0.7) ? (NAMES[type] ?? null) : null,
    description: random.chance(0.2) ? `${carrier[1]} ${(NAMES[type] ?? type).toLowerCase()} policy` : null,
    carrier_policy_number: `${carrier[1]
      .replace(/[^A-Za-z]/g, "")
      .slice(0, 2)
      .toUpperCase()}-${random.digits(9)}`,
    policy_type: type,
    effective_date: calendarIso(effective),
    expiry_date: calendarIso(expiry),
    renewal_date: status === "ACTIVE" || status === "PENDING_CANCELLATION" ? calendarIso(expiry) : null,
    canceled_date: canceled === null ? null : calendarIso(canceled),
    total_premium_cents: premium,
    amount_paid_cents: limited ? null : paid,
    amount_due_cents: limited ? null : due,
    total_estimated_annual_premium_cents: null as number | null,
    total_minimum_premium_cents: null as number | null,
    total_deposit_premium_cents: null as number | null,
    paid_in_full: limited ? null : paid === premium,
    carrier_name: carrier[0],
    carrier_friendly_name: carrier[1],
    status,
    state: options.state ?? null,
    limited_access: limited,
    form_of_business: null as string | null,
    deductible_cents: null as number | null,
    is_monoline: false,
    is_telematics_enabled: type === "AUTO" ? random.chance(0.3) : null,
    payment_frequency: limited ? null : frequency,
    last_payment_date: limited || notStarted ? null : calendarIso(now.getTime() - random.int(3, 40) * DAY_MS),
    policy_check: null as Record<string, unknown> | null,
    dwellings: [] as unknown[],
    locations: [] as unknown[],
    vehicles: [] as unknown[],
    commercial_named_insureds: [] as unknown[],
    named_insureds: [] as unknown[],
    additional_interests: [] as unknown[],
    life: null as Record<string, unknown> | null,
    forms_and_endorsements: [] as unknown[],
    premium_groups: [] as unknown[],
    ...parts,
  };
}

export type Policy = ReturnType<typeof policy>;

/** Endorsement kinds, in the published examples' names, of the endorsements below. */
const ENDORSEMENT_TYPES: Record<string, string> = {
  "PP 03 06": "NAMED_NON_OWNER_COVERAGE",
  "PP 13 01": "PHYSICAL_DAMAGE_EXCLUSION",
  "HO 04 90": "PERSONAL_PROPERTY_REPLACEMENT_COST",
  "HO 04 95": "WATER_BACKUP_COVERAGE",
  "BP 04 17": "EMPLOYMENT_PRACTICES_EXCLUSION",
};

/**
 * Forms as printed on a declarations page, in the shape of the service's published examples
 * (policy_form_id, form_name, form_type…); available on plans that include them.
 */
export function formsFor(random: Random, type: string) {
  const forms: Record<string, Array<[string, string]>> = {
    AUTO: [
      ["PP 00 01", "Personal Auto Policy"],
      ["PP 03 06", "Named Non-Owner Coverage"],
      ["PP 13 01", "Coverage for Damage to Your Auto Exclusion"],
    ],
    HOMEOWNERS: [
      ["HO 00 03", "Homeowners 3 - Special Form"],
      ["HO 04 90", "Personal Property Replacement Cost Loss Settlement"],
      ["HO 04 95", "Water Back-up and Sump Discharge or Overflow"],
    ],
    BUSINESS_OWNERS: [
      ["BP 00 03", "Businessowners Coverage Form"],
      ["BP 04 17", "Employment-Related Practices Exclusion"],
    ],
  };
  const list = forms[type] ?? [];
  return list.slice(0, random.int(1, Math.max(1, list.length))).map(([form_number, form_name]) => {
    const endorsement_type = ENDORSEMENT_TYPES[form_number] ?? null;
    return {
      policy_form_id: random.uuid(),
      form_name,
      form_number,
      form_type: endorsement_type ? "ENDORSEMENT" : "FORM",
      endorsement_type,
      is_exclusion_endorsement: endorsement_type ? form_name.endsWith("Exclusion") : null,
      pdf_available: true,
      edition_date: `${random.int(2011, 2024)}-${String(random.int(1, 12)).padStart(2, "0")}-01`,
    };
  });
}

/**
 * A vehicle policy's premium is the sum of its vehicles' coverage premiums, as on a real
 * declarations page; what was paid keeps its share of the premium.
 */
export function repriceFromVehicles(p: Policy): void {
  let total = 0;
  for (const v of p.vehicles as Array<{ is_removed?: boolean; coverages?: Array<{ premium_cents: number | null }> }>) {
    if (!v.is_removed) for (const c of v.coverages ?? []) total += c.premium_cents ?? 0;
  }
  if (total === 0) return;
  const share =
    p.total_premium_cents > 0 && p.amount_paid_cents !== null ? p.amount_paid_cents / p.total_premium_cents : 0;
  p.total_premium_cents = total;
  if (p.amount_paid_cents === null || p.amount_due_cents === null) return;
  const paid = p.paid_in_full ? total : Math.min(total, Math.round(total * share));
  p.amount_paid_cents = paid;
  p.amount_due_cents = p.status === "PENDING_CANCELLATION" ? Math.max(total - paid, p.amount_due_cents) : total - paid;
}
