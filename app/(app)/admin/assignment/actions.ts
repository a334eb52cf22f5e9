"use server";

import { revalidatePath } from "next/cache";
import { formAction, submittedForm, submittedText } from "@/lib/auth/action-guard";
import { saveAssignmentSettings } from "@/lib/workflow/auto-assign";
import { toFormState } from "@/lib/core/form-state";

// Automatic assignment settings. Rules come as numbered rows; empty rows are ignored.

const MAX_RULE_ROWS = 20;

const settingsInput = submittedForm().transform((form) => {
  const rules = [];
  for (let i = 0; i < MAX_RULE_ROWS; i++) {
    const assigneeId = submittedText(form, `rules.${i}.assigneeId`);
    if (!assigneeId) continue;
    rules.push({
      assigneeId,
      state: submittedText(form, `rules.${i}.state`) || undefined,
      lineOfBusiness: submittedText(form, `rules.${i}.lineOfBusiness`) || undefined,
    });
  }
  return {
    mode: submittedText(form, "mode"),
    rules,
    fallbackAssigneeId: submittedText(form, "fallbackAssigneeId") || null,
  };
});

export const saveAssignmentAction = formAction("settings:manage", settingsInput, async ({ user, input, db }) => {
  const result = await saveAssignmentSettings(db, user, input);
  if (result.ok) revalidatePath("/admin/assignment");
  return toFormState(result, "Saved. New pulls follow these settings from now on.");
});
