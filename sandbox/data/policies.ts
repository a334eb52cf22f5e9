import type { Random } from "./random";
import { DAY_MS } from "./random";

// One policy of any line; the line-specific parts (vehicles, dwellings…) are passed in.
export const CARRIERS = [
  ["progressive", "Progressive"],
  ["state_farm", "State Farm"],
  ["geico", "GEICO"],
  ["allstate", "Allstate"],
  ["liberty_mutual", "Liberty Mutual"],
  ["travelers", "Travelers"],
  ["nationwide", "Nationwide"],
  ["usaa", "USAA"],
] as const;

export type Carrier = (typeof CARRIERS)[number];

const PREMIUM_RANGE: Record<string, [number, number]> = {
  AUTO: [900, 3200],
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
};

function calendarIso(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 10)}T00:00:00Z`;
}

export function policy(
  random: Random,
  now: Date,
  type: string,
  carrier: Carrier,
  parts: Record<string, unknown>,
  options: { expiresInDays?: number; state?: string } = {},
) {
  const [low, high] = PREMIUM_RANGE[type] ?? [500, 2000];
  const premium = random.int(low, high) * 100 + random.int(0, 99);
  const termMonths = type === "AUTO" && random.chance(0.5) ? 6 : 12;
  const expiresIn = options.expiresInDays ?? random.int(20, termMonths * 30 - 5);
  const expiry = now.getTime() + expiresIn * DAY_MS;
  const effective = expiry - termMonths * 30.4 * DAY_MS;
  const frequency = random.pick(["MONTHLY", "SEMIANNUALLY", "ANNUALLY"] as const);
  const paid = frequency === "ANNUALLY" ? premium : Math.round(premium * random.next() * 0.8);
  return {
    policy_id: random.uuid(),
    name: null,
    description: null,
    carrier_policy_number: `${carrier[1].slice(0, 2).toUpperCase()}-${random.digits(9)}`,
    policy_type: type,
    effective_date: calendarIso(effective),
    expiry_date: calendarIso(expiry),
    renewal_date: calendarIso(expiry),
    canceled_date: null,
    total_premium_cents: premium,
    amount_paid_cents: paid,
    amount_due_cents: premium - paid,
    total_estimated_annual_premium_cents: null,
    total_minimum_premium_cents: null,
    total_deposit_premium_cents: null,
    paid_in_full: paid === premium,
    carrier_name: carrier[0],
    carrier_friendly_name: carrier[1],
    status: "ACTIVE",
    state: options.state ?? null,
    limited_access: false,
    form_of_business: null,
    deductible_cents: null,
    is_monoline: false,
    is_telematics_enabled: type === "AUTO" ? random.chance(0.3) : null,
    payment_frequency: frequency,
    last_payment_date: calendarIso(now.getTime() - random.int(3, 40) * DAY_MS),
    policy_check: null,
    dwellings: [],
    locations: [],
    vehicles: [],
    commercial_named_insureds: [],
    named_insureds: [],
    additional_interests: [],
    life: null,
    forms_and_endorsements: [],
    premium_groups: [],
    ...parts,
  };
}
