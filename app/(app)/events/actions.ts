"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { userAllowedTo } from "@/lib/auth/session";
import { retryAllFailedEvents, retryInboxEvent } from "@/lib/ingest/inbox";
import { startSyncInBackground } from "@/lib/ingest/sync-schedule";
import { toSyncRunView, type SyncRunView } from "@/lib/ingest/sync-view";
import { wakeWorker } from "@/lib/ingest/worker";

// Admin actions on the inbox. Each checks the permission itself: the page hiding a button
// is not a guarantee that nobody posts the action.

const eventIdSchema = z.coerce.number().int().positive();

export async function retryEventAction(formData: FormData): Promise<void> {
  if (!(await userAllowedTo("events:retry"))) return;
  const id = eventIdSchema.safeParse(formData.get("eventId"));
  if (!id.success) return;
  if (await retryInboxEvent(await getDb(), id.data)) wakeWorker();
  revalidatePath("/events");
}

export async function retryAllFailedAction(): Promise<void> {
  if (!(await userAllowedTo("events:retry"))) return;
  if ((await retryAllFailedEvents(await getDb())) > 0) wakeWorker();
  revalidatePath("/events");
}

export async function startSyncAction(): Promise<{ ok: true; started: boolean; run: SyncRunView } | { ok: false; message: string }> {
  const user = await userAllowedTo("sync:run");
  if (!user) return { ok: false, message: "You are not allowed to run a sync." };
  try {
    const start = await startSyncInBackground("MANUAL", user.id);
    return { ok: true, started: start.started, run: toSyncRunView(start.run) };
  } catch (error) {
    console.error("[sync] could not start", error);
    return { ok: false, message: "The sync could not be started. Try again in a minute." };
  }
}
