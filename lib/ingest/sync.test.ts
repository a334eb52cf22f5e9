import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pulls, pullVersions, syncRuns } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import type { ServiceConfig } from "@/lib/service/client";
import { fetchPullPayload } from "@/lib/service/pulls-api";
import { unwrapPull } from "@/lib/service/schemas";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { setFaults } from "@/test/sandbox-faults";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { isSyncDue, runSync, startSyncRun } from "./sync";

// Reconciliation against the sandbox over HTTP: pulls whose webhooks never came get stored.

const TEAM = "2c9d7e61-0b1a-4f3e-9d8c-7b6a5f4e3d2c";
let database: TestDatabase;
let sandbox: Sandbox;
let service: ServiceConfig;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandbox({
    port: 0,
    clientId: "sync-client",
    clientSecret: "sync-secret",
    teamId: TEAM,
    webhookUrl: null,
    webhookSecret: null,
    seed: 21,
    pullCount: 230,
    speed: 0.001,
    deliverOnStart: false,
  });
  service = {
    baseUrl: sandbox.baseUrl,
    teamId: TEAM,
    clientId: "sync-client",
    clientSecret: "sync-secret",
    timeoutMs: 2_000,
    retryBaseMs: 1,
    maxAttempts: 2,
  };
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

describe("reconciliation sync", () => {
  it("stores every pull the service lists, over several pages, and records its progress", async () => {
    expect(await isSyncDue(database.db, 60_000)).toBe(true);
    const start = await startSyncRun(database.db, "MANUAL");
    expect(start.started).toBe(true);
    const run = await runSync(database.db, service, start.run);
    expect(run).toMatchObject({ status: "DONE", total: 230, listed: 230, created: 230, updated: 0 });
    expect(await database.db.$count(pulls)).toBe(230);
    expect(await isSyncDue(database.db, 60_000)).toBe(false);
  });

  it("stores each listed pull as the service sent it, so the same pull fetched alone is no change", async () => {
    const [listed] = await database.db.select({ pullId: pulls.pullId, raw: pulls.raw }).from(pulls).limit(1);
    const payload = await fetchPullPayload(service, listed?.pullId ?? "");
    // The schemas fill in what a payload leaves out (arrays, nulls): a parsed copy would differ.
    expect(listed?.raw).toEqual(unwrapPull(payload));
    const stored = await storePull(database.db, payload, { fetchStartedAt: new Date() });
    expect(stored.outcome).toBe("unchanged");
    expect(await database.db.$count(pullVersions)).toBe(0);
  });

  it("asks only for pulls since the last good run, and finds nothing new twice", async () => {
    const start = await startSyncRun(database.db, "SCHEDULE");
    expect(start.run.since).toBeInstanceOf(Date);
    const run = await runSync(database.db, service, start.run);
    expect(run).toMatchObject({ status: "DONE", created: 0, updated: 0 });
  });

  it("runs one sync at a time, and a dead run does not block the next", async () => {
    const first = await startSyncRun(database.db, "MANUAL");
    const second = await startSyncRun(database.db, "MANUAL");
    expect(second).toMatchObject({ started: false, run: { id: first.run.id } });
    // The process running the first one dies: its heartbeat goes stale.
    await database.db
      .update(syncRuns)
      .set({ heartbeatAt: new Date(Date.now() - 10 * 60_000) })
      .where(eq(syncRuns.id, first.run.id));
    const third = await startSyncRun(database.db, "MANUAL");
    expect(third.started).toBe(true);
    const [dead] = await database.db.select().from(syncRuns).where(eq(syncRuns.id, first.run.id));
    expect(dead).toMatchObject({ status: "FAILED", error: "The process running this sync stopped." });
    await runSync(database.db, service, third.run);
  });

  it("ends as failed with the service's error when the service keeps failing", async () => {
    await setFaults(sandbox, { errorRate: 1 });
    try {
      const start = await startSyncRun(database.db, "MANUAL");
      const run = await runSync(database.db, service, start.run);
      expect(run.status).toBe("FAILED");
      expect(run.error).toContain("500");
      expect(run.finishedAt).toBeInstanceOf(Date);
    } finally {
      await setFaults(sandbox, { errorRate: 0 });
    }
  });
});
