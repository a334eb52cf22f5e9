import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pulls, webhookEvents } from "@/db/schema";
import type { ServiceConfig } from "@/lib/service/client";
import { isServiceUnreachable, resetServiceHealth } from "@/lib/service/health";
import { fetchPullPayload } from "@/lib/service/pulls-api";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { inboxByStatus, receiveEvents, waitForInbox } from "@/test/inbox-status";
import { setFaults } from "@/test/sandbox-faults";
import { MAX_EVENT_ATTEMPTS } from "./retry-policy";
import { runWorkerLoop } from "./worker-loop";

// The service is down for a while during ingestion: every fetch fails (the sandbox answers
// 500 to all of them). Events must wait, however many attempts that takes, never parked as
// failed; the health record must say the service is unreachable; and when the service is back
// the worker must catch up at once, not at the end of each event's backoff.

const TEAM = "7e1d2c3b-4a59-4687-9a8b-c0d1e2f3a4b5";
const PULLS = 12;
/** Far longer than the test: catching up must not come from backoffs running out. */
const RETRY_DELAY_MS = 10 * 60_000;

let database: TestDatabase;
let sandbox: Sandbox;
let service: ServiceConfig;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandbox({
    port: 0,
    clientId: "down",
    clientSecret: "down-secret",
    teamId: TEAM,
    webhookUrl: null,
    webhookSecret: null,
    seed: 5,
    pullCount: PULLS,
    speed: 0.001,
    deliverOnStart: false,
  });
  service = {
    baseUrl: sandbox.baseUrl,
    teamId: TEAM,
    clientId: "down",
    clientSecret: "down-secret",
    timeoutMs: 1_000,
    retryBaseMs: 1,
    maxAttempts: 1,
  };
  resetServiceHealth();
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

const byStatus = () => inboxByStatus(database.db);
const waitFor = (what: string, check: () => Promise<boolean> | boolean, ms?: number) =>
  waitForInbox(database.db, what, check, ms);

describe("the service down during ingestion", () => {
  it("keeps retrying while the service fails, and catches up as soon as it answers", { timeout: 90_000 }, async () => {
    await setFaults(sandbox, { errorRate: 1 });
    // Few events, so that the probe, which takes them in turn, soon passes the attempt limit on one.
    const ids = [...sandbox.state.pulls.keys()]
      .filter((id) => !sandbox.state.pulls.get(id)?.parent_pull_id)
      .slice(0, 3);
    await receiveEvents(database.db, ids, ["POLICIES_AVAILABLE", "COMPLETE"]);
    const log: string[] = [];
    const worker = runWorkerLoop({
      workerId: "worker-outage",
      getDb: async () => database.db,
      fetchPull: (pullId) => fetchPullPayload(service, pullId),
      pollIntervalMs: 10,
      probeIntervalMs: 20,
      processOptions: { retryDelayMs: () => RETRY_DELAY_MS },
      log: (line) => log.push(line),
    });

    // Every event tried and waiting; the probe keeps trying one, past the attempt limit.
    await waitFor("every event to be tried and one to pass the attempt limit", async () => {
      const counts = await byStatus();
      return counts.PENDING?.n === ids.length * 2 && (counts.PENDING?.most ?? 0) > MAX_EVENT_ATTEMPTS;
    });
    const during = await byStatus();
    expect(during.DONE).toBeUndefined();
    expect(during.FAILED).toBeUndefined();
    expect(await database.db.select({ id: pulls.pullId }).from(pulls)).toHaveLength(0);
    expect(isServiceUnreachable()).toBe(true);
    const [lastError] = await database.db.select({ error: webhookEvents.lastError }).from(webhookEvents).limit(1);
    expect(lastError?.error).toMatch(/500/);

    // The service comes back: everything is stored within the wait, not at the end of a 10-minute backoff.
    const backAt = Date.now();
    await setFaults(sandbox, { errorRate: 0 });
    await waitFor("every event to be done", async () => (await byStatus()).DONE?.n === ids.length * 2);
    const caughtUpMs = Date.now() - backAt;
    await worker.stop(5_000);

    expect(await database.db.select({ id: pulls.pullId }).from(pulls)).toHaveLength(ids.length);
    expect(isServiceUnreachable()).toBe(false);
    expect(log.some((line) => line.includes("the service answers again"))).toBe(true);
    console.info(
      `[service outage] ${ids.length * 2} events waited through ${during.PENDING?.most} probe attempts; all stored ${caughtUpMs} ms after the service returned`,
    );
  });
});
