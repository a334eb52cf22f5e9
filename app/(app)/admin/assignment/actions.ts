"use server";

import { revalidatePath } from "next/cache";
import { formAction } from "@/lib/auth/action-guard";
import { saveAssignmentSettings, settingsInputSchema } from "@/lib/workflow/auto-assign";
import { toFormState } from "@/lib/core/form-state";

// Automatic assignment settings. Rules come as numbered rows (`rules.0.state`); empty rows, and
// rows that go to nobody, are no rules.

export const saveAssignmentAction = formAction("settings:manage", settingsInputSchema, async ({ user, input, db }) => {
  const result = await saveAssignmentSettings(db, user, input);
  if (result.ok) revalidatePath("/admin/assignment");
  return toFormState(result, "Saved. New pulls follow these settings from now on.");
});
