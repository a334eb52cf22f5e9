import type { z } from "zod";
import { dwellingSchema } from "./dwelling";
import { FORMS_OF_BUSINESS, PAYMENT_FREQUENCIES, POLICY_STATUSES, POLICY_TYPES } from "./enums-policy";
import { commercialNamedInsuredSchema, namedInsuredSchema } from "./people";
import { bool, cents, isoDate, lenient, lenientArray, looseResource, openEnum, requiredId, text } from "./tolerant";
import { vehicleSchema } from "./vehicle";

// A policy with everything it covers (spec 2.3). The parts whose fields the spec does not
// publish are kept whole as loose objects, so nothing the service sends is lost.

export const policyCheckSchema = looseResource({});
export type PolicyCheck = z.output<typeof policyCheckSchema>;
export const locationSchema = looseResource({});
export type Location = z.output<typeof locationSchema>;
export const additionalInterestSchema = looseResource({});
export type AdditionalInterest = z.output<typeof additionalInterestSchema>;
export const lifePolicySchema = looseResource({});
export type LifePolicy = z.output<typeof lifePolicySchema>;
export const policyFormSchema = looseResource({});
export type PolicyForm = z.output<typeof policyFormSchema>;
export const premiumGroupSchema = looseResource({});
export type PremiumGroup = z.output<typeof premiumGroupSchema>;

export const policySchema = looseResource({
  policy_id: requiredId,
  name: text,
  description: text,
  carrier_policy_number: text,
  policy_type: openEnum(POLICY_TYPES, "policy type"),
  effective_date: isoDate,
  expiry_date: isoDate,
  /** The effective date of the new term. */
  renewal_date: isoDate,
  canceled_date: isoDate,
  total_premium_cents: cents,
  amount_paid_cents: cents,
  amount_due_cents: cents,
  total_estimated_annual_premium_cents: cents,
  total_minimum_premium_cents: cents,
  total_deposit_premium_cents: cents,
  paid_in_full: bool,
  /** An identifier, not for display; `carrier_friendly_name` is. */
  carrier_name: text,
  carrier_friendly_name: text,
  status: openEnum(POLICY_STATUSES, "policy status"),
  state: text,
  limited_access: bool,
  form_of_business: openEnum(FORMS_OF_BUSINESS, "form of business"),
  deductible_cents: cents,
  is_monoline: bool,
  is_telematics_enabled: bool,
  payment_frequency: openEnum(PAYMENT_FREQUENCIES, "payment frequency"),
  last_payment_date: isoDate,
  policy_check: lenient(policyCheckSchema, "an object"),
  dwellings: lenientArray(dwellingSchema, "dwelling"),
  locations: lenientArray(locationSchema, "location"),
  vehicles: lenientArray(vehicleSchema, "vehicle"),
  commercial_named_insureds: lenientArray(commercialNamedInsuredSchema, "commercial named insured"),
  named_insureds: lenientArray(namedInsuredSchema, "named insured"),
  additional_interests: lenientArray(additionalInterestSchema, "additional interest"),
  life: lenient(lifePolicySchema, "an object"),
  forms_and_endorsements: lenientArray(policyFormSchema, "policy form"),
  premium_groups: lenientArray(premiumGroupSchema, "premium group"),
});
export type Policy = z.output<typeof policySchema>;
