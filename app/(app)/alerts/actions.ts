"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { formText, guardedAction } from "@/lib/auth/action-guard";
import { moveAlert } from "@/lib/alerts/inbox";

// The inbox's buttons: done, snooze, reopen. The guard checks the permission; moveAlert checks
// the alert is one the user may read (their own or the queue's, unless they may read all).

const moveInput = z.object({
  alertId: formText().transform(Number).pipe(z.number().int().positive()),
  move: formText().pipe(z.string()),
});

/** Plain forms: a refused or malformed call changes nothing. */
const nothing = () => undefined;

export const moveAlertAction = guardedAction("alerts:view", moveInput, nothing, async ({ user, input, db }) => {
  await moveAlert(db, user, input);
  revalidatePath("/alerts");
});
