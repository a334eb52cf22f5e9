import { address, type Address } from "./people";
import type { Random } from "./random";
import { isoDaysFrom } from "./random";

// Homeowners, condo, renters, landlord and flood: dwellings with coverages in cents and in
// percent, mortgagees, replacement cost and full property data.
const BANKS = ["Rocket Mortgage", "Wells Fargo Home Mortgage", "Chase Home Lending", "U.S. Bank"];

function dwellingCoverage(random: Random, name: string, friendly: string, values: Record<string, unknown>) {
  return {
    dwelling_coverage_id: random.uuid(),
    name,
    friendly_name: friendly,
    premium_cents: null,
    per_person_limit_cents: null,
    per_incident_limit_cents: null,
    deductible_cents: null,
    per_person_unlimited: null,
    per_incident_unlimited: null,
    per_incident_limit_percent: null,
    deductible_percent: null,
    per_incident_limit_months: null,
    is_declined: false,
    ...values,
  };
}

function propertyData(random: Random, dwellingId: string, holderLast: string, now: Date) {
  const yearBuilt = random.int(1955, 2022);
  const land = random.int(60, 250) * 1_000_00;
  const improvement = random.int(180, 700) * 1_000_00;
  return {
    property_data_id: random.uuid(),
    dwelling_id: dwellingId,
    apn: `${random.digits(3)}-${random.digits(3)}-${random.digits(3)}`,
    year_built: yearBuilt,
    square_ft: random.int(900, 4200),
    num_beds: random.int(2, 5),
    num_baths_full: random.int(1, 3),
    num_baths_partial: random.int(0, 2),
    num_stories: random.int(1, 2),
    num_units: 1,
    num_fireplaces: random.int(0, 2),
    garage_square_ft: random.int(0, 600),
    num_parking_spaces: random.int(1, 3),
    has_fireplace: random.chance(0.5),
    has_pool: random.chance(0.2),
    assessed_improvement_value_cents: improvement,
    assessed_land_value_cents: land,
    assessed_total_value_cents: improvement + land,
    market_improvement_value_cents: Math.round(improvement * 1.2),
    market_land_value_cents: Math.round(land * 1.2),
    market_total_value_cents: Math.round((improvement + land) * 1.2),
    first_mortgage_amount_cents: Math.round((improvement + land) * 0.7),
    second_mortgage_amount_cents: null,
    purchase_price_cents: Math.round((improvement + land) * 0.9),
    owner1_first_name: null,
    owner1_last_name: holderLast,
    owner2_first_name: null,
    owner2_last_name: null,
    owner3_first_name: null,
    owner3_last_name: null,
    owner4_first_name: null,
    owner4_last_name: null,
    first_mortgage_lender: random.pick(BANKS),
    second_mortgage_lender: null,
    purchase_date: isoDaysFrom(now, -random.int(700, 7000)).slice(0, 10),
    last_update_date: isoDaysFrom(now, -random.int(10, 300)).slice(0, 10),
    class: "SINGLE_FAMILY_RESIDENCE_TOWNHOUSE",
    sub_type: "RESIDENTIAL",
    construction_type: random.pick(["FRAME", "MASONRY", "BRICK", "WOOD_FRAME"]),
    wall_type: random.pick(["VINYL", "BRICK_VENEER", "STUCCO", "WOOD_SIDING"]),
    foundation_type: random.pick(["SLAB", "CONCRETE", "RAISED_CRAWLSPACE"]),
    frame_type: "WOOD",
    roof_cover: random.pick(["COMPOSITION_SHINGLE", "ASPHALT", "CLAY_TILE", "METAL"]),
    roof_shape: random.pick(["GABLE", "HIP", "GABLE_HIP"]),
    cooling_type: random.pick(["AC_CENTRAL", "AC_HEAT_PUMP"]),
    heating_type: random.pick(["FORCED_AIR", "HEAT_PUMP", "CENTRAL"]),
    heating_fuel: random.pick(["GAS", "ELECTRIC"]),
    energy_type: "STANDARD",
    sewer_type: random.pick(["MUNICIPAL", "SEPTIC"]),
    building_shape: random.pick(["RECTANGLE", "L_SHAPED"]),
    construction_quality: random.pick(["AVERAGE", "GOOD", "VERY_GOOD"]),
    fireplace_type: null,
    pool_type: null,
    garage_type: random.pick(["ATTACHED_2_CAR", "DETACHED_1_CAR", "NO_GARAGE"]),
  };
}

export type DwellingKind = "HOMEOWNERS" | "CONDO" | "RENTERS" | "LANDLORD" | "FLOOD";

export function dwelling(random: Random, kind: DwellingKind, where: Address, holderLast: string, now: Date, legacyMortgagee: boolean) {
  const dwellingId = random.uuid();
  const coverageA = random.int(220, 850) * 1_000_00;
  const owned = kind === "HOMEOWNERS" || kind === "LANDLORD" || kind === "FLOOD";
  const extended = owned ? random.pick([0, 20, 25, 50]) : null;
  const coverages =
    kind === "RENTERS"
      ? [
          dwellingCoverage(random, "PERSONAL_PROPERTY", "Personal Property", { per_incident_limit_cents: random.int(20, 60) * 1_000_00, deductible_cents: 50_000 }),
          dwellingCoverage(random, "PERSONAL_LIABILITY", "Personal Liability", { per_incident_limit_cents: 30_000_000 }),
          dwellingCoverage(random, "LOSS_OF_USE", "Loss of Use", { per_incident_limit_months: 12 }),
        ]
      : kind === "FLOOD"
        ? [
            dwellingCoverage(random, "BUILDING", "Building", { per_incident_limit_cents: Math.min(coverageA, 25_000_000), deductible_cents: 125_000 }),
            dwellingCoverage(random, "CONTENTS", "Contents", { per_incident_limit_cents: 10_000_000, deductible_cents: 125_000 }),
            dwellingCoverage(random, "ICC", "Increased Cost of Compliance", { per_incident_limit_cents: 3_000_000 }),
          ]
        : [
            dwellingCoverage(random, "DWELLING", "Dwelling", { per_incident_limit_cents: coverageA, deductible_cents: random.pick([100_000, 250_000]) }),
            dwellingCoverage(random, "OTHER_STRUCTURES", "Other Structures", { per_incident_limit_percent: "10.000" }),
            dwellingCoverage(random, "PERSONAL_PROPERTY", "Personal Property", { per_incident_limit_percent: "50.000" }),
            dwellingCoverage(random, "LOSS_OF_USE", "Loss of Use", { per_incident_limit_percent: "20.000", per_incident_limit_months: 24 }),
            dwellingCoverage(random, "PERSONAL_LIABILITY", "Personal Liability", { per_incident_limit_cents: random.pick([30_000_000, 50_000_000]) }),
            dwellingCoverage(random, "MEDICAL_PAYMENTS", "Medical Payments", { per_person_limit_cents: 500_000 }),
            dwellingCoverage(random, "WINDSTORM_OR_HAIL", "Windstorm or Hail", { deductible_percent: "2.000" }),
            dwellingCoverage(random, "WATER_BACKUP_AND_SUMP_OVERFLOW", "Water Backup and Sump Overflow", { is_declined: random.chance(0.5) }),
          ];
  const mortgageeName = owned && kind !== "LANDLORD" ? random.pick(BANKS) : null;
  const mortgageeAddress = mortgageeName ? address(random, "MORTGAGEE") : null;
  const loanNumber = mortgageeName ? random.digits(10) : null;
  return {
    dwelling_id: dwellingId,
    address: where,
    coverages,
    mortgagees:
      mortgageeName && !legacyMortgagee
        ? [{ mortgagee_id: random.uuid(), name: mortgageeName, loan_number: loanNumber, address: mortgageeAddress }]
        : [],
    mortgagee_name: legacyMortgagee ? mortgageeName : null,
    mortgagee_address: legacyMortgagee ? mortgageeAddress : null,
    mortgage_loan_number: legacyMortgagee ? loanNumber : null,
    replacement_cost_cents: owned ? coverageA : null,
    cash_value_cents: owned ? Math.round(coverageA * 0.8) : null,
    property_data: kind === "RENTERS" || kind === "CONDO" ? null : propertyData(random, dwellingId, holderLast, now),
    loss_settlement_type: owned ? "REPLACEMENT_COST" : "ACTUAL_CASH_VALUE",
    extended_replacement_cost_percent: extended,
    total_replacement_cost_cents: owned && extended !== null ? Math.round(coverageA * (1 + extended / 100)) : null,
    is_replacement_cost_cents_derived: owned,
  };
}
