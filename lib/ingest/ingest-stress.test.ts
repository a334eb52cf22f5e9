import { inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pulls, webhookEvents } from "@/db/schema";
import type { ServiceConfig } from "@/lib/service/client";
import { fetchPullPayload } from "@/lib/service/pulls-api";
import { contentHash } from "@/lib/pulls/projection";
import { unwrapPull } from "@/lib/service/schemas";
import { createRandom } from "@/sandbox/data/random";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { setFaults } from "@/test/sandbox-faults";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { processDueEvents } from "./process-events";
import { receiveWebhook } from "./receive-webhook";

// Ingestion under a bad day: 2,000 webhooks for 500 pulls, 20% of them duplicates, in shuffled
// order; the service fails 20% of fetches and never answers 5%; data changes mid-run; the first
// worker stops, a second freezes holding claims and wakes up late with old data, and two more
// take over. Afterwards every pull must be stored exactly once with its latest data, and no
// event may be lost, failed or stuck.

const TEAM = "7e1d2c3b-4a59-4687-9a8b-c0d1e2f3a4b5";
const PULLS = 500;
const WEBHOOKS = 2_000;
const DUPLICATES = 400; // 20%
const CHANGED = 50; // pulls whose data changes mid-run, besides those the dying worker holds

let database: TestDatabase;
let sandbox: Sandbox;
let service: ServiceConfig;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandbox({
    port: 0,
    clientId: "stress",
    clientSecret: "stress-secret",
    teamId: TEAM,
    webhookUrl: null,
    webhookSecret: null,
    seed: 99,
    pullCount: PULLS,
    speed: 0.001,
    deliverOnStart: false,
  });
  service = {
    baseUrl: sandbox.baseUrl,
    teamId: TEAM,
    clientId: "stress",
    clientSecret: "stress-secret",
    timeoutMs: 1_000,
    retryBaseMs: 1,
    maxAttempts: 2,
  };
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

type Worker = { stop: () => void; done: Promise<void> };

/** A worker loop like the app's, with retries due almost at once so the test stays short. */
function runWorker(workerId: string, fetchPull: (pullId: string) => Promise<unknown>): Worker {
  let running = true;
  const done = (async () => {
    while (running) {
      const summary = await processDueEvents(database.db, fetchPull, {
        workerId,
        batchSize: 40,
        staleAfterMs: 1_500,
        retryDelayMs: () => 20,
      });
      if (summary.claimed === 0) await new Promise((r) => setTimeout(r, 25));
    }
  })();
  return { stop: () => (running = false), done };
}

describe("ingestion under duplicates, reordering, faults and a dying worker", () => {
  it("stores every pull once with its latest data, and settles every event", { timeout: 240_000 }, async () => {
    const random = createRandom(2026);
    const ids = [...sandbox.state.pulls.keys()];

    // 1,600 distinct events (three per pull, and a DATA_UPDATED for 100 pulls) and 400
    // duplicates of them, shuffled.
    const distinct: string[] = [];
    ids.forEach((pullId, index) => {
      for (const [n, type] of ["AUTH_STATUS", "POLICIES_AVAILABLE", "COMPLETE"].entries()) {
        distinct.push(
          JSON.stringify({
            event_type: type,
            pull_id: pullId,
            status: "SUCCESS",
            data: type === "AUTH_STATUS" ? { auth_status: "SUCCESS", sequence: n + 1 } : {},
          }),
        );
      }
      if (index < 100)
        distinct.push(
          JSON.stringify({
            event_type: "DATA_UPDATED",
            pull_id: pullId,
            status: "SUCCESS",
            data: { updates: [{ n: index }] },
          }),
        );
    });
    const duplicates = Array.from({ length: DUPLICATES }, () => random.pick(distinct));
    const webhooks = [...distinct, ...duplicates].sort(() => random.next() - 0.5);
    expect(webhooks).toHaveLength(WEBHOOKS);

    await setFaults(sandbox, { errorRate: 0.2, timeoutRate: 0.05 });
    const workerA = runWorker("worker-a", (id) => fetchPullPayload(service, id));
    const receive = async (bodies: string[]) => {
      for (let i = 0; i < bodies.length; i += 50) {
        const results = await Promise.all(
          bodies
            .slice(i, i + 50)
            .map((body) => receiveWebhook(database.db, body, { webhookSecret: null, signatureHeader: null })),
        );
        for (const result of results) expect([200, 202]).toContain(result.status);
      }
    };
    await receive(webhooks.slice(0, WEBHOOKS / 2));
    workerA.stop();
    await workerA.done;

    // Worker Z claims a batch, fetches, then freezes (a crash, a long pause) holding its claims.
    // It wakes up only at the very end, with the data as it was before the change below.
    let wakeZ: () => void = () => {};
    const frozen = new Promise<void>((resolve) => (wakeZ = resolve));
    const heldByZ = new Set<string>();
    const beforeChange = new Map<string, unknown>();
    const workerZ = processDueEvents(
      database.db,
      async (pullId) => {
        const payload = await fetchPullPayload(service, pullId);
        heldByZ.add(pullId);
        await frozen;
        return beforeChange.get(pullId) ?? payload;
      },
      // Every pull of its claim in flight at once, so that all of its fetches start (and see the
      // data as it was) before it freezes.
      { workerId: "worker-z", batchSize: 40, concurrency: 40, retryDelayMs: () => 20 },
    );
    while (heldByZ.size === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 300)); // let the rest of its fetches come in

    // The account data changes at the service (for the pulls Z holds, and 50 more); each change
    // is announced by a new event among the second half of the deliveries.
    const changed = new Set([...heldByZ, ...ids.slice(0, CHANGED)]);
    for (const id of changed) {
      const pull = sandbox.state.pulls.get(id);
      if (!pull) continue;
      beforeChange.set(id, { success: true, pull: sandbox.context.served(pull) });
      sandbox.state.pulls.set(id, { ...pull, first_name: `${String(pull.first_name)} Updated` });
    }
    const announcements = [...changed].map((pullId) =>
      JSON.stringify({
        event_type: "DATA_UPDATED",
        pull_id: pullId,
        status: "SUCCESS",
        data: { updates: ["first_name"] },
      }),
    );
    const workers = [
      runWorker("worker-b", (id) => fetchPullPayload(service, id)),
      runWorker("worker-c", (id) => fetchPullPayload(service, id)),
    ];
    await receive([...webhooks.slice(WEBHOOKS / 2), ...announcements].sort(() => random.next() - 0.5));

    const deadline = Date.now() + 200_000;
    for (;;) {
      const [open] = await database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(webhookEvents)
        .where(inArray(webhookEvents.status, ["PENDING", "PROCESSING"]));
      if ((open?.n ?? 0) === 0 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    for (const worker of workers) worker.stop();
    await Promise.all(workers.map((w) => w.done));
    // Z wakes up, long after its claims were taken over, and tries to write its old data.
    wakeZ();
    await workerZ;
    await setFaults(sandbox, { errorRate: 0, timeoutRate: 0 });

    const byStatus = await database.db
      .select({ status: webhookEvents.status, n: sql<number>`count(*)::int` })
      .from(webhookEvents)
      .groupBy(webhookEvents.status);
    const failures = await database.db
      .select({ error: webhookEvents.lastError })
      .from(webhookEvents)
      .where(sql`${webhookEvents.status} <> 'DONE'`)
      .limit(5);
    expect(byStatus, JSON.stringify(failures)).toEqual([{ status: "DONE", n: distinct.length + announcements.length }]);

    const stored = await database.db
      .select({ pullId: pulls.pullId, firstName: pulls.firstName, contentHash: pulls.contentHash })
      .from(pulls);
    expect(stored).toHaveLength(PULLS);
    const storedById = new Map(stored.map((row) => [row.pullId, row]));
    for (const id of ids) {
      const latest = unwrapPull(await fetchPullPayload(service, id));
      expect(storedById.get(id)?.contentHash, id).toBe(contentHash(latest));
    }
    for (const id of changed) expect(storedById.get(id)?.firstName).toMatch(/ Updated$/);
  });
});
