import "server-only";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { teamSigningSecrets } from "@/lib/service/webhook-signing-secrets";
import { isSyncDue, runSync, startSyncRun, type SyncTrigger } from "./sync";

// Where syncs are started in the running app: on a schedule inside the worker process, and
// from the admin's "Sync now" button. Both go through startSyncRun, so only one runs at a time.

const CHECK_EVERY_MS = 60_000;
const globalSchedule = globalThis as unknown as { __coverdeskSyncTimer?: NodeJS.Timeout };
const log = (line: string) => console.info(`[sync] ${line}`);

/** Opens a run and carries it out in the background; answers at once with the run. */
export async function startSyncInBackground(trigger: SyncTrigger, requestedBy: string | null) {
  const db = await getDb();
  const start = await startSyncRun(db, trigger, requestedBy);
  if (start.started) void runSync(db, env().service, start.run, log);
  return start;
}

export function startSyncSchedule(): void {
  const intervalMs = env().syncIntervalMs;
  if (intervalMs === 0 || globalSchedule.__coverdeskSyncTimer) return;
  const check = async () => {
    try {
      if (await isSyncDue(await getDb(), intervalMs)) {
        await startSyncInBackground("SCHEDULE", null);
        // The receiver's copy of the registrations' signing secrets is kept current on the same schedule.
        void teamSigningSecrets(env().service).refresh();
      }
    } catch (error) {
      log(`scheduled check failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  globalSchedule.__coverdeskSyncTimer = setInterval(() => void check(), CHECK_EVERY_MS);
  globalSchedule.__coverdeskSyncTimer.unref();
}

/** For a graceful stop: no new scheduled run starts (a run in flight is marked failed by the next instance if cut). */
export function stopSyncSchedule(): void {
  clearInterval(globalSchedule.__coverdeskSyncTimer);
  globalSchedule.__coverdeskSyncTimer = undefined;
}
