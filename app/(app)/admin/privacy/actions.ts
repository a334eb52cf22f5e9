"use server";

import { revalidatePath } from "next/cache";
import { formAction } from "@/lib/auth/action-guard";
import { toFormState } from "@/lib/core/form-state";
import {
  eraseConsumer,
  eraseRequestInputSchema,
  markServiceTold,
  openPrivacyRequest,
  openRequestInputSchema,
  serviceToldInputSchema,
} from "@/lib/privacy/requests";

// The consumer request desk, for admins: open a request, erase its consumer, record that the
// service was told. Each form is read into its command's schema; every step is audited.

export const openPrivacyRequestAction = formAction(
  "privacy:manage",
  openRequestInputSchema,
  async ({ user, input, db }) => {
    const result = await openPrivacyRequest(db, user, input);
    if (result.ok) revalidatePath("/admin/privacy");
    return toFormState(result, "Request opened: its clock is on the list below.");
  },
);

export const erasePrivacyRequestAction = formAction(
  "privacy:manage",
  eraseRequestInputSchema,
  async ({ user, input, db }) => {
    const result = await eraseConsumer(db, user, { pullIds: [], requestId: input.requestId });
    if (result.ok) {
      revalidatePath("/admin/privacy");
      revalidatePath(`/admin/privacy/${input.requestId}`);
    }
    return toFormState(result, "Erased. Now ask the service to delete its copy: the steps are below.");
  },
);

export const markServiceToldAction = formAction(
  "privacy:manage",
  serviceToldInputSchema,
  async ({ user, input, db }) => {
    const result = await markServiceTold(db, user, input.requestId);
    if (result.ok) revalidatePath(`/admin/privacy/${input.requestId}`);
    return toFormState(result, "Recorded. The pull ids are forgotten here too.");
  },
);
