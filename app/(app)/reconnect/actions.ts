"use server";

import { revalidatePath } from "next/cache";
import { formAction } from "@/lib/auth/action-guard";
import { env } from "@/lib/env";
import { reconnectInputSchema, renewReconnectLink } from "@/lib/monitoring/reconnect";
import { openReconnectPage, revokeReconnectPage } from "@/lib/monitoring/reconnect-page";
import { toFormState } from "@/lib/core/form-state";

// Whoever may see the account may send its consumer a way to reconnect; the commands check
// that the user may see the monitored pull.

export const renewReconnectLinkAction = formAction("pulls:view", reconnectInputSchema, async ({ user, input, db }) => {
  const result = await renewReconnectLink(db, env().service, user, input.monitoringId);
  if (result.ok) revalidatePath("/reconnect");
  return toFormState(result, "A fresh link is ready.");
});

export const openReconnectPageAction = formAction("pulls:view", reconnectInputSchema, async ({ user, input, db }) => {
  const result = await openReconnectPage(db, user, input.monitoringId);
  if (result.ok) revalidatePath("/reconnect");
  return toFormState(
    result,
    result.ok && !result.created ? "This account already has an open page." : "The Coverdesk page is ready to send.",
  );
});

export const revokeReconnectPageAction = formAction("pulls:view", reconnectInputSchema, async ({ user, input, db }) => {
  const result = await revokeReconnectPage(db, user, input.monitoringId);
  if (result.ok) revalidatePath("/reconnect");
  return toFormState(result, "The link no longer works; the consumer's page says it was withdrawn.");
});
