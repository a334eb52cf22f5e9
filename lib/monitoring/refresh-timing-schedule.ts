import "server-only";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { reconcileMonitoredFlags } from "./monitored-flag";
import { timeRefreshes } from "./refresh-timing";
import { storeRefreshForecast } from "./stored-forecast";

// Refresh timing at once, when an admin changes the lead time or the demo agency is built. Its
// hourly run is a job (lib/jobs/catalog.ts). Several may run at once; each change is sent once
// (refresh-timing.ts), then stores the rules page's forecast (stored-forecast.ts). It also sets right the list's monitored flags a race left wrong (monitored-flag.ts).

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
  // The rules page's forecast under the rules as they are now (also after the service refused).
  try {
    await storeRefreshForecast(await getDb());
  } catch (error) {
    log(`forecast not stored, will try again: ${error instanceof Error ? error.message : String(error)}`);
  }
}
