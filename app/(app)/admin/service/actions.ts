"use server";

import { revalidatePath } from "next/cache";
import { formAction, noInput } from "@/lib/auth/action-guard";
import { env } from "@/lib/env";
import {
  registerOwnWebhook,
  setOwnWebhookActive,
  setWebhookActiveInputSchema,
} from "@/lib/service-connection/commands";
import { toFormState } from "@/lib/core/form-state";

// The Service connection page's writes, for admins; each is a call to the service.

export const registerWebhookAction = formAction("service:manage", noInput, async ({ user, db }) => {
  const config = env();
  const result = await registerOwnWebhook(db, config.service, user, config.auth.url);
  if (result.ok) revalidatePath("/admin/service");
  return toFormState(
    result,
    "Registered. Coverdesk checks its deliveries against the signing secret the service lists for it; nothing to set.",
  );
});

export const setWebhookActiveAction = formAction(
  "service:manage",
  setWebhookActiveInputSchema,
  async ({ user, input, db }) => {
    const config = env();
    const result = await setOwnWebhookActive(db, config.service, user, config.auth.url, input);
    if (result.ok) revalidatePath("/admin/service");
    return toFormState(
      result,
      input.active
        ? "Resumed: the service delivers to Coverdesk again."
        : "Paused: the service holds deliveries to Coverdesk.",
    );
  },
);
