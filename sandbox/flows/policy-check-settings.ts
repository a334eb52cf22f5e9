import { z } from "zod";

// The team's policy-check rules (service-notes, "Policy check"): one set for vehicles, one for
// dwellings. The published example misspells MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS and sometimes
// leaves out the `policy_check_settings` wrapper, so both spellings and both forms are read;
// answers always use the correct spelling inside the wrapper.

const cents = z.number().int().min(0).nullable();
const minimum = z.object({ per_person_cents: cents.optional(), per_accident_cents: cents.optional() });

export type Minimum = { per_person_cents: number | null; per_accident_cents: number | null };

export type VehicleRules = {
  POLICY_NOT_ACTIVE: boolean;
  LIENHOLDER_NAME_MISMATCH: string[];
  DRIVER_REMOVED: boolean;
  VEHICLE_REMOVED: boolean;
  NO_COLLISION_COVERAGE: boolean;
  NO_COMPREHENSIVE_COVERAGE: boolean;
  MAX_COLLISION_DEDUCTIBLE_CENTS: number | null;
  MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS: number | null;
  MIN_PROPERTY_DAMAGE_COVERAGE_CENTS: number | null;
  MIN_BODILY_INJURY_COVERAGE: Minimum;
  MIN_UNINSURED_MOTORIST_BODILY_INJURY_COVERAGE: Minimum;
};

export type DwellingRules = {
  DWELLING_POLICY_NOT_ACTIVE: boolean;
  LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST: boolean;
  REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT: boolean;
};

export type PolicyCheckSettings = { vehicle: VehicleRules; dwelling: DwellingRules };

/** Nothing checked until the team configures it, as a new account of the service starts. */
export const DEFAULT_POLICY_CHECK_SETTINGS: PolicyCheckSettings = {
  vehicle: {
    POLICY_NOT_ACTIVE: false,
    LIENHOLDER_NAME_MISMATCH: [],
    DRIVER_REMOVED: false,
    VEHICLE_REMOVED: false,
    NO_COLLISION_COVERAGE: false,
    NO_COMPREHENSIVE_COVERAGE: false,
    MAX_COLLISION_DEDUCTIBLE_CENTS: null,
    MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS: null,
    MIN_PROPERTY_DAMAGE_COVERAGE_CENTS: null,
    MIN_BODILY_INJURY_COVERAGE: { per_person_cents: null, per_accident_cents: null },
    MIN_UNINSURED_MOTORIST_BODILY_INJURY_COVERAGE: { per_person_cents: null, per_accident_cents: null },
  },
  dwelling: {
    DWELLING_POLICY_NOT_ACTIVE: false,
    LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST: false,
    REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT: false,
  },
};

const MISSPELLED = "MAX_COMPREEHENSIVE_DEDUCTIBLE_CENTS";

/** Strict: a key the service does not know is a typo the team should hear about. */
const vehiclePatch = z.strictObject({
  POLICY_NOT_ACTIVE: z.boolean().optional(),
  LIENHOLDER_NAME_MISMATCH: z.array(z.string().trim().min(1).max(200)).max(50).optional(),
  DRIVER_REMOVED: z.boolean().optional(),
  VEHICLE_REMOVED: z.boolean().optional(),
  NO_COLLISION_COVERAGE: z.boolean().optional(),
  NO_COMPREHENSIVE_COVERAGE: z.boolean().optional(),
  MAX_COLLISION_DEDUCTIBLE_CENTS: cents.optional(),
  MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS: cents.optional(),
  MIN_PROPERTY_DAMAGE_COVERAGE_CENTS: cents.optional(),
  MIN_BODILY_INJURY_COVERAGE: minimum.optional(),
  MIN_UNINSURED_MOTORIST_BODILY_INJURY_COVERAGE: minimum.optional(),
});
const dwellingPatch = z.strictObject({
  DWELLING_POLICY_NOT_ACTIVE: z.boolean().optional(),
  LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST: z.boolean().optional(),
  REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT: z.boolean().optional(),
});

/** The misspelled key is read as the correct one (the correct one wins when both are sent). */
const correctSpelling = (value: unknown) => {
  if (!value || typeof value !== "object" || Array.isArray(value) || !(MISSPELLED in value)) return value;
  const { [MISSPELLED]: misspelled, ...rest } = value as Record<string, unknown>;
  return { MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS: misspelled, ...rest };
};

export const settingsPatchSchema = z.strictObject({
  vehicle: z.preprocess(correctSpelling, vehiclePatch).optional(),
  dwelling: dwellingPatch.optional(),
});
export type SettingsPatch = z.output<typeof settingsPatchSchema>;

/** `{ policy_check_settings: {…} }`, or the settings bare. */
export const settingsBodySchema = z.preprocess(
  (body) =>
    body && typeof body === "object" && "policy_check_settings" in body
      ? (body as Record<string, unknown>).policy_check_settings
      : body,
  settingsPatchSchema,
);

/** `base` with the patch applied; a minimum is replaced per field. */
export function applySettings(base: PolicyCheckSettings, patch: SettingsPatch): PolicyCheckSettings {
  const v = patch.vehicle ?? {};
  const merged = (current: Minimum, next: z.output<typeof minimum> | undefined): Minimum => ({ ...current, ...next });
  return {
    vehicle: {
      ...base.vehicle,
      ...v,
      MIN_BODILY_INJURY_COVERAGE: merged(base.vehicle.MIN_BODILY_INJURY_COVERAGE, v.MIN_BODILY_INJURY_COVERAGE),
      MIN_UNINSURED_MOTORIST_BODILY_INJURY_COVERAGE: merged(
        base.vehicle.MIN_UNINSURED_MOTORIST_BODILY_INJURY_COVERAGE,
        v.MIN_UNINSURED_MOTORIST_BODILY_INJURY_COVERAGE,
      ),
    },
    dwelling: { ...base.dwelling, ...patch.dwelling },
  };
}
