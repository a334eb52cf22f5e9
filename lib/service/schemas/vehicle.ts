import type { z } from "zod";
import { embeddedAddressSchema } from "./address";
import {
  OWNERSHIP_TYPES,
  PIP_DEDUCTIBLE_APPLICABILITIES,
  VEHICLE_COVERAGE_FRIENDLY_NAMES,
  VEHICLE_USES,
} from "./enums-auto";
import { vehicleDriverSchema } from "./people";
import {
  bool,
  cents,
  enumList,
  integer,
  isoDate,
  lenient,
  lenientArray,
  looseResource,
  openEnum,
  requiredId,
  stringList,
  text,
} from "./tolerant";

// A vehicle on an auto-like policy with its coverages and drivers (spec 2.9, 2.10).

export const vehicleCoverageSchema = looseResource({
  vehicle_coverage_id: requiredId,
  premium_group_id: text,
  /** An enumeration whose values the spec does not publish: kept as text. */
  name: text,
  friendly_name: openEnum(VEHICLE_COVERAGE_FRIENDLY_NAMES, "vehicle coverage"),
  premium_cents: cents,
  per_person_limit_cents: cents,
  per_incident_limit_cents: cents,
  per_day_limit_cents: cents,
  per_person_unlimited: bool,
  per_incident_unlimited: bool,
  max_days: integer,
  deductible_cents: cents,
  actual_cash_value: bool,
  is_declined: bool,
  /** true stacked, false explicitly not stacked, null not applicable or unknown. */
  is_stacked: bool,
  pip_deductible_applicability: openEnum(PIP_DEDUCTIBLE_APPLICABILITIES, "PIP deductible applicability"),
  per_mile_premium_tenth_of_cents: cents,
});
export type VehicleCoverage = z.output<typeof vehicleCoverageSchema>;

export const vehicleSchema = looseResource({
  vehicle_id: requiredId,
  year: integer,
  make: text,
  model: text,
  series: text,
  series2: text,
  type: text,
  annual_mileage: integer,
  current_mileage: integer,
  vin: text,
  /** Hull identification number, for boats. */
  hin: text,
  serial_number: text,
  uses: enumList(VEHICLE_USES, "vehicle use"),
  purchase_date: isoDate,
  ownership_type: openEnum(OWNERSHIP_TYPES, "ownership type"),
  features: stringList,
  is_removed: bool,
  lien_holder: text,
  garaging_address: lenient(embeddedAddressSchema, "an address"),
  lien_holder_address: lenient(embeddedAddressSchema, "an address"),
  coverages: lenientArray(vehicleCoverageSchema, "vehicle coverage"),
  drivers: lenientArray(vehicleDriverSchema, "vehicle driver"),
});
export type Vehicle = z.output<typeof vehicleSchema>;
