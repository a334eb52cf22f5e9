import { z } from "zod";
import { addressPlaceFields } from "./address";
import { OWNERSHIP_TYPES } from "./enums-auto";
import { DRIVING_RECORD_IQ_STATUSES } from "./enums-claims";
import { propertyDataFields } from "./property-data";
import { integer, isoDate, lenient, lenientArray, looseResource, openEnum, requiredId, text } from "./tolerant";

// The enrichment lookups (spec 2.18): what public records say about a driver, a household or
// a property, independent of any linked account.

/** Gender and marital status are plain text here, unlike on a pull's drivers. */
export const driverLicenseDataSchema = looseResource({
  first_name: text,
  middle_name: text,
  last_name: text,
  date_of_birth_str: text,
  drivers_license: text,
  drivers_license_state: text,
  gender: text,
  marital_status: text,
});
export type DriverLicenseData = z.output<typeof driverLicenseDataSchema>;

export const enrichmentDriverLicenseSchema = looseResource({
  driver_license_id: requiredId,
  driver_license: lenient(driverLicenseDataSchema, "a driver license object"),
});
export type EnrichmentDriverLicense = z.output<typeof enrichmentDriverLicenseSchema>;

/** Violation counts default to 0 when left out, as the spec says; a wrong type is still null. */
const violationCount = z.transform((value: unknown) =>
  value === undefined || value === null ? 0 : integer.parse(value),
);

export const drivingRecordIqDataSchema = looseResource({
  status: openEnum(DRIVING_RECORD_IQ_STATUSES, "driving record status"),
  minor_violations: violationCount,
  last_minor_violation_date_str: text,
  major_violations: violationCount,
  last_major_violation_date_str: text,
});
export type DrivingRecordIqData = z.output<typeof drivingRecordIqDataSchema>;

export const enrichmentDrivingRecordIqSchema = looseResource({
  driving_record_iq_id: requiredId,
  driving_record_iq: lenient(drivingRecordIqDataSchema, "a driving record object"),
});
export type EnrichmentDrivingRecordIq = z.output<typeof enrichmentDrivingRecordIqSchema>;

export const householdVehicleSchema = looseResource({
  vin: text,
  year: integer,
  make: text,
  model: text,
  series: text,
  series2: text,
  type: text,
  ownership_type: openEnum(OWNERSHIP_TYPES, "ownership type"),
  lien_holder: text,
  purchase_date: isoDate,
});
export type HouseholdVehicle = z.output<typeof householdVehicleSchema>;

export const enrichmentHouseholdSchema = looseResource({
  household_id: requiredId,
  drivers: lenientArray(driverLicenseDataSchema, "household driver"),
  vehicles: lenientArray(householdVehicleSchema, "household vehicle"),
});
export type EnrichmentHousehold = z.output<typeof enrichmentHouseholdSchema>;

export const enrichmentPropertyDataSchema = looseResource({
  address: lenient(looseResource(addressPlaceFields), "an address"),
  data: lenient(looseResource(propertyDataFields), "property data"),
});
export type EnrichmentPropertyData = z.output<typeof enrichmentPropertyDataSchema>;
