import { boat, premiumGroups, removed, vehicle, vehicleDrivers, type Vehicle } from "./auto";
import { commercialBook } from "./commercial";
import { driver, householdMembers, type Driver } from "./drivers";
import { dwelling, type Dwelling, type DwellingKind } from "./home";
import { address, person, type Address, type Person } from "./people";
import {
  FLOOD_CARRIER,
  formsFor,
  policy,
  policyStatus,
  type Carrier,
  type Policy,
  type PolicyStatus,
} from "./policies";
import type { Random } from "./random";
import type { PullType } from "./types";

// The lines of business of one account: which policies it holds, the household driving its
// vehicles, the dwellings and their owners, a small business's book, a life policy, and
// every address those records name.

export type Line =
  | "auto"
  | "home+auto"
  | "home"
  | "renters+auto"
  | "condo+umbrella"
  | "flood"
  | "landlord"
  | "commercial"
  | "life+auto"
  | "home+auto+umbrella"
  | "none";

/** Variations of one seeded pull; a link made through the sandbox's flow uses the defaults. */
export type PullVariant = {
  hostile?: boolean;
  perMile?: boolean;
  /** Days until the auto policy (or, for the flood line, the flood policy) expires. */
  expiresInDays?: number;
  carrier?: Carrier;
  skippedProductTypes?: string[] | null;
  withFileUpload?: boolean;
  withFunnel?: boolean;
  /** How the pull was produced; PULLING_DATA by default. Other types carry less (see types.ts). */
  type?: PullType;
  /** A young household driver excluded on every vehicle. */
  excludedDriver?: boolean;
  /** PIP with no limit, as in Michigan. */
  unlimitedPip?: boolean;
  /** A home equity loan: a second mortgagee on owned dwellings. */
  secondMortgage?: boolean;
  /** Dwellings fill the deprecated single-mortgagee fields. */
  legacyMortgagee?: boolean;
  /** At least one claim and one driving record. */
  withHistory?: boolean;
  /** Policies other than the first may be cancelled, expired, pending… */
  mixedStatuses?: boolean;
  /** Statuses by policy type, for the policies that must not be ACTIVE. */
  statuses?: Partial<Record<string, PolicyStatus>>;
  /** TERM_LIFE unless said otherwise. */
  lifeType?: "TERM_LIFE" | "WHOLE_LIFE" | "UNIVERSAL_LIFE";
};

export type Parts = {
  policies: Policy[];
  drivers: Driver[];
  addresses: Address[];
  lossEvents: unknown[];
};

function namedInsured(random: Random, who: Person, primary: boolean) {
  const full = [who.first, who.middle, who.last].filter(Boolean).join(" ");
  return {
    named_insured_id: random.uuid(),
    first_name: who.first,
    middle_name: who.middle,
    last_name: who.last,
    full_name: full,
    email: primary ? who.email : null,
    home_phone: null,
    mobile_phone: who.phone,
    work_phone: null,
    work_phone_extension: null,
    is_primary_named_insured: primary,
  };
}

/** Lien holders and mortgagees also appear as the policy's additional interests. */
function interests(random: Random, vehicles: Vehicle[], dwellings: Dwelling[]) {
  const list: Array<Record<string, unknown>> = [];
  for (const v of vehicles) {
    if (v.lien_holder)
      list.push({
        additional_interest_id: random.uuid(),
        type: v.ownership_type === "LEASE" ? "LESSOR" : "LIENHOLDER",
        name: v.lien_holder,
        vehicle_id: v.vehicle_id,
        address_id: v.lien_holder_address?.address_id ?? null,
        loan_number: random.chance(0.5) ? random.digits(9) : null,
      });
  }
  for (const d of dwellings) {
    for (const m of d.mortgagees)
      list.push({
        additional_interest_id: random.uuid(),
        type: "MORTGAGEE",
        name: m.name,
        dwelling_id: d.dwelling_id,
        address_id: m.address.address_id,
        loan_number: m.loan_number,
      });
  }
  return list;
}

/** The account's lines of business: policies, the drivers on them, every address they name. */
export function buildParts(
  random: Random,
  now: Date,
  line: Line,
  variant: PullVariant,
  holder: Person,
  home: Address,
  carrier: Carrier,
): Parts {
  const parts: Parts = { policies: [], drivers: [], addresses: [home], lossEvents: [] };
  if (line === "none") return parts;
  const state = home.state;
  const hostile = variant.hostile ?? false;
  const members = householdMembers(random, now, holder, variant.excludedDriver ?? false);
  const spouse = members.find((m) => m.relationship === "SPOUSE" || m.relationship === "DOMESTIC_PARTNERSHIP");
  const owners = [
    { first: holder.first, last: holder.last },
    ...(spouse ? [{ first: spouse.who.first, last: spouse.who.last }] : []),
  ];
  // A rental is often held with relatives: public records then list up to four owners.
  const coOwners = [
    ...owners,
    ...Array.from({ length: 3 }, () => ({
      first: person(random).first,
      last: random.chance(0.5) ? holder.last : person(random).last,
    })),
  ].slice(0, 4);
  const named = () => [
    namedInsured(random, holder, true),
    ...(spouse && random.chance(0.7) ? [namedInsured(random, spouse.who, false)] : []),
  ];
  const status = (type: string, first: boolean): PolicyStatus =>
    variant.statuses?.[type] ?? (variant.mixedStatuses && !first ? policyStatus(random) : "ACTIVE");
  const garage = { ...home, address_id: random.uuid(), address_nature: "PHYSICAL" };
  const add = (p: Policy) => parts.policies.push(p);

  if (line.includes("auto")) {
    const holderDriver = driver(random, now, holder, "INSURED", state);
    if (spouse) holderDriver.marital_status = spouse.relationship === "SPOUSE" ? "MARRIED" : "CIVIL_UNION";
    const drivers = [holderDriver, ...members.map((m) => driver(random, now, m.who, m.relationship, state))];
    // The youngest household driver is the excluded one, as carriers usually exclude teens.
    const excluded = variant.excludedDriver
      ? new Set(
          drivers
            .slice(1)
            .filter((d) => (d.age ?? 99) < 22)
            .slice(0, 1)
            .map((d) => d.driver_id),
        )
      : new Set<string>();
    parts.drivers.push(...drivers);
    const count = random.int(1, Math.min(4, drivers.length + 1));
    const listed = vehicleDrivers(drivers, excluded);
    let vehicles = Array.from({ length: count }, () =>
      vehicle(random, {
        now,
        state,
        drivers,
        excludedIds: excluded,
        vehicleDrivers: listed,
        perMile: variant.perMile ?? false,
        unlimitedPip: variant.unlimitedPip ?? false,
        kind: "car",
        garage,
      }),
    );
    if (vehicles.length > 1 && random.chance(0.1))
      vehicles = [...vehicles.slice(0, -1), removed(vehicles[vehicles.length - 1] as Vehicle)];
    const groups = random.chance(0.5) ? premiumGroups(random, vehicles) : [];
    add(
      policy(
        random,
        now,
        "AUTO",
        carrier,
        {
          vehicles,
          named_insureds: named(),
          additional_interests: interests(random, vehicles, []),
          premium_groups: groups,
          forms_and_endorsements: random.chance(0.3) ? formsFor(random, "AUTO") : [],
        },
        { state, expiresInDays: line === "flood" ? undefined : variant.expiresInDays, status: status("AUTO", true) },
      ),
    );
    if (random.chance(0.12)) {
      const bike = vehicle(random, {
        now,
        state,
        drivers: drivers.slice(0, 1),
        excludedIds: new Set(),
        perMile: false,
        unlimitedPip: false,
        kind: "motorcycle",
        garage,
      });
      add(
        policy(
          random,
          now,
          "MOTORCYCLE",
          carrier,
          { vehicles: [bike], named_insureds: named() },
          { state, status: status("MOTORCYCLE", false) },
        ),
      );
    }
  }

  const homePolicy = (
    kind: DwellingKind,
    where: Address,
    policyCarrier: Carrier,
    expiresInDays?: number,
    first = false,
  ) => {
    const d = dwelling(random, {
      kind,
      where,
      owners: kind === "LANDLORD" ? coOwners : owners,
      now,
      legacyMortgagee: variant.legacyMortgagee ?? random.chance(0.2),
      secondMortgage: variant.secondMortgage ?? random.chance(0.15),
    });
    parts.addresses.push(
      where,
      ...d.mortgagees.map((m) => m.address),
      ...(d.mortgagee_address ? [d.mortgagee_address] : []),
    );
    add(
      policy(
        random,
        now,
        kind,
        policyCarrier,
        {
          dwellings: [d],
          named_insureds: named(),
          additional_interests: interests(random, [], [d]),
          forms_and_endorsements: kind === "HOMEOWNERS" && random.chance(0.3) ? formsFor(random, "HOMEOWNERS") : [],
        },
        { state: where.state, expiresInDays, status: expiresInDays === undefined ? status(kind, first) : "ACTIVE" },
      ),
    );
  };
  const physical = () => ({ ...home, address_id: random.uuid(), address_nature: "PHYSICAL" });

  if (line.startsWith("home")) homePolicy("HOMEOWNERS", physical(), carrier, undefined, !line.includes("auto"));
  if (line.startsWith("renters")) homePolicy("RENTERS", physical(), carrier);
  if (line.startsWith("condo")) homePolicy("CONDO", physical(), carrier, undefined, true);
  if (line === "flood") {
    const where = physical();
    homePolicy("HOMEOWNERS", where, carrier, undefined, true);
    homePolicy("FLOOD", { ...where, address_id: random.uuid() }, FLOOD_CARRIER, variant.expiresInDays ?? 15);
  }
  if (line === "landlord") homePolicy("LANDLORD", address(random, "PHYSICAL", state), carrier, undefined, true);
  if (line.includes("umbrella")) {
    const limit = random.pick([1, 1, 2, 5]);
    add(
      policy(
        random,
        now,
        "UMBRELLA",
        carrier,
        { description: `Personal umbrella, $${limit},000,000 each occurrence`, named_insureds: named() },
        { state, status: status("UMBRELLA", false) },
      ),
    );
    if (line.startsWith("condo") && random.chance(0.5)) {
      // The boat's operators are drivers of the account too.
      if (parts.drivers.length === 0) parts.drivers.push(driver(random, now, holder, "INSURED", state));
      const drivers = parts.drivers;
      add(
        policy(
          random,
          now,
          "BOAT",
          carrier,
          { vehicles: [boat(random, now, state, drivers)], named_insureds: named() },
          { state },
        ),
      );
    }
  }
  if (line === "commercial") {
    const book = commercialBook(random, now, carrier, home, hostile);
    parts.policies.push(...book.policies);
    parts.lossEvents = book.lossEvents;
    parts.addresses.push(...book.addresses);
    parts.drivers.push(...book.drivers);
  }
  if (line === "life+auto") {
    const lifeType = variant.lifeType ?? "TERM_LIFE";
    const face = random.int(10, 200) * 10_000_00;
    const beneficiary = spouse ? `${spouse.who.first} ${spouse.who.last}` : `${person(random).first} ${holder.last}`;
    add(
      policy(
        random,
        now,
        lifeType,
        carrier,
        {
          life: {
            face_amount_cents: face,
            cash_value_cents: lifeType === "TERM_LIFE" ? null : Math.round((face * random.int(2, 30)) / 100),
            term_length_years: lifeType === "TERM_LIFE" ? random.pick([10, 20, 30]) : null,
            insured_name: `${holder.first} ${holder.last}`,
            beneficiaries: [{ name: beneficiary, relationship: spouse ? "SPOUSE" : "RELATIVE", percentage: 100 }],
          },
          named_insureds: [namedInsured(random, holder, true)],
        },
        { state },
      ),
    );
  }
  for (const p of parts.policies) {
    for (const v of p.vehicles as Vehicle[]) {
      parts.addresses.push(
        ...(v.garaging_address ? [v.garaging_address] : []),
        ...(v.lien_holder_address ? [v.lien_holder_address] : []),
      );
    }
  }
  return parts;
}
