"use server";

import { revalidatePath } from "next/cache";
import { formAction, submittedForm, submittedText } from "@/lib/auth/action-guard";
import { REVIEW_RULE_IDS } from "@/lib/review/finding";
import { saveReviewRules } from "@/lib/review/review-rules";
import { toFormState } from "@/lib/core/form-state";

// The coverage review's rules. Limits are typed in dollars ("100,000") and kept in cents; each
// check is a ticked box, and the ones left unticked are the ones switched off. saveReviewRules
// validates the values (and says which field is wrong) and audits the change.

/** Typed dollars as cents; anything unreadable stays NaN, which the rules' schema refuses by name. */
function cents(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  return Math.round(Number(text.trim().replace(/^\$/, "").replace(/,/g, "")) * 100);
}

const number = (text: string | undefined) => (text === undefined || text.trim() === "" ? undefined : Number(text));

const rulesInput = submittedForm().transform((form) => {
  const on = new Set((form.on ?? []).filter((v): v is string => typeof v === "string"));
  return {
    bodilyInjuryPerPersonCents: cents(submittedText(form, "bodilyInjuryPerPerson")),
    bodilyInjuryPerAccidentCents: cents(submittedText(form, "bodilyInjuryPerAccident")),
    propertyDamageCents: cents(submittedText(form, "propertyDamage")),
    deductibleCeilingCents: cents(submittedText(form, "deductibleCeiling")),
    coinsurancePercent: number(submittedText(form, "coinsurancePercent")),
    personalLiabilityCents: cents(submittedText(form, "personalLiability")),
    off: REVIEW_RULE_IDS.filter((rule) => !on.has(rule)),
  };
});

export const saveReviewRulesAction = formAction("rules:manage", rulesInput, async ({ user, input, db }) => {
  const result = await saveReviewRules(db, user, input);
  if (result.ok) revalidatePath("/admin/review");
  return toFormState(result, "Saved. Every pull's coverage review follows these rules from now on.");
});
