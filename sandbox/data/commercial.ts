import { premiumGroups, vehicle } from "./auto";
import { driver, type Driver } from "./drivers";
import { address, person, phoneNumber, type Address } from "./people";
import { formsFor, policy, type Carrier, type Policy } from "./policies";
import type { Random } from "./random";
import { isoDaysFrom } from "./random";

// A small business's book (spec 2.16, 2.17): a businessowners policy, general liability,
// workers' compensation and commercial auto, the named insureds with their class codes, the
// business's locations, and its commercial loss history.

const BUSINESSES = [
  {
    name: "Riverbend Bakery LLC",
    form: "LIMITED_LIABILITY_COMPANY",
    gl: "16901",
    sic: "5461",
    naics: "311811",
    web: "riverbendbakery.example.com",
  },
  {
    name: "Summit Roofing & Gutters Inc",
    form: "CORPORATION",
    gl: "98677",
    sic: "1761",
    naics: "238160",
    web: "summitroofing.example.com",
  },
  {
    name: "Bright Smile Dental PC",
    form: "S_CORPORATION",
    gl: "61216",
    sic: "8021",
    naics: "621210",
    web: "brightsmile.example.com",
  },
  { name: "Harbor Point Landscaping", form: "PARTNERSHIP", gl: "97047", sic: "0782", naics: "561730", web: null },
  {
    name: "Maple Street Books",
    form: "INDIVIDUAL",
    gl: "18435",
    sic: "5942",
    naics: "451211",
    web: "maplestreetbooks.example.com",
  },
  {
    name: "Hope Community Food Pantry",
    form: "NOT_FOR_PROFIT_ORGANIZATION",
    gl: "41667",
    sic: "8322",
    naics: "624210",
    web: "hopepantry.example.org",
  },
] as const;

const LOSS_TYPES = [
  "BURGLARY_AND_THEFT",
  "WATER_DAMAGE_AND_FREEZING_DAMAGE",
  "WIND_AND_HAIL_DAMAGE",
  "FIRE",
  "CUSTOMER_SLIPS_AND_FALLS",
  "CUSTOMER_INJURY_AND_DAMAGE",
  "PERSONAL_AND_ADVERTISING_INJURY",
  "EMPLOYEE_INJURY_OR_ILLNESS",
  "PRODUCT_LIABILITY",
  "STRUCK_BY_AN_OBJECT",
  "REPUTATIONAL_HARM",
  "VEHICULAR_ACCIDENT",
  "WINDSHIELD_DAMAGE",
  "STRIKE_RIOT_OR_CIVIL_COMMOTION",
  "EMERGENCY_ROADSIDE_ASSISTANCE",
  "VANDALISM_AND_MALICIOUS_MISCHIEF",
  "EQUIPMENT_BREAKDOWN",
] as const;

/** Which losses each commercial line pays for. */
const LOSSES_BY_LINE: Record<string, ReadonlyArray<(typeof LOSS_TYPES)[number]>> = {
  BUSINESS_OWNERS: [
    "BURGLARY_AND_THEFT",
    "WATER_DAMAGE_AND_FREEZING_DAMAGE",
    "WIND_AND_HAIL_DAMAGE",
    "FIRE",
    "VANDALISM_AND_MALICIOUS_MISCHIEF",
    "EQUIPMENT_BREAKDOWN",
    "STRIKE_RIOT_OR_CIVIL_COMMOTION",
  ],
  GENERAL_LIABILITY: [
    "CUSTOMER_SLIPS_AND_FALLS",
    "CUSTOMER_INJURY_AND_DAMAGE",
    "PERSONAL_AND_ADVERTISING_INJURY",
    "PRODUCT_LIABILITY",
    "REPUTATIONAL_HARM",
  ],
  WORKERS_COMPENSATION: ["EMPLOYEE_INJURY_OR_ILLNESS", "STRUCK_BY_AN_OBJECT"],
  COMMERCIAL_AUTO: ["VEHICULAR_ACCIDENT", "WINDSHIELD_DAMAGE", "EMERGENCY_ROADSIDE_ASSISTANCE"],
};

export type CommercialBook = {
  policies: Policy[];
  lossEvents: unknown[];
  addresses: Address[];
  drivers: Driver[];
  businessName: string;
};

function lossEvent(random: Random, now: Date, policyId: string, type: string, forceOpen = false) {
  const open = forceOpen || random.chance(0.3);
  const occurred = random.int(40, 1400);
  return {
    loss_event_id: random.uuid(),
    policy_id: policyId,
    date_of_occurrence: isoDaysFrom(now, -occurred),
    date_of_claim: random.chance(0.9) ? isoDaysFrom(now, -occurred + random.int(0, 20)) : null,
    type,
    amount_paid_cents: open ? random.int(0, 50) * 10000 : random.int(500, 90000) * 100,
    amount_reserved_cents: open ? random.int(20, 800) * 10000 : 0,
    is_subrogation: type === "VEHICULAR_ACCIDENT" || type === "PRODUCT_LIABILITY" ? random.chance(0.5) : null,
    is_claim_open: open,
  };
}

export function commercialBook(
  random: Random,
  now: Date,
  carrier: Carrier,
  mailing: Address,
  hostile: boolean,
): CommercialBook {
  const business = random.pick(BUSINESSES);
  const name = hostile ? `<img src=x onerror=alert(1)> "Bob's" Tavern & Grill` : business.name;
  const state = mailing.state;
  const sites = [
    address(random, "PHYSICAL", state),
    ...(random.chance(0.4) ? [address(random, "PHYSICAL", state)] : []),
  ];
  const locations = sites.map((site, i) => ({
    location_id: random.uuid(),
    address_id: site.address_id,
    address: site,
    description: i === 0 ? "Main premises" : random.pick(["Warehouse", "Second storefront", "Storage yard"]),
    is_primary: i === 0,
    building_limit_cents: random.chance(0.5) ? random.int(200, 2000) * 1_000_00 : null,
    business_personal_property_limit_cents: random.int(50, 400) * 1_000_00,
  }));
  const primary = locations[0];
  const employees = random.int(3, 60);
  const insured = (extra: Record<string, unknown> = {}) => ({
    commercial_named_insured_id: random.uuid(),
    address_id: mailing.address_id,
    location_id: primary?.location_id ?? null,
    name,
    gl_code: business.gl,
    sic_code: business.sic,
    naics_code: business.naics,
    fein: `${random.digits(2)}-${random.digits(7)}`,
    business_phone: phoneNumber(random),
    business_email: `office@${business.web ?? "business.example.com"}`,
    website_url: business.web ? `https://${business.web}` : null,
    form_of_business: business.form,
    is_primary_named_insured: true,
    number_of_employees: employees,
    minimum_premium_cents: null as number | null,
    total_estimated_annual_premium_cents: null as number | null,
    ...extra,
  });
  const shared = { form_of_business: business.form, locations };
  const bop = policy(
    random,
    now,
    "BUSINESS_OWNERS",
    carrier,
    {
      ...shared,
      commercial_named_insureds: [insured()],
      deductible_cents: random.pick([50_000, 100_000, 250_000]),
      forms_and_endorsements: formsFor(random, "BUSINESS_OWNERS"),
    },
    { state },
  );
  const gl = policy(
    random,
    now,
    "GENERAL_LIABILITY",
    carrier,
    { ...shared, commercial_named_insureds: [insured()], deductible_cents: random.chance(0.5) ? 0 : 50_000 },
    { state },
  );
  const wcEstimate = random.int(3000, 12000) * 100;
  const wcMinimum = random.pick([50_000, 75_000, 100_000]);
  const wc = policy(
    random,
    now,
    "WORKERS_COMPENSATION",
    carrier,
    {
      ...shared,
      commercial_named_insureds: [
        insured({ minimum_premium_cents: wcMinimum, total_estimated_annual_premium_cents: wcEstimate }),
      ],
      total_estimated_annual_premium_cents: wcEstimate,
      total_minimum_premium_cents: wcMinimum,
      total_deposit_premium_cents: Math.round(wcEstimate * 0.25),
    },
    { state },
  );

  // Employees who drive the business's vehicles: no relationship to the insured business.
  const drivers = Array.from({ length: random.int(1, 3) }, () =>
    driver(random, now, person(random, { now, minAge: 21, maxAge: 64 }), null),
  );
  const vehicles = Array.from({ length: random.int(1, 3) }, () =>
    vehicle(random, { now, state, drivers, excludedIds: new Set(), perMile: false, unlimitedPip: false, kind: "work" }),
  );
  const auto = policy(
    random,
    now,
    "COMMERCIAL_AUTO",
    carrier,
    { ...shared, commercial_named_insureds: [insured()], vehicles, premium_groups: premiumGroups(random, vehicles) },
    { state },
  );
  const policies = [bop, gl, wc, auto];

  const lossEvents = policies.flatMap((p) => {
    const types = LOSSES_BY_LINE[p.policy_type] ?? [];
    return random.chance(0.55)
      ? Array.from({ length: random.int(1, 2) }, () => lossEvent(random, now, p.policy_id, random.pick(types)))
      : [];
  });
  // A business with a loss history always shows at least one event.
  // …and one still open, with money reserved for it.
  if (!lossEvents.some((e) => e.is_claim_open))
    lossEvents.push(
      lossEvent(random, now, bop.policy_id, random.pick(LOSSES_BY_LINE.BUSINESS_OWNERS ?? LOSS_TYPES), true),
    );
  return { policies, lossEvents, addresses: sites, drivers, businessName: name };
}
