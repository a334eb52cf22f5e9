import "server-only";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { runSync, startSyncRun, type SyncTrigger } from "./sync";

// The admin's "Sync now" button. The scheduled sync is a job (lib/jobs/catalog.ts); both go
// through startSyncRun, so only one runs at a time.

const log = (line: string) => console.info(`[sync] ${line}`);

/** Opens a run and carries it out in the background; answers at once with the run. */
export async function startSyncInBackground(trigger: SyncTrigger, requestedBy: string | null) {
  const db = await getDb();
  const start = await startSyncRun(db, trigger, requestedBy);
  if (start.started) void runSync(db, env().service, start.run, log);
  return start;
}
