import "server-only";
import { getDb } from "@/db/client";
import { env } from "@/lib/env";
import { startSyncSchedule } from "@/lib/ingest/sync-schedule";
import { startWorker } from "@/lib/ingest/worker";
import { reprojectOutdatedPulls } from "@/lib/pulls/reproject";
import { ensureDemoUsers } from "@/lib/users/demo-users";

export async function startServer(): Promise<void> {
  const config = env(); // a bad or missing variable stops the start here, with its name
  const db = await getDb();
  if (config.demoMode) {
    const created = await ensureDemoUsers(db);
    if (created > 0) console.info(`[startup] created ${created} demo users (password in the README)`);
  }
  // In the background: pages work meanwhile, with the older columns.
  void reprojectOutdatedPulls(db).then(
    (count) => count > 0 && console.info(`[startup] re-projected ${count} pulls`),
    (error: unknown) => console.error("[startup] re-projection failed", error),
  );
  if (config.runWorker) {
    startWorker();
    startSyncSchedule();
  }
}
