"use server";

import { revalidatePath } from "next/cache";
import { guardedAction } from "@/lib/auth/action-guard";
import { moveAlert, moveAlertInputSchema } from "@/lib/alerts/inbox";

// The inbox's buttons: done, snooze, reopen. The guard checks the permission; moveAlert checks
// the alert is one the user may read (their own or the queue's, unless they may read all).

/** Plain forms: a refused or malformed call changes nothing. */
const nothing = () => undefined;

export const moveAlertAction = guardedAction(
  "alerts:view",
  moveAlertInputSchema,
  nothing,
  async ({ user, input, db }) => {
    await moveAlert(db, user, input);
    revalidatePath("/alerts");
  },
);
