import type { z } from "zod";
import { EDUCATION_LEVELS, GENDERS, MARITAL_STATUSES, RELATIONSHIPS_TO_INSURED } from "./enums-people";
import { FORMS_OF_BUSINESS } from "./enums-policy";
import { bool, cents, integer, looseResource, openEnum, requiredId, text } from "./tolerant";

// The people on an account: drivers (on the pull and on each vehicle) and the named insureds
// of a policy, personal or commercial.

/** Driver fields of spec 2.7; `date_of_birth_str` and `age_on_date` are free text, not dates. */
const driverFields = {
  driver_id: requiredId,
  first_name: text,
  middle_name: text,
  last_name: text,
  drivers_license: text,
  drivers_license_state: text,
  date_of_birth_str: text,
  occupation: text,
  age_on_date: text,
  age: integer,
  age_licensed: integer,
  gender: openEnum(GENDERS, "gender"),
  marital_status: openEnum(MARITAL_STATUSES, "marital status"),
  education: openEnum(EDUCATION_LEVELS, "education level"),
  relationship_to_insured: openEnum(RELATIONSHIPS_TO_INSURED, "relationship to the insured"),
};

export const driverSchema = looseResource(driverFields);
export type Driver = z.output<typeof driverSchema>;

export const vehicleDriverSchema = looseResource({ ...driverFields, is_excluded: bool });
export type VehicleDriver = z.output<typeof vehicleDriverSchema>;

export const namedInsuredSchema = looseResource({
  named_insured_id: requiredId,
  first_name: text,
  middle_name: text,
  last_name: text,
  full_name: text,
  email: text,
  home_phone: text,
  mobile_phone: text,
  work_phone: text,
  work_phone_extension: text,
  is_primary_named_insured: bool,
});
export type NamedInsured = z.output<typeof namedInsuredSchema>;

export const commercialNamedInsuredSchema = looseResource({
  commercial_named_insured_id: requiredId,
  address_id: text,
  location_id: text,
  name: text,
  /** General liability class code. */
  gl_code: text,
  sic_code: text,
  naics_code: text,
  fein: text,
  business_phone: text,
  business_email: text,
  website_url: text,
  form_of_business: openEnum(FORMS_OF_BUSINESS, "form of business"),
  is_primary_named_insured: bool,
  number_of_employees: integer,
  minimum_premium_cents: cents,
  total_estimated_annual_premium_cents: cents,
});
export type CommercialNamedInsured = z.output<typeof commercialNamedInsuredSchema>;
