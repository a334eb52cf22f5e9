import { z } from "zod";
import { describeValue, reportProblem } from "./problems";
import { bool, cents, isPlainObject, lenient, lenientArray, looseResource, stringList, text } from "./tolerant";

// Policy check (service-notes, "Policy check"): the team's rules, and the results the service
// puts on a pull (`policy_check_status`, `policy_check_results`). The published example
// misspells MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS and leaves out the `policy_check_settings`
// wrapper; reading accepts both, and the client always writes the correct forms.

const MISSPELLED = "MAX_COMPREEHENSIVE_DEDUCTIBLE_CENTS";

const minimumSchema = looseResource({ per_person_cents: cents, per_accident_cents: cents });

/** The correct key wins; the misspelled one is read when it is the only one. */
function correctSpelling(value: unknown): unknown {
  if (!isPlainObject(value) || !(MISSPELLED in value)) return value;
  const { [MISSPELLED]: misspelled, ...rest } = value;
  return { ...rest, MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS: rest.MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS ?? misspelled };
}

export const vehicleCheckRulesSchema = z.transform(correctSpelling).pipe(
  looseResource({
    POLICY_NOT_ACTIVE: bool,
    LIENHOLDER_NAME_MISMATCH: stringList,
    DRIVER_REMOVED: bool,
    VEHICLE_REMOVED: bool,
    NO_COLLISION_COVERAGE: bool,
    NO_COMPREHENSIVE_COVERAGE: bool,
    MAX_COLLISION_DEDUCTIBLE_CENTS: cents,
    MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS: cents,
    MIN_PROPERTY_DAMAGE_COVERAGE_CENTS: cents,
    MIN_BODILY_INJURY_COVERAGE: lenient(minimumSchema, "an object"),
    MIN_UNINSURED_MOTORIST_BODILY_INJURY_COVERAGE: lenient(minimumSchema, "an object"),
  }),
);
export type VehicleCheckRules = z.output<typeof vehicleCheckRulesSchema>;

export const dwellingCheckRulesSchema = looseResource({
  DWELLING_POLICY_NOT_ACTIVE: bool,
  LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST: bool,
  REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT: bool,
});
export type DwellingCheckRules = z.output<typeof dwellingCheckRulesSchema>;

export const policyCheckSettingsSchema = looseResource({
  vehicle: lenient(vehicleCheckRulesSchema, "an object"),
  dwelling: lenient(dwellingCheckRulesSchema, "an object"),
});
export type PolicyCheckSettings = z.output<typeof policyCheckSettingsSchema>;

/** GET and POST /policyChecks/settings: the settings inside `policy_check_settings`, or beside `success`. */
export const policyCheckSettingsResponseSchema = z
  .transform((body: unknown) =>
    isPlainObject(body) && isPlainObject(body.policy_check_settings) ? body.policy_check_settings : body,
  )
  .pipe(policyCheckSettingsSchema);

/** One rule checked on one vehicle or dwelling. */
export const policyCheckResultSchema = looseResource({
  check: text,
  /** PASSED, FAILED or REVIEW_REQUIRED in our sandbox; the service's values are not published. */
  result: text,
  policy_id: text,
  vehicle_id: text,
  dwelling_id: text,
  message: text,
});
export type PolicyCheckResult = z.output<typeof policyCheckResultSchema>;

const resultList = lenientArray(policyCheckResultSchema, "policy check result");

/**
 * A pull's `policy_check_results`. The service's form is not published: a list is read item by
 * item, an object is kept as received, anything else reads as null and is reported.
 */
export const policyCheckResultsSchema = z.transform(
  (value: unknown): PolicyCheckResult[] | Record<string, unknown> | null => {
    if (value === undefined || value === null) return null;
    if (Array.isArray(value)) return resultList.parse(value);
    if (isPlainObject(value)) return value;
    reportProblem("wrong_type", `expected a list or an object, got ${describeValue(value)}`, value);
    return null;
  },
);
