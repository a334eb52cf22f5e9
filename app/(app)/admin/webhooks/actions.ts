"use server";

import { revalidatePath } from "next/cache";
import { formAction } from "@/lib/auth/action-guard";
import { toFormState, type FormState } from "@/lib/core/form-state";
import {
  deleteEndpointAsAdmin,
  deleteEndpointInputSchema,
  resendDelivery,
  resendDeliveryInputSchema,
} from "@/lib/webhooks/admin";

// The webhooks page, for admins: send a delivery again now, or delete an endpoint.

export const resendDeliveryAction = formAction(
  "webhooks:manage",
  resendDeliveryInputSchema,
  async ({ user, input, db }): Promise<FormState> => {
    const resent = await resendDelivery(db, input, user);
    if (resent.ok) revalidatePath("/admin/webhooks");
    return toFormState(resent, "Queued: it is sent again within a few seconds.");
  },
);

export const deleteEndpointAction = formAction(
  "webhooks:manage",
  deleteEndpointInputSchema,
  async ({ user, input, db }): Promise<FormState> => {
    const deleted = await deleteEndpointAsAdmin(db, input, user);
    if (deleted.ok) revalidatePath("/admin/webhooks");
    return toFormState(deleted, "The endpoint is deleted; nothing more is sent to it.");
  },
);
