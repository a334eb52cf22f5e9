import "server-only";
import { getDb } from "@/lib/database";
import { returnRecycledDeals } from "./deal-returns";

// The RECYCLED scan on a timer, in every worker process beside the X-date upkeep: at start,
// then hourly. An X-date moves into the lead time a day at a time, so an hour late is on time;
// several instances running it at once make each return once (its unique key), so no
// coordinator is needed.

const EVERY_MS = 60 * 60_000;
const globalJob = globalThis as unknown as { __coverdeskDealReturnsTimer?: NodeJS.Timeout };
const log = (line: string) => console.info(`[deal-returns] ${line}`);

export function startDealReturnsJob(): void {
  if (globalJob.__coverdeskDealReturnsTimer) return;
  const run = async () => {
    try {
      const returned = await returnRecycledDeals(await getDb());
      if (returned > 0) log(`${returned} lost deals came back as their X-dates near`);
    } catch (error) {
      log(`scan failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  void run();
  globalJob.__coverdeskDealReturnsTimer = setInterval(() => void run(), EVERY_MS);
  globalJob.__coverdeskDealReturnsTimer.unref();
}

export function stopDealReturnsJob(): void {
  clearInterval(globalJob.__coverdeskDealReturnsTimer);
  globalJob.__coverdeskDealReturnsTimer = undefined;
}
