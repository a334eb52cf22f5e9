import type { z } from "zod";
import * as values from "./enums-property";
import { bool, cents, integer, isoDate, looseResource, openEnum, text } from "./tolerant";

// Public-record data about a dwelling (spec 2.13); the property enrichment lookup returns the
// same fields without the two ids, so they are shared from here.

export const propertyDataFields = {
  apn: text,
  year_built: integer,
  square_ft: integer,
  num_beds: integer,
  num_baths_full: integer,
  num_baths_partial: integer,
  num_stories: integer,
  num_units: integer,
  num_fireplaces: integer,
  garage_square_ft: integer,
  num_parking_spaces: integer,
  has_fireplace: bool,
  has_pool: bool,
  assessed_improvement_value_cents: cents,
  assessed_land_value_cents: cents,
  assessed_total_value_cents: cents,
  market_improvement_value_cents: cents,
  market_land_value_cents: cents,
  market_total_value_cents: cents,
  first_mortgage_amount_cents: cents,
  second_mortgage_amount_cents: cents,
  purchase_price_cents: cents,
  owner1_first_name: text,
  owner1_last_name: text,
  owner2_first_name: text,
  owner2_last_name: text,
  owner3_first_name: text,
  owner3_last_name: text,
  owner4_first_name: text,
  owner4_last_name: text,
  first_mortgage_lender: text,
  second_mortgage_lender: text,
  purchase_date: isoDate,
  last_update_date: isoDate,
  class: openEnum(values.PROPERTY_CLASSES, "property class"),
  sub_type: openEnum(values.PROPERTY_SUB_TYPES, "property sub type"),
  construction_type: openEnum(values.CONSTRUCTION_TYPES, "construction type"),
  wall_type: openEnum(values.WALL_TYPES, "wall type"),
  foundation_type: openEnum(values.FOUNDATION_TYPES, "foundation type"),
  frame_type: openEnum(values.FRAME_TYPES, "frame type"),
  roof_cover: openEnum(values.ROOF_COVERS, "roof cover"),
  roof_shape: openEnum(values.ROOF_SHAPES, "roof shape"),
  cooling_type: openEnum(values.COOLING_TYPES, "cooling type"),
  heating_type: openEnum(values.HEATING_TYPES, "heating type"),
  heating_fuel: openEnum(values.HEATING_FUELS, "heating fuel"),
  energy_type: openEnum(values.ENERGY_TYPES, "energy type"),
  sewer_type: openEnum(values.SEWER_TYPES, "sewer type"),
  building_shape: openEnum(values.BUILDING_SHAPES, "building shape"),
  construction_quality: openEnum(values.CONSTRUCTION_QUALITIES, "construction quality"),
  fireplace_type: openEnum(values.FIREPLACE_TYPES, "fireplace type"),
  pool_type: openEnum(values.POOL_TYPES, "pool type"),
  garage_type: openEnum(values.GARAGE_TYPES, "garage type"),
};

/** Nested in its dwelling, so its ids are informative rather than required. */
export const propertyDataSchema = looseResource({ property_data_id: text, dwelling_id: text, ...propertyDataFields });
export type PropertyData = z.output<typeof propertyDataSchema>;
