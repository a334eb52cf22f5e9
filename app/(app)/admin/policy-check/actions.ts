"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { formAction, formTextOrUndefined } from "@/lib/auth/action-guard";
import { env } from "@/lib/env";
import { savePolicyCheckRules } from "@/lib/policy-check/admin";
import { toFormState } from "@/lib/core/form-state";

// The team's policy-check rules, saved to the service; savePolicyCheckRules validates the form
// (and names the wrong field) and audits the change. An unticked switch is simply absent.

const rulesInput = z.object({
  POLICY_NOT_ACTIVE: formTextOrUndefined(),
  NO_COLLISION_COVERAGE: formTextOrUndefined(),
  NO_COMPREHENSIVE_COVERAGE: formTextOrUndefined(),
  VEHICLE_REMOVED: formTextOrUndefined(),
  DRIVER_REMOVED: formTextOrUndefined(),
  MAX_COLLISION_DEDUCTIBLE_CENTS: formTextOrUndefined(),
  MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS: formTextOrUndefined(),
  MIN_PROPERTY_DAMAGE_COVERAGE_CENTS: formTextOrUndefined(),
  MIN_BODILY_INJURY_COVERAGE_PER_PERSON: formTextOrUndefined(),
  MIN_BODILY_INJURY_COVERAGE_PER_ACCIDENT: formTextOrUndefined(),
  MIN_UNINSURED_MOTORIST_BODILY_INJURY_COVERAGE_PER_PERSON: formTextOrUndefined(),
  MIN_UNINSURED_MOTORIST_BODILY_INJURY_COVERAGE_PER_ACCIDENT: formTextOrUndefined(),
  LIENHOLDER_NAME_MISMATCH: formTextOrUndefined(),
  DWELLING_POLICY_NOT_ACTIVE: formTextOrUndefined(),
  LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST: formTextOrUndefined(),
  REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT: formTextOrUndefined(),
});

export const savePolicyCheckRulesAction = formAction("rules:manage", rulesInput, async ({ user, input, db }) => {
  const result = await savePolicyCheckRules(db, env().service, user, input);
  if (result.ok) revalidatePath("/admin/policy-check");
  return toFormState(result, "Saved at the service. New links are checked against these rules.");
});
