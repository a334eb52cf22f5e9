import { z } from "zod";
import { embeddedAddressSchema } from "./address";
import { DWELLING_COVERAGE_FRIENDLY_NAMES, DWELLING_COVERAGE_NAMES, LOSS_SETTLEMENT_TYPES } from "./enums-home";
import { propertyDataSchema } from "./property-data";
import { bool, cents, integer, lenient, lenientArray, looseResource, openEnum, requiredId, text } from "./tolerant";

// A dwelling on a home-like policy with its coverages, mortgagees and property data
// (spec 2.11, 2.12).

/**
 * A percentage of the Coverage A limit. The spec writes a decimal string ("2.000"); the
 * service's own example pulls send a number (10). Both are kept, as text, as written.
 */
const percentOfLimit = lenient(z.union([z.string(), z.number().transform(String)]), "a percentage");

export const dwellingCoverageSchema = looseResource({
  dwelling_coverage_id: requiredId,
  name: openEnum(DWELLING_COVERAGE_NAMES, "dwelling coverage name"),
  friendly_name: openEnum(DWELLING_COVERAGE_FRIENDLY_NAMES, "dwelling coverage"),
  premium_cents: cents,
  per_person_limit_cents: cents,
  per_incident_limit_cents: cents,
  deductible_cents: cents,
  per_person_unlimited: bool,
  per_incident_unlimited: bool,
  per_incident_limit_percent: percentOfLimit,
  deductible_percent: percentOfLimit,
  per_incident_limit_months: integer,
  is_declined: bool,
});
export type DwellingCoverage = z.output<typeof dwellingCoverageSchema>;

/** Mortgagee fields are not published; these are the ones the service is known to send. */
export const mortgageeSchema = looseResource({
  mortgagee_id: text,
  name: text,
  loan_number: text,
  address: lenient(embeddedAddressSchema, "an address"),
});
export type Mortgagee = z.output<typeof mortgageeSchema>;

export const dwellingSchema = looseResource({
  dwelling_id: requiredId,
  address: lenient(embeddedAddressSchema, "an address"),
  coverages: lenientArray(dwellingCoverageSchema, "dwelling coverage"),
  /** Mortgagees have no published id, so an item is kept whenever it is an object. */
  mortgagees: lenientArray(mortgageeSchema, "mortgagee"),
  /** Deprecated in favour of `mortgagees`; older payloads only fill these. */
  mortgagee_name: text,
  mortgagee_address: lenient(embeddedAddressSchema, "an address"),
  mortgage_loan_number: text,
  replacement_cost_cents: cents,
  cash_value_cents: cents,
  property_data: lenient(propertyDataSchema, "property data"),
  loss_settlement_type: openEnum(LOSS_SETTLEMENT_TYPES, "loss settlement type"),
  /** 0–100 per spec; kept even when outside, since it is what the carrier reported. */
  extended_replacement_cost_percent: integer,
  total_replacement_cost_cents: cents,
  is_replacement_cost_cents_derived: bool,
});
export type Dwelling = z.output<typeof dwellingSchema>;
