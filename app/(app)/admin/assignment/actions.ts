"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/database";
import { getSessionUser } from "@/lib/auth/session";
import { saveAssignmentSettings } from "@/lib/workflow/auto-assign";
import { field, toFormState, type FormState } from "@/lib/workflow/form-state";

// Automatic assignment settings. Rules come as numbered rows; empty rows are ignored.

const MAX_RULE_ROWS = 20;

export async function saveAssignmentAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const user = await getSessionUser();
  if (!user) return { status: "error", message: "Your session has ended. Sign in again." };
  const rules = [];
  for (let i = 0; i < MAX_RULE_ROWS; i++) {
    const assigneeId = field(formData, `rules.${i}.assigneeId`);
    if (!assigneeId) continue;
    rules.push({ assigneeId, state: field(formData, `rules.${i}.state`) || undefined, lineOfBusiness: field(formData, `rules.${i}.lineOfBusiness`) || undefined });
  }
  const result = await saveAssignmentSettings(await getDb(), user, { mode: field(formData, "mode"), rules, fallbackAssigneeId: field(formData, "fallbackAssigneeId") || null });
  if (result.ok) revalidatePath("/admin/assignment");
  return toFormState(result, "Saved. New pulls follow these settings from now on.");
}
