"use server";

import { revalidatePath } from "next/cache";
import { formAction } from "@/lib/auth/action-guard";
import { toFormState } from "@/lib/core/form-state";
import { retentionScheduleFormSchema, saveRetentionSchedule } from "@/lib/privacy/retention";

// The retention schedule. The form is retentionScheduleFormSchema's (per kind, `PROSPECTS.mode`
// Keep or Months and `PROSPECTS.months`); saveRetentionSchedule checks the periods again, with
// their legal floors, and audits the change.

export const saveRetentionScheduleAction = formAction(
  "retention:manage",
  retentionScheduleFormSchema,
  async ({ user, input, db }) => {
    const result = await saveRetentionSchedule(db, user, input);
    if (result.ok) revalidatePath("/admin/retention");
    return toFormState(result, "Saved. The dry run below and the next disposal follow the new schedule.");
  },
);
