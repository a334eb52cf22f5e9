"use server";

import { revalidatePath } from "next/cache";
import type { RegisterState } from "@/components/admin/service-connection-forms";
import { getDb } from "@/lib/database";
import { getSessionUser } from "@/lib/auth/session";
import { env } from "@/lib/env";
import { registerOwnWebhook, setOwnWebhookActive } from "@/lib/service-connection/commands";
import { field, toFormState, type FormState } from "@/lib/workflow/form-state";


export async function registerWebhookAction(_previous: RegisterState): Promise<RegisterState> {
  const user = await getSessionUser();
  if (!user) return { status: "error", message: "Your session has ended. Sign in again." };
  const config = env();
  const result = await registerOwnWebhook(await getDb(), config.service, user, config.auth.url);
  if (!result.ok) return toFormState(result, "");
  revalidatePath("/admin/service");
  return { status: "done", message: "Registered. Set the signing secret below as SERVICE_WEBHOOK_SECRET and restart Coverdesk; it is shown only this once.", signingSecret: result.signingSecret };
}

export async function setWebhookActiveAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const user = await getSessionUser();
  if (!user) return { status: "error", message: "Your session has ended. Sign in again." };
  const config = env();
  const active = field(formData, "active");
  const result = await setOwnWebhookActive(await getDb(), config.service, user, config.auth.url, { webhookId: field(formData, "webhookId"), active });
  if (result.ok) revalidatePath("/admin/service");
  return toFormState(result, active === "true" ? "Resumed: the service delivers to Coverdesk again." : "Paused: the service holds deliveries to Coverdesk.");
}
