"use server";

import { revalidatePath } from "next/cache";
import { formAction } from "@/lib/auth/action-guard";
import { reviewRulesInputSchema, saveReviewRules } from "@/lib/review/review-rules";
import { toFormState } from "@/lib/core/form-state";

// The coverage review's rules. The form is reviewRulesInputSchema's (limits typed in dollars,
// kept in cents; the checks left unticked are the ones switched off); saveReviewRules checks the
// rules again and audits the change.

export const saveReviewRulesAction = formAction("rules:manage", reviewRulesInputSchema, async ({ user, input, db }) => {
  const result = await saveReviewRules(db, user, input);
  if (result.ok) revalidatePath("/admin/review");
  return toFormState(result, "Saved. Every pull's coverage review follows these rules from now on.");
});
