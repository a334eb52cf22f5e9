import "server-only";
import { isRateLimited } from "@/lib/service/errors";
import { rateLimitDelayMs } from "./retry-policy";

// For work that has nobody waiting on it and must get through, like the reconciliation sync:
// a 429 is waited out as the service's Retry-After says, and the call made again, within a
// budget for the whole run. Past the budget the run stops with a clear reason, and the next
// run covers the same ground (the sync starts from the last good run).

/** The most one sync run waits on rate limits, in total. */
export const SYNC_RATE_LIMIT_BUDGET_MS = 5 * 60_000;
/** A wait is slept in steps this long with a heartbeat after each: a run silent for 2 minutes is taken for dead. */
const STEP_MS = 30_000;

export type RateLimitWaits = {
  /** Waited so far in this run; the helper adds to it. */
  waitedMs: number;
  budgetMs: number;
  heartbeat: () => Promise<void>;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `call`, made again after each 429 once the service's wait has passed, while the run's budget lasts. */
export async function retryWhileRateLimited<T>(call: () => Promise<T>, waits: RateLimitWaits): Promise<T> {
  for (let limitedInARow = 1; ; limitedInARow++) {
    try {
      return await call();
    } catch (error) {
      if (!isRateLimited(error)) throw error;
      const waitMs = rateLimitDelayMs(error.retryAfterMs, limitedInARow);
      if (waits.waitedMs + waitMs > waits.budgetMs)
        throw new Error(
          `The service is rate-limiting Coverdesk (it asked to wait ${Math.ceil(waitMs / 1000)} s after ${Math.round(waits.waitedMs / 1000)} s of waiting in this run); the sync stopped and the next run picks up from the last completed one`,
        );
      waits.waitedMs += waitMs;
      for (let left = waitMs; left > 0; left -= STEP_MS) {
        await sleep(Math.min(STEP_MS, left));
        await waits.heartbeat();
      }
    }
  }
}
