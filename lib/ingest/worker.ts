import "server-only";
import { randomUUID } from "node:crypto";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { fetchPullPayload } from "@/lib/service/pulls-api";
import { runWorkerLoop, type StopResult, type WorkerLoop } from "./worker-loop";

// The in-process worker: woken at once by the webhook route, and polling as a fallback so
// that retries come due and events from other instances are picked up. The loop itself is in
// worker-loop.ts; this file gives it the app's database and service, one per process.

/**
 * A fetch waits between its own retries no longer than this: it holds its events' claims while
 * it sleeps. A longer Retry-After ends the fetch, and the loop waits it out holding nothing.
 */
const FETCH_MAX_WAIT_MS = 1_000;

const globalWorker = globalThis as unknown as { __coverdeskWorker?: WorkerLoop };

export function wakeWorker(): void {
  globalWorker.__coverdeskWorker?.wake();
}

export function startWorker(): void {
  if (globalWorker.__coverdeskWorker?.running) return; // dev reloads must not start a second one
  const workerId = `worker-${randomUUID().slice(0, 8)}`;
  const config = env();
  const service = { ...config.service, maxWaitMs: FETCH_MAX_WAIT_MS };
  globalWorker.__coverdeskWorker = runWorkerLoop({
    workerId,
    getDb,
    fetchPull: (pullId) => fetchPullPayload(service, pullId),
    log: (message) => console.info(`[ingest ${workerId}] ${message}`),
  });
}

/** Stops this process's worker (see WorkerLoop.stop); null when none was running. */
export async function stopWorker(graceMs: number): Promise<StopResult | null> {
  const worker = globalWorker.__coverdeskWorker;
  if (!worker?.running) return null;
  return worker.stop(graceMs);
}
