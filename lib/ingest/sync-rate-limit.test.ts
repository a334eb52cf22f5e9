import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { pulls } from "@/db/schema";
import type { ServiceConfig } from "@/lib/service/client";
import { resetServiceHealth } from "@/lib/service/health";
import type { Sandbox } from "@/sandbox/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { controlSandbox, startServiceSandbox } from "@/test/service-sandbox";
import { runSync, startSyncRun } from "./sync";

// The service rate-limits the reconciliation sync: the run waits as Retry-After says and goes
// on, asking nothing sooner; a wait past the run's budget ends it with the reason, and the next
// run covers the same ground.

const TEAM = "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b";
const PULLS = 12;

let database: TestDatabase;
let sandbox: Sandbox;
let service: ServiceConfig;

beforeAll(async () => {
  database = await createTestDatabase();
  const started = await startServiceSandbox("sync-limit", { teamId: TEAM, seed: 23, pullCount: PULLS });
  sandbox = started.sandbox;
  // No wait inside the client: every 429 reaches the sync, which must wait it out itself.
  service = { ...started.service, maxWaitMs: 0 };
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});
beforeEach(async () => {
  resetServiceHealth();
  await controlSandbox(sandbox, "reset", {});
});

describe("the sync under the service's rate limit", () => {
  it("waits as Retry-After says and finishes the run", async () => {
    // Every request is refused until the test lifts the limit, after the first refusal.
    await controlSandbox(sandbox, "rate-limit", { retryAfterSeconds: 1 });
    const start = await startSyncRun(database.db, "MANUAL");
    const running = runSync(database.db, service, start.run);
    const deadline = Date.now() + 20_000;
    while (sandbox.state.rateLimit.refused < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await controlSandbox(sandbox, "rate-limit", { off: true });

    expect(await running).toMatchObject({ status: "DONE", listed: PULLS, created: PULLS, error: null });
    expect(await database.db.$count(pulls)).toBe(PULLS);
    expect(sandbox.state.rateLimit).toMatchObject({ refused: 1, early: 0 });
  });

  it("stops with the reason when the wait is past its budget, and the next run starts from the same point", async () => {
    await controlSandbox(sandbox, "rate-limit", { retryAfterSeconds: 3_600 });
    const first = await startSyncRun(database.db, "MANUAL");
    const stopped = await runSync(database.db, service, first.run);
    expect(stopped.status).toBe("FAILED");
    expect(stopped.error).toMatch(/rate-limiting Coverdesk .*asked to wait 3600 s.*next run/);
    expect(sandbox.state.rateLimit.refused).toBe(1);

    resetServiceHealth(); // an hour later
    await controlSandbox(sandbox, "rate-limit", { off: true });
    const next = await startSyncRun(database.db, "SCHEDULE");
    expect(next.run.since).toEqual(first.run.since);
    expect(await runSync(database.db, service, next.run)).toMatchObject({ status: "DONE", error: null });
  });
});
