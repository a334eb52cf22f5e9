"use server";

import { revalidatePath } from "next/cache";
import { formAction } from "@/lib/auth/action-guard";
import { env } from "@/lib/env";
import { savePolicyCheckRules } from "@/lib/policy-check/admin";
import { policyCheckFormSchema } from "@/lib/policy-check/rules";
import { toFormState } from "@/lib/core/form-state";

// The team's policy-check rules, saved to the service; savePolicyCheckRules validates the form
// (and names the wrong field) and audits the change. An unticked switch is simply absent.

export const savePolicyCheckRulesAction = formAction(
  "rules:manage",
  policyCheckFormSchema,
  async ({ user, input, db }) => {
    const result = await savePolicyCheckRules(db, env().service, user, input);
    if (result.ok) revalidatePath("/admin/policy-check");
    return toFormState(result, "Saved at the service. New links are checked against these rules.");
  },
);
