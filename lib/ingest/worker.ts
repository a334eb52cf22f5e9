import "server-only";
import { randomUUID } from "node:crypto";
import { getDb } from "@/db/client";
import { env } from "@/lib/env";
import { fetchPullPayload } from "@/lib/service/pulls-api";
import { processDueEvents, releaseClaims } from "./process-events";

// The in-process worker: woken at once by the webhook route, and polling as a fallback so
// that retries come due and events from other instances are picked up.

const POLL_INTERVAL_MS = 1_000;

type WorkerState = { running: boolean; wake: () => void; stop: () => Promise<void> };
const globalWorker = globalThis as unknown as { __coverdeskWorker?: WorkerState };

export function wakeWorker(): void {
  globalWorker.__coverdeskWorker?.wake();
}

export function startWorker(): void {
  if (globalWorker.__coverdeskWorker?.running) return; // dev reloads must not start a second one
  const workerId = `worker-${randomUUID().slice(0, 8)}`;
  const config = env();
  const log = (message: string) => console.info(`[ingest ${workerId}] ${message}`);
  let wakeUp: (() => void) | null = null;
  let woken = false;

  const state: WorkerState = {
    running: true,
    wake: () => {
      woken = true;
      wakeUp?.();
    },
    stop: async () => {
      state.running = false;
      state.wake();
      await loop;
      await releaseClaims(await getDb(), workerId);
    },
  };
  globalWorker.__coverdeskWorker = state;

  const loop = (async () => {
    while (state.running) {
      woken = false;
      try {
        const db = await getDb();
        const summary = await processDueEvents(db, (pullId) => fetchPullPayload(config.service, pullId), { workerId, log });
        if (summary.claimed > 0) {
          log(`claimed ${summary.claimed}: ${summary.done} stored, ${summary.retried} to retry, ${summary.failed} failed`);
          continue; // there may be more waiting
        }
      } catch (error) {
        log(`cycle failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (!state.running || woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, POLL_INTERVAL_MS);
        wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeUp = null;
    }
  })();

  const shutdown = () => {
    void state.stop().finally(() => process.exit(0));
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
}
