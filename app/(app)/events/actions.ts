"use server";

import { revalidatePath } from "next/cache";
import type { StartSyncAnswer } from "@/components/events/sync-panel";
import { guardedAction, noInput } from "@/lib/auth/action-guard";
import { retryAllFailedEvents, retryEventInputSchema, retryInboxEvent } from "@/lib/ingest/inbox";
import { startSyncInBackground } from "@/lib/ingest/sync-schedule";
import { toSyncRunView } from "@/lib/ingest/sync-view";
import { wakeWorker } from "@/lib/ingest/worker";

// Admin actions on the inbox. Each checks the permission itself (lib/auth/action-guard.ts): the
// page hiding a button is not a guarantee that nobody posts the action.

/** Plain forms (no answer shown): a refused or malformed call does nothing. */
const nothing = () => undefined;

export const retryEventAction = guardedAction("events:retry", retryEventInputSchema, nothing, async ({ input, db }) => {
  if (await retryInboxEvent(db, input.eventId)) wakeWorker();
  revalidatePath("/events");
});

export const retryAllFailedAction = guardedAction("events:retry", noInput, nothing, async ({ db }) => {
  if ((await retryAllFailedEvents(db)) > 0) wakeWorker();
  revalidatePath("/events");
});

export const startSyncAction = guardedAction(
  "sync:run",
  noInput,
  (): StartSyncAnswer => ({ ok: false, message: "You are not allowed to run a sync." }),
  async ({ user }): Promise<StartSyncAnswer> => {
    try {
      const start = await startSyncInBackground("MANUAL", user.id);
      return { ok: true, started: start.started, run: toSyncRunView(start.run) };
    } catch (error) {
      console.error("[sync] could not start", error);
      return { ok: false, message: "The sync could not be started. Try again in a minute." };
    }
  },
);
