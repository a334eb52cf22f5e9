"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/database";
import { getSessionUser } from "@/lib/auth/session";
import { env } from "@/lib/env";
import { renewReconnectLink } from "@/lib/monitoring/reconnect";
import { openReconnectPage } from "@/lib/monitoring/reconnect-page";
import { field, toFormState, type FormState } from "@/lib/workflow/form-state";

export async function renewReconnectLinkAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const user = await getSessionUser();
  if (!user) return { status: "error", message: "Your session has ended. Sign in again." };
  const result = await renewReconnectLink(await getDb(), env().service, user, field(formData, "monitoringId") ?? "");
  if (result.ok) revalidatePath("/reconnect");
  return toFormState(result, "A fresh link is ready.");
}

export async function openReconnectPageAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const user = await getSessionUser();
  if (!user) return { status: "error", message: "Your session has ended. Sign in again." };
  const result = await openReconnectPage(await getDb(), user, field(formData, "monitoringId") ?? "");
  if (result.ok) revalidatePath("/reconnect");
  return toFormState(result, result.ok && !result.created ? "This account already has an open page." : "The Coverdesk page is ready to send.");
}
