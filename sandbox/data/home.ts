import { address, type Address } from "./people";
import { propertyData, type Owner } from "./property";
import type { Random } from "./random";

// Homeowners, condo, renters, landlord and flood dwellings (spec 2.11, 2.12): coverages as
// carriers print them — some in cents, some as a percent of the dwelling limit (often both),
// some in months — deductibles in cents or percent, declined options, mortgagees (and the
// deprecated single-mortgagee fields older payloads still fill), and property data.
const BANKS = [
  "Rocket Mortgage",
  "Wells Fargo Home Mortgage",
  "Chase Home Lending",
  "U.S. Bank",
  "PennyMac",
  "Navy Federal Credit Union",
];

/** Dwelling coverage names of the spec, with their friendly names in the spec's order. */
const FRIENDLY: Record<string, string> = {
  DWELLING: "Dwelling",
  OTHER_STRUCTURES: "Other Structures",
  PERSONAL_PROPERTY: "Personal Property",
  LOSS_OF_USE: "Loss of Use",
  ADDITIONAL_LIVING_EXPENSE: "Additional Living Expense",
  PERSONAL_LIABILITY: "Personal Liability",
  MEDICAL_PAYMENTS: "Medical Payments",
  WINDSTORM_OR_HAIL: "Windstorm or Hail",
  HURRICANE: "Hurricane",
  NAMED_STORM: "Named Storm",
  WATER_BACKUP_AND_SUMP_OVERFLOW: "Water Backup and Sump Overflow",
  EARTHQUAKE: "Earthquake",
  JEWELRY: "Jewelry",
  ORDINANCE_OR_LAW: "Ordinance or Law",
  REPLACEMENT_COST_CONTENTS: "Replacement Cost - Contents",
  REPLACEMENT_COST_DWELLING: "Replacement Cost - Dwelling",
  IDENTITY_THEFT: "Identity Theft",
  SERVICE_LINE: "Service Line",
  FUNGI_BACTERIA_AND_MOLD: "Fungi, Bacteria, and Mold",
  ALL_OTHER_PERILS: "All Other Perils",
  EQUIPMENT_BREAKDOWN: "Equipment Breakdown",
  LOSS_ASSESSMENTS: "Loss Assessments",
  BUILDING: "Building",
  CONTENTS: "Contents",
  ICC: "Increased Cost of Compliance",
  PREMISES_LIABILITY: "Premises Liability",
  PET_DAMAGE: "Pet Damage",
  FAMILY_LIABILITY_PROTECTION: "Family Liability Protection",
  GUEST_MEDICAL_PROTECTION: "Guest Medical Protection",
  DAMAGE_TO_PROPERTY_OF_OTHERS: "Damage to Property of Others",
  TENANT_WATER_DAMAGE_LIABILITY: "Tenant Water Damage Liability",
  PORTABLE_ELECTRONICS: "Portable Electronics",
  FINE_ART: "Fine Art",
  FIRE_DEPARTMENT_SERVICE_CHARGE: "Fire Department Service Charge",
  BUILDING_CODES: "Building Codes",
};

type Values = {
  premium_cents?: number | null;
  per_person_limit_cents?: number | null;
  per_incident_limit_cents?: number | null;
  deductible_cents?: number | null;
  per_person_unlimited?: boolean | null;
  per_incident_unlimited?: boolean | null;
  per_incident_limit_percent?: string | null;
  deductible_percent?: string | null;
  per_incident_limit_months?: number | null;
  is_declined?: boolean;
};

function cov(random: Random, name: string, v: Values) {
  return {
    dwelling_coverage_id: random.uuid(),
    name,
    friendly_name: FRIENDLY[name] ?? name,
    premium_cents:
      v.premium_cents !== undefined
        ? v.premium_cents
        : v.is_declined
          ? null
          : random.chance(0.6)
            ? random.int(10, 900) * 100
            : null,
    per_person_limit_cents: v.per_person_limit_cents ?? null,
    per_incident_limit_cents: v.per_incident_limit_cents ?? null,
    deductible_cents: v.deductible_cents ?? null,
    per_person_unlimited: v.per_person_unlimited ?? null,
    per_incident_unlimited: v.per_incident_unlimited ?? null,
    per_incident_limit_percent: v.per_incident_limit_percent ?? null,
    deductible_percent: v.deductible_percent ?? null,
    per_incident_limit_months: v.per_incident_limit_months ?? null,
    is_declined: v.is_declined ?? false,
  };
}

/** A percent of the dwelling limit as the spec writes it: a decimal string with three decimals. */
const pct = (value: number) => value.toFixed(3);
const ofA = (coverageA: number, percent: number) => Math.round((coverageA * percent) / 100);

export type DwellingKind = "HOMEOWNERS" | "CONDO" | "RENTERS" | "LANDLORD" | "FLOOD";

function coveragesFor(random: Random, kind: DwellingKind, coverageA: number, state: string) {
  const deductible = random.pick([50_000, 100_000, 250_000, 500_000]);
  switch (kind) {
    case "RENTERS":
      return [
        cov(random, "PERSONAL_PROPERTY", {
          per_incident_limit_cents: random.int(15, 60) * 1_000_00,
          deductible_cents: random.pick([25_000, 50_000, 100_000]),
        }),
        cov(random, "PERSONAL_LIABILITY", { per_incident_limit_cents: random.pick([10_000_000, 30_000_000]) }),
        cov(random, "LOSS_OF_USE", { per_incident_limit_months: 12 }),
        cov(random, "MEDICAL_PAYMENTS", { per_person_limit_cents: 100_000 }),
        random.chance(0.5)
          ? cov(random, "PET_DAMAGE", { is_declined: true })
          : cov(random, "IDENTITY_THEFT", { per_incident_limit_cents: 2_500_000 }),
      ];
    case "FLOOD":
      return [
        cov(random, "BUILDING", {
          per_incident_limit_cents: Math.min(coverageA, 25_000_000),
          deductible_cents: random.pick([100_000, 125_000, 200_000]),
        }),
        random.chance(0.8)
          ? cov(random, "CONTENTS", {
              per_incident_limit_cents: random.pick([5_000_000, 10_000_000]),
              deductible_cents: 125_000,
            })
          : cov(random, "CONTENTS", { is_declined: true }),
        cov(random, "ICC", { per_incident_limit_cents: 3_000_000 }),
      ];
    case "CONDO":
      return [
        cov(random, "DWELLING", {
          per_incident_limit_cents: random.int(20, 80) * 1_000_00,
          deductible_cents: deductible,
        }),
        cov(random, "PERSONAL_PROPERTY", {
          per_incident_limit_cents: random.int(30, 90) * 1_000_00,
          deductible_cents: deductible,
        }),
        cov(random, "LOSS_ASSESSMENTS", { per_incident_limit_cents: random.pick([100_000, 500_000, 2_500_000]) }),
        cov(random, "LOSS_OF_USE", { per_incident_limit_months: 24 }),
        cov(random, "PERSONAL_LIABILITY", { per_incident_limit_cents: 30_000_000 }),
        cov(random, "MEDICAL_PAYMENTS", { per_person_limit_cents: 500_000 }),
        cov(
          random,
          "WATER_BACKUP_AND_SUMP_OVERFLOW",
          random.chance(0.5) ? { per_incident_limit_cents: 1_000_000 } : { is_declined: true },
        ),
      ];
    case "LANDLORD":
      return [
        cov(random, "DWELLING", { per_incident_limit_cents: coverageA, deductible_cents: deductible }),
        cov(random, "OTHER_STRUCTURES", {
          per_incident_limit_percent: pct(10),
          per_incident_limit_cents: ofA(coverageA, 10),
        }),
        cov(random, "LOSS_OF_USE", { per_incident_limit_percent: pct(20), per_incident_limit_months: 12 }),
        cov(random, "PREMISES_LIABILITY", { per_incident_limit_cents: random.pick([30_000_000, 50_000_000]) }),
        cov(random, "PERSONAL_PROPERTY", { per_incident_limit_cents: 1_000_000, deductible_cents: deductible }),
        cov(random, "TENANT_WATER_DAMAGE_LIABILITY", { is_declined: true }),
      ];
    case "HOMEOWNERS": {
      const contents = random.pick([50, 50, 70, 75]);
      const list = [
        cov(random, "DWELLING", { per_incident_limit_cents: coverageA, deductible_cents: deductible }),
        cov(random, "OTHER_STRUCTURES", {
          per_incident_limit_percent: pct(10),
          per_incident_limit_cents: random.chance(0.5) ? ofA(coverageA, 10) : null,
        }),
        cov(random, "PERSONAL_PROPERTY", {
          per_incident_limit_percent: pct(contents),
          per_incident_limit_cents: ofA(coverageA, contents),
        }),
        random.chance(0.5)
          ? cov(random, "LOSS_OF_USE", { per_incident_limit_percent: pct(20) })
          : cov(random, "ADDITIONAL_LIVING_EXPENSE", { per_incident_limit_months: random.pick([12, 24]) }),
        cov(random, "PERSONAL_LIABILITY", {
          per_incident_limit_cents: random.pick([30_000_000, 50_000_000, 100_000_000]),
        }),
        cov(random, "MEDICAL_PAYMENTS", { per_person_limit_cents: random.pick([100_000, 500_000]) }),
        cov(random, "ALL_OTHER_PERILS", { deductible_cents: deductible }),
      ];
      // Wind deductibles are a percent of the dwelling limit where storms are the risk.
      if (state === "FL") list.push(cov(random, "HURRICANE", { deductible_percent: pct(random.pick([2, 5, 10])) }));
      // Hail country writes the wind deductible as a percent; elsewhere it is often a flat amount.
      const hail = state === "TX" || state === "CO" || state === "FL" || state === "NC" || random.chance(0.4);
      list.push(
        cov(
          random,
          "WINDSTORM_OR_HAIL",
          hail ? { deductible_percent: pct(random.pick([1, 2, 5])) } : { deductible_cents: deductible },
        ),
      );
      list.push(
        cov(
          random,
          "WATER_BACKUP_AND_SUMP_OVERFLOW",
          random.chance(0.5)
            ? { per_incident_limit_cents: random.pick([500_000, 1_000_000, 2_500_000]) }
            : { is_declined: true },
        ),
      );
      list.push(cov(random, "EARTHQUAKE", { is_declined: true }));
      if (random.chance(0.4))
        list.push(cov(random, "ORDINANCE_OR_LAW", { per_incident_limit_percent: pct(random.pick([10, 25])) }));
      if (random.chance(0.5)) list.push(cov(random, "REPLACEMENT_COST_CONTENTS", {}));
      if (random.chance(0.3))
        list.push(
          cov(random, "JEWELRY", { per_incident_limit_cents: random.int(2, 30) * 1_000_00, deductible_cents: 0 }),
        );
      if (random.chance(0.3))
        list.push(cov(random, "SERVICE_LINE", { per_incident_limit_cents: 1_000_000, deductible_cents: 50_000 }));
      if (random.chance(0.3))
        list.push(
          cov(random, "FUNGI_BACTERIA_AND_MOLD", {
            per_incident_limit_cents: 500_000,
            per_person_unlimited: false,
            per_incident_unlimited: false,
          }),
        );
      if (random.chance(0.2))
        list.push(cov(random, "FIRE_DEPARTMENT_SERVICE_CHARGE", { per_incident_unlimited: true }));
      return list;
    }
  }
}

function mortgagee(random: Random, lender: string) {
  return {
    mortgagee_id: random.uuid(),
    name: lender,
    loan_number: random.chance(0.9) ? random.digits(10) : null,
    address: address(random, "MORTGAGEE"),
  };
}

export type DwellingOptions = {
  kind: DwellingKind;
  where: Address;
  owners: Owner[];
  now: Date;
  legacyMortgagee: boolean;
  secondMortgage: boolean;
};

export function dwelling(random: Random, o: DwellingOptions) {
  const dwellingId = random.uuid();
  const coverageA = random.int(180, 950) * 1_000_00;
  const owned = o.kind === "HOMEOWNERS" || o.kind === "LANDLORD" || o.kind === "FLOOD";
  const extended = o.kind === "HOMEOWNERS" ? random.pick([0, 20, 25, 50, null]) : null;
  const derived = owned && random.chance(0.6);
  const replacement = owned
    ? derived
      ? coverageA
      : Math.round((coverageA * random.int(95, 120)) / 100 / 100) * 100
    : null;
  const mortgagees =
    owned && o.kind !== "FLOOD" && (o.legacyMortgagee || random.chance(0.8))
      ? [mortgagee(random, random.pick(BANKS))]
      : [];
  if (mortgagees.length > 0 && o.secondMortgage)
    mortgagees.push(mortgagee(random, random.pick(BANKS.filter((b) => b !== mortgagees[0]?.name))));
  // Older payloads fill the deprecated fields, and only with the first mortgagee.
  const first = mortgagees[0];
  const propertyKind =
    o.kind === "CONDO" ? "condo" : o.kind === "LANDLORD" && random.chance(0.5) ? "multi_unit" : "single_family";
  return {
    dwelling_id: dwellingId,
    address: o.where,
    coverages: coveragesFor(random, o.kind, coverageA, o.where.state),
    mortgagees: o.legacyMortgagee && random.chance(0.5) ? [] : mortgagees,
    mortgagee_name: o.legacyMortgagee ? (first?.name ?? null) : null,
    mortgagee_address: o.legacyMortgagee ? (first?.address ?? null) : null,
    mortgage_loan_number: o.legacyMortgagee ? (first?.loan_number ?? null) : null,
    replacement_cost_cents: replacement,
    cash_value_cents: owned && random.chance(0.7) ? Math.round(coverageA * 0.78) : null,
    property_data:
      o.kind === "RENTERS" || random.chance(0.1)
        ? null
        : propertyData(random, o.now, dwellingId, propertyKind, o.owners, first?.name, mortgagees[1]?.name),
    loss_settlement_type:
      o.kind === "RENTERS" && random.chance(0.5)
        ? "ACTUAL_CASH_VALUE"
        : owned || o.kind === "CONDO"
          ? "REPLACEMENT_COST"
          : random.pick(["REPLACEMENT_COST", "ACTUAL_CASH_VALUE", null]),
    extended_replacement_cost_percent: extended,
    total_replacement_cost_cents:
      replacement !== null && extended !== null ? Math.round(replacement * (1 + extended / 100)) : replacement,
    is_replacement_cost_cents_derived: derived,
  };
}

export type Dwelling = ReturnType<typeof dwelling>;
