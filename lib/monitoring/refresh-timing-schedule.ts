import "server-only";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { reconcileMonitoredFlags } from "./monitored-flag";
import { timeRefreshes } from "./refresh-timing";

// Refresh timing on a timer inside the worker process, like the X-date upkeep: shortly after
// start (once the upkeep has rolled the X-dates) and hourly, and at once when an admin changes
// the lead time. Several instances may run it; each change is sent once (refresh-timing.ts).
// The same hourly pass sets right the list's monitored flags a race left wrong (monitored-flag.ts).

const CHECK_EVERY_MS = 60 * 60_000;
const FIRST_RUN_AFTER_MS = 30_000;
const globalSchedule = globalThis as unknown as {
  __coverdeskRefreshTimer?: NodeJS.Timeout;
  __coverdeskRefreshFirst?: NodeJS.Timeout;
};
const log = (line: string) => console.info(`[refresh timing] ${line}`);

/** Plans and sends now; never throws (a failure is logged and the next run tries again). */
export async function runRefreshTimingNow(): Promise<void> {
  try {
    const fixed = await reconcileMonitoredFlags(await getDb());
    if (fixed > 0) log(`${fixed} pulls' monitored flag set right`);
  } catch (error) {
    log(`monitored flags not checked, will try again: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const summary = await timeRefreshes(await getDb(), env().service);
    if (summary.sent + summary.refused > 0)
      log(`${summary.checked} monitored accounts: ${summary.sent} next refreshes moved, ${summary.refused} refused`);
  } catch (error) {
    log(`failed, will try again: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function startRefreshTiming(): void {
  if (globalSchedule.__coverdeskRefreshTimer) return;
  globalSchedule.__coverdeskRefreshFirst = setTimeout(() => void runRefreshTimingNow(), FIRST_RUN_AFTER_MS);
  globalSchedule.__coverdeskRefreshFirst.unref();
  globalSchedule.__coverdeskRefreshTimer = setInterval(() => void runRefreshTimingNow(), CHECK_EVERY_MS);
  globalSchedule.__coverdeskRefreshTimer.unref();
}

export function stopRefreshTiming(): void {
  clearTimeout(globalSchedule.__coverdeskRefreshFirst);
  clearInterval(globalSchedule.__coverdeskRefreshTimer);
  globalSchedule.__coverdeskRefreshTimer = undefined;
}
