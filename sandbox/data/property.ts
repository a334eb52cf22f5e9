import type { Random } from "./random";
import { isoDaysFrom } from "./random";

// Public-record property data (spec 2.13), for dwellings and for the property enrichment.
// Every enum value below is copied from the spec's lists; each building style is a coherent
// combination (a brick colonial does not get a stucco wall and a flat roof).

export type PropertyKind = "single_family" | "condo" | "multi_unit";
export type Owner = { first: string | null; last: string };

const LENDERS = [
  "Rocket Mortgage",
  "Wells Fargo Home Mortgage",
  "Chase Home Lending",
  "U.S. Bank",
  "PennyMac",
  "Navy Federal Credit Union",
];

const STYLES = [
  {
    construction_type: "FRAME",
    wall_type: "VINYL",
    frame_type: "WOOD",
    foundation_type: "SLAB",
    roof_cover: "COMPOSITION_SHINGLE",
    roof_shape: "GABLE",
  },
  {
    construction_type: "WOOD_FRAME",
    wall_type: "WOOD_SIDING",
    frame_type: "WOOD",
    foundation_type: "RAISED_CRAWLSPACE",
    roof_cover: "WOOD_SHAKE_SHINGLE",
    roof_shape: "GABLE_HIP",
  },
  {
    construction_type: "BRICK",
    wall_type: "BRICK_VENEER",
    frame_type: "WOOD",
    foundation_type: "CONCRETE",
    roof_cover: "ASPHALT",
    roof_shape: "HIP",
  },
  {
    construction_type: "MASONRY",
    wall_type: "STUCCO",
    frame_type: "MASONRY",
    foundation_type: "SLAB",
    roof_cover: "CLAY_TILE",
    roof_shape: "HIP",
  },
  {
    construction_type: "CONCRETE_BLOCK",
    wall_type: "CONCRETE_BLOCK_STUCCO",
    frame_type: "CONCRETE",
    foundation_type: "CONCRETE_BEAM_SLAB",
    roof_cover: "CONCRETE_TILE",
    roof_shape: "FLAT",
  },
  {
    construction_type: "FRAME_STUCCO",
    wall_type: "FRAME_STUCCO",
    frame_type: "WOOD",
    foundation_type: "STEM_WALL",
    roof_cover: "METAL",
    roof_shape: "SHED",
  },
  {
    construction_type: "LOG",
    wall_type: "LOGS",
    frame_type: "WOOD",
    foundation_type: "PIER_POST_BEAM",
    roof_cover: "METAL",
    roof_shape: "A_FRAME",
  },
  {
    construction_type: "STEEL_WOOD",
    wall_type: "FIBER_CEMENT_SIDING_HARDI_BOARD_HARDI_PLANK",
    frame_type: "STEEL",
    foundation_type: "RAISED_BASEMENT",
    roof_cover: "SLATE",
    roof_shape: "GAMBREL",
  },
] as const;

const CLIMATE = [
  { cooling_type: "AC_CENTRAL", heating_type: "FORCED_AIR", heating_fuel: "GAS" },
  { cooling_type: "AC_HEAT_PUMP", heating_type: "HEAT_PUMP", heating_fuel: "ELECTRIC" },
  { cooling_type: "AC_WINDOW_UNIT", heating_type: "BASEBOARD", heating_fuel: "ELECTRIC" },
  { cooling_type: "EVAPORATIVE", heating_type: "RADIANT", heating_fuel: "PROPANE" },
  { cooling_type: "NONE", heating_type: "HOT_WATER", heating_fuel: "OIL" },
  { cooling_type: "AC_SPLIT_SYSTEM", heating_type: "FORCED_AIR_WITH_AIR_CONDITIONING", heating_fuel: "GAS" },
] as const;

const POOLS = [
  "IN_GROUND_POOL",
  "ABOVE_GROUND_POOL",
  "POOL_GUNITE",
  "POOL_VINYL_WITH_DECK",
  "POOL_WITH_HOT_TUB_SPA",
  "POOL_UNSPECIFIED_FENCED",
  "SPA_HOT_TUB_ONLY",
] as const;
const FIREPLACES = ["MASONRY", "PREFAB", "WOOD_STOVE", "GLASS_LOG", "SINGLE", "$2_STORY_BRICK"] as const;
const GARAGES = [
  "ATTACHED_2_CAR",
  "ATTACHED_1_CAR",
  "DETACHED_2_CAR",
  "GARAGE_ATTACHED",
  "CARPORT_1_CAR",
  "GARAGE_BUILT_IN_2_CAR",
  "ATTACHED_3_PLUS_CAR",
] as const;

const money = (random: Random, lowThousands: number, highThousands: number) =>
  random.int(lowThousands, highThousands) * 1_000_00;
const dateOnly = (iso: string) => iso.slice(0, 10);

/** The PropertyData fields without the two ids: the shape the property enrichment returns. */
/** `lender`, `secondLender`: the dwelling's mortgagees, which public records name too. */
export function propertyFields(
  random: Random,
  now: Date,
  kind: PropertyKind,
  owners: Owner[],
  lender?: string,
  secondLender?: string,
) {
  const style = random.pick(STYLES);
  const climate = random.pick(CLIMATE);
  const condo = kind === "condo";
  const units = kind === "multi_unit" ? random.int(2, 4) : 1;
  const fireplaces = condo ? 0 : random.pick([0, 0, 1, 1, 2]);
  const pool = !condo && random.chance(0.2);
  const garage = condo ? null : random.pick([...GARAGES, "NO_GARAGE"] as const);
  const land = money(random, condo ? 20 : 60, condo ? 60 : 260);
  const improvement = money(random, 150, 720);
  const total = land + improvement;
  const purchasePrice = Math.round((total * random.int(70, 98)) / 100 / 100) * 100;
  const heloc = secondLender !== undefined || random.chance(0.1);
  const [first, second, third, fourth] = owners;
  return {
    apn: `${random.digits(3)}-${random.digits(3)}-${random.digits(3)}`,
    year_built: random.int(1948, 2023),
    square_ft: condo ? random.int(650, 1800) : random.int(1100, 4200) * units,
    num_beds: (condo ? random.int(1, 3) : random.int(2, 5)) * units,
    num_baths_full: random.int(1, 3) * units,
    num_baths_partial: random.int(0, 2),
    num_stories: condo ? 1 : random.int(1, 3),
    num_units: units,
    num_fireplaces: fireplaces,
    garage_square_ft: garage && garage !== "NO_GARAGE" ? random.int(240, 720) : null,
    num_parking_spaces: condo ? random.int(1, 2) : random.int(2, 4),
    has_fireplace: fireplaces > 0,
    has_pool: pool,
    assessed_improvement_value_cents: Math.round(improvement * 0.85),
    assessed_land_value_cents: Math.round(land * 0.85),
    assessed_total_value_cents: Math.round(improvement * 0.85) + Math.round(land * 0.85),
    market_improvement_value_cents: improvement,
    market_land_value_cents: land,
    market_total_value_cents: total,
    first_mortgage_amount_cents: Math.round(purchasePrice * 0.8),
    second_mortgage_amount_cents: heloc ? money(random, 20, 80) : null,
    purchase_price_cents: purchasePrice,
    owner1_first_name: first?.first ?? null,
    owner1_last_name: first?.last ?? null,
    owner2_first_name: second?.first ?? null,
    owner2_last_name: second?.last ?? null,
    owner3_first_name: third?.first ?? null,
    owner3_last_name: third?.last ?? null,
    owner4_first_name: fourth?.first ?? null,
    owner4_last_name: fourth?.last ?? null,
    first_mortgage_lender: lender ?? random.pick(LENDERS),
    second_mortgage_lender: heloc ? (secondLender ?? random.pick(LENDERS)) : null,
    purchase_date: dateOnly(isoDaysFrom(now, -random.int(400, 9000))),
    last_update_date: dateOnly(isoDaysFrom(now, -random.int(10, 300))),
    class: condo
      ? "CONDOMINIUM_RESIDENTIAL"
      : units > 1
        ? "DUPLEX_TRIPLEX_QUADPLEX"
        : "SINGLE_FAMILY_RESIDENCE_TOWNHOUSE",
    sub_type: "RESIDENTIAL",
    ...style,
    ...climate,
    energy_type: random.pick(["STANDARD", "ABOVE_STANDARD", "AVERAGE", "UNDERGROUND"] as const),
    sewer_type: random.pick(["MUNICIPAL", "MUNICIPAL", "SEPTIC", "PUBLIC"] as const),
    building_shape: random.pick(["RECTANGLE", "L_SHAPED", "SQUARE", "IRREGULAR", "COMPLEX"] as const),
    construction_quality: random.pick(["AVERAGE", "GOOD", "VERY_GOOD", "EXCELLENT", "FAIR"] as const),
    fireplace_type: fireplaces > 0 ? random.pick(FIREPLACES) : null,
    pool_type: pool ? random.pick(POOLS) : condo ? null : "NO_POOL",
    garage_type: garage,
  };
}

/** PropertyData as it sits on a dwelling. */
export function propertyData(
  random: Random,
  now: Date,
  dwellingId: string,
  kind: PropertyKind,
  owners: Owner[],
  lender?: string,
  secondLender?: string,
) {
  return {
    property_data_id: random.uuid(),
    dwelling_id: dwellingId,
    ...propertyFields(random, now, kind, owners, lender, secondLender),
  };
}
