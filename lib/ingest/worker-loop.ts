import "server-only";
import type { Db } from "@/db/types";
import { recordServiceRateLimited } from "@/lib/service/health";
import {
  probeWithOneWaitingEvent,
  processDueEvents,
  releaseClaims,
  retryWaitingEventsNow,
  type FetchPull,
  type ProcessOptions,
} from "./process-events";
import { rateLimitDelayMs } from "./retry-policy";

// The worker's loop, apart from how the app wires it (worker.ts), so that tests run the very
// loop the app runs against a database they can break. It survives a lost database: a cycle
// that fails is logged, the loop waits a little longer each time, and once the database
// answers again it first gives back whatever it claimed in the failed cycle, so those events
// are taken up again at once instead of waiting for the stale-claim timeout. While the service
// cannot be asked (it does not answer, or it limits requests), events wait and one tells when
// it can be again.

export type WorkerLoopOptions = {
  workerId: string;
  getDb: () => Promise<Db>;
  fetchPull: FetchPull;
  /** Wait between polls when there is nothing to do. */
  pollIntervalMs?: number;
  /** Longest wait between attempts while cycles keep failing (the database is away). */
  maxBackoffMs?: number;
  processOptions?: Omit<ProcessOptions, "workerId" | "log">;
  /** While the service is down, how often one waiting event is made due to find out whether it is back. */
  probeIntervalMs?: number;
  log?: (message: string) => void;
};

export type StopResult = {
  /** False when the cycle in flight outlasted the grace period. */
  finished: boolean;
  /** Claims given back to the queue. */
  released: number;
};

export type WorkerLoop = {
  workerId: string;
  readonly running: boolean;
  /** Cycles that failed (e.g. the database was unreachable), since the start. */
  readonly failedCycles: number;
  wake: () => void;
  /**
   * Stops claiming, waits up to `graceMs` for the cycle in flight to settle what it holds,
   * then gives back to the queue anything still claimed under this worker's id.
   */
  stop: (graceMs?: number) => Promise<StopResult>;
};

export function runWorkerLoop(options: WorkerLoopOptions): WorkerLoop {
  const { workerId, getDb, fetchPull } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const maxBackoffMs = options.maxBackoffMs ?? 10_000;
  const probeIntervalMs = options.probeIntervalMs ?? 30_000;
  const log = options.log ?? (() => {});
  let running = true;
  let failedCycles = 0;
  let woken = false;
  let wakeUp: (() => void) | null = null;

  const wake = () => {
    woken = true;
    wakeUp?.();
  };

  /** Waits `ms`; a stop always ends the wait, a wake (a new webhook) only when `wakeable`. */
  const pause = async (ms: number, wakeable: boolean) => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wakeUp = () => {
        if (wakeable || !running) {
          clearTimeout(timer);
          resolve();
        }
      };
      if (!running) wakeUp();
    });
    wakeUp = null;
  };

  const done = (async () => {
    // Set when a cycle failed part-way: events it claimed may still be PROCESSING under our id.
    let holdsOrphans = false;
    let consecutiveFailures = 0;
    // Set while the service cannot be asked: it does not answer (every fetch fails; events wait
    // on their backoff and one is tried now and then), or it limits requests (nothing is asked
    // of it before the time it gave; then one pull is tried before the rest).
    let held: { reason: "unreachable" } | { reason: "rate-limited"; until: number } | null = null;
    let limitedInARow = 0;
    let lastProbeAt = 0;
    while (running) {
      woken = false;
      try {
        const db = await getDb();
        if (holdsOrphans) {
          // Nothing of ours is in flight between cycles, so whatever is PROCESSING under our
          // id was left by the failed cycle; back in the queue it goes, attempts untouched.
          const released = await releaseClaims(db, workerId);
          holdsOrphans = false;
          if (released > 0) log(`gave back ${released} events claimed before the failure`);
        }
        const limited = held?.reason === "rate-limited" ? held : null;
        if (limited && Date.now() < limited.until) {
          await pause(limited.until - Date.now(), false);
          continue;
        }
        const summary = await processDueEvents(db, fetchPull, {
          rateLimitDelayMs: (retryAfterMs) => rateLimitDelayMs(retryAfterMs, limitedInARow + 1),
          ...options.processOptions,
          ...(limited ? { batchSize: 1 } : {}),
          workerId,
          log,
          stopping: () => !running,
        });
        if (consecutiveFailures > 0) log(`database reachable again after ${consecutiveFailures} failed cycles`);
        consecutiveFailures = 0;
        if (summary.claimed > 0)
          log(
            `claimed ${summary.claimed}: ${summary.done} stored, ${summary.retried} to retry, ${summary.failed} failed`,
          );
        if (summary.limitedUntil) {
          limitedInARow++;
          if (!limited)
            log(`the service is limiting requests; nothing is asked of it until ${summary.limitedUntil.toISOString()}`);
          held = { reason: "rate-limited", until: summary.limitedUntil.getTime() };
          // The Events page says so, and every other call of this process waits as well.
          recordServiceRateLimited(summary.limitedUntil);
          continue;
        }
        if (summary.unreachable > 0 && summary.fetched === 0 && held?.reason !== "unreachable") {
          held = { reason: "unreachable" };
          lastProbeAt = Date.now();
          log("the service is not answering; events wait, and one is tried now and then to see whether it is back");
        } else if (held && (summary.fetched > 0 || (limited && summary.claimed === 0))) {
          const over =
            held.reason === "rate-limited" ? "the service's rate limit is over" : "the service answers again";
          held = null;
          limitedInARow = 0;
          log(`${over}: ${await retryWaitingEventsNow(db)} waiting events are due now`);
          continue;
        }
        if (held?.reason === "unreachable" && Date.now() - lastProbeAt >= probeIntervalMs) {
          lastProbeAt = Date.now();
          if (await probeWithOneWaitingEvent(db)) continue;
        }
        if (summary.claimed > 0) continue; // there may be more waiting
      } catch (error) {
        holdsOrphans = true;
        consecutiveFailures++;
        failedCycles++;
        // One line per outage, then one every tenth failure: a long outage must not flood the log.
        if (consecutiveFailures === 1 || consecutiveFailures % 10 === 0) {
          log(
            `cycle failed (${consecutiveFailures} in a row): ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
      if (!running || (woken && consecutiveFailures === 0)) continue;
      const waitMs =
        consecutiveFailures === 0
          ? pollIntervalMs
          : Math.min(maxBackoffMs, pollIntervalMs * 2 ** Math.min(consecutiveFailures - 1, 10));
      await pause(waitMs, true);
    }
  })();

  return {
    workerId,
    get running() {
      return running;
    },
    get failedCycles() {
      return failedCycles;
    },
    wake,
    stop: async (graceMs = 10_000) => {
      running = false;
      wake();
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        done.then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs))),
      ]);
      clearTimeout(timer);
      // A cycle that outlasted the grace period finds nothing to settle afterwards: settling
      // only touches events still claimed under this id, and these are claimed by no one now.
      let released = 0;
      try {
        released = await releaseClaims(await getDb(), workerId);
      } catch (error) {
        log(
          `could not give back claims (they are released after the stale-claim timeout): ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      return { finished, released };
    },
  };
}
