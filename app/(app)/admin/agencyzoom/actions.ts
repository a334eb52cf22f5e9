"use server";

import { revalidatePath } from "next/cache";
import { formAction } from "@/lib/auth/action-guard";
import { toFormState } from "@/lib/core/form-state";
import { agencyzoomSettingsSchema, saveAgencyzoomSettings } from "@/lib/handoff/agencyzoom-settings";

// The AgencyZoom settings: the assumptions a lead needs and the user map, saved in one
// transaction and audited (saveAgencyzoomSettings checks every field again).
export const saveAgencyzoomSettingsAction = formAction(
  "agencyzoom:manage",
  agencyzoomSettingsSchema,
  async ({ user, input, db }) => {
    const result = await saveAgencyzoomSettings(db, user, input);
    if (result.ok) revalidatePath("/admin/agencyzoom");
    return toFormState(result, "Saved. The next send to AgencyZoom uses these settings.");
  },
);
