import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pulls, webhookEvents } from "@/db/schema";
import type { ServiceConfig } from "@/lib/service/client";
import { fetchPullPayload } from "@/lib/service/pulls-api";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { receiveWebhook } from "./receive-webhook";
import { runWorkerLoop, type WorkerLoop } from "./worker-loop";

// A graceful stop (what SIGTERM does in the app): the worker stops claiming, settles what it
// can within the grace period and gives the rest back to the queue, so nothing stays
// PROCESSING under its id waiting for the stale-claim timeout, and nothing is lost.

const TEAM = "7e1d2c3b-4a59-4687-9a8b-c0d1e2f3a4b5";

let database: TestDatabase;
let sandbox: Sandbox;
let service: ServiceConfig;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandbox({
    port: 0,
    clientId: "stop",
    clientSecret: "stop-secret",
    teamId: TEAM,
    webhookUrl: null,
    webhookSecret: null,
    seed: 8,
    pullCount: 40,
    speed: 0.001,
    deliverOnStart: false,
  });
  service = {
    baseUrl: sandbox.baseUrl,
    teamId: TEAM,
    clientId: "stop",
    clientSecret: "stop-secret",
    timeoutMs: 5_000,
    retryBaseMs: 1,
    maxAttempts: 1,
  };
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

const BATCH = 5;
const startWorker = (
  workerId: string,
  fetchPull: (pullId: string) => Promise<unknown> = (pullId) => fetchPullPayload(service, pullId),
): WorkerLoop =>
  runWorkerLoop({
    workerId,
    getDb: async () => database.db,
    fetchPull,
    pollIntervalMs: 20,
    processOptions: { batchSize: BATCH },
  });
const counts = async () => {
  const rows = await database.db
    .select({ status: webhookEvents.status, n: sql<number>`count(*)::int` })
    .from(webhookEvents)
    .groupBy(webhookEvents.status);
  return Object.fromEntries(rows.map((r) => [r.status, r.n])) as Record<string, number | undefined>;
};
const heldBy = async (workerId: string) =>
  (
    await database.db
      .select({ id: webhookEvents.id })
      .from(webhookEvents)
      .where(and(eq(webhookEvents.status, "PROCESSING"), eq(webhookEvents.lockedBy, workerId)))
  ).length;
const waitFor = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 600 && !(await check()); i++) await new Promise((r) => setTimeout(r, 25));
};

describe("stopping the worker", () => {
  it(
    "gives back what it holds when the grace period runs out, loses nothing, and another worker finishes",
    { timeout: 60_000 },
    async () => {
      const ids = [...sandbox.state.pulls.keys()].filter((id) => !sandbox.state.pulls.get(id)?.parent_pull_id);
      for (const pullId of ids)
        await receiveWebhook(
          database.db,
          JSON.stringify({ event_type: "COMPLETE", pull_id: pullId, status: "SUCCESS", data: {} }),
          { webhookSecret: null, signatureHeader: null },
        );
      // The first cycle's fetches go through; every later one hangs until the test lets it go,
      // so the stop surely comes while the worker holds claims it cannot settle in time.
      let fetches = 0;
      let letGo: () => void = () => {};
      const gate = new Promise<void>((resolve) => (letGo = resolve));
      const first = startWorker("worker-first", async (pullId) => {
        if (++fetches > BATCH) await gate;
        return fetchPullPayload(service, pullId);
      });
      await waitFor(async () => (await counts()).DONE === BATCH && (await heldBy("worker-first")) === BATCH);
      expect(await heldBy("worker-first"), "the worker holds claims when it is stopped").toBe(BATCH);
      const stopped = await first.stop(50);

      expect(stopped).toEqual({ finished: false, released: BATCH });
      expect(await heldBy("worker-first")).toBe(0);
      const afterStop = await counts();
      expect(afterStop).toEqual({ DONE: BATCH, PENDING: ids.length - BATCH });
      // Given back without counting as an attempt: nothing was decided about those events.
      const [given] = await database.db
        .select({ most: sql<number>`max(${webhookEvents.attempts})::int` })
        .from(webhookEvents)
        .where(eq(webhookEvents.status, "PENDING"));
      expect(given?.most).toBe(0);

      // The cut-short cycle ends later and finds nothing of its own to settle.
      letGo();
      await waitFor(async () => (await database.db.select({ id: pulls.pullId }).from(pulls)).length === 2 * BATCH);
      expect(await counts()).toEqual({ DONE: BATCH, PENDING: ids.length - BATCH });

      // A worker with time to finish its cycle: nothing to give back, everything done.
      const second = startWorker("worker-second");
      await waitFor(async () => (await counts()).DONE === ids.length);
      expect(await second.stop(10_000)).toEqual({ finished: true, released: 0 });
      expect(await counts()).toEqual({ DONE: ids.length });
      expect(await database.db.select({ id: pulls.pullId }).from(pulls)).toHaveLength(ids.length);
    },
  );

  it(
    "starts no more of its claim once stopping: the pulls in flight finish, the rest are given back",
    { timeout: 60_000 },
    async () => {
      const ids = [...sandbox.state.pulls.keys()]
        .filter((id) => !sandbox.state.pulls.get(id)?.parent_pull_id)
        .slice(0, 12);
      for (const pullId of ids)
        await receiveWebhook(
          database.db,
          JSON.stringify({ event_type: "DATA_UPDATED", pull_id: pullId, status: "SUCCESS", data: { n: 1 } }),
          { webhookSecret: null, signatureHeader: null },
        );
      let started = 0;
      let letGo: () => void = () => {};
      const gate = new Promise<void>((resolve) => (letGo = resolve));
      const worker = runWorkerLoop({
        workerId: "worker-third",
        getDb: async () => database.db,
        fetchPull: async (pullId) => {
          started++;
          await gate;
          return fetchPullPayload(service, pullId);
        },
        pollIntervalMs: 20,
        processOptions: { batchSize: ids.length, concurrency: 2 },
      });
      await waitFor(async () => started === 2 && (await heldBy("worker-third")) === ids.length);
      const stopping = worker.stop(10_000);
      letGo();
      // The two in flight are stored; the ten never started are given back, untried.
      expect(await stopping).toEqual({ finished: true, released: ids.length - 2 });
      expect(started).toBe(2);
      expect(await heldBy("worker-third")).toBe(0);
      expect((await counts()).PENDING).toBe(ids.length - 2);
    },
  );
});
