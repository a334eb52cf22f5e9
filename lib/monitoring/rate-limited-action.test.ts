import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitorings } from "@/db/schema";
import type { ServiceConfig } from "@/lib/service/client";
import { resetServiceHealth } from "@/lib/service/health";
import type { Sandbox } from "@/sandbox/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { controlSandbox, linkStoredAccount, startServiceSandbox } from "@/test/service-sandbox";
import { createStaff } from "@/test/workflow-fixture";
import { enablePullMonitoring } from "./commands";

// A person turns monitoring on while the service is rate-limiting Coverdesk for 40 seconds:
// the action must not hang until then, nor retry at once, but answer with when to try again.

const TEAM = "4d3c2b1a-0f9e-4d8c-8b7a-6f5e4d3c2b1a";
let database: TestDatabase;
let sandbox: Sandbox;
let service: ServiceConfig;
let staff: Awaited<ReturnType<typeof createStaff>>;
let pullId = "";

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
  ({ sandbox, service } = await startServiceSandbox("limited-action", { teamId: TEAM, seed: 9 }));
  pullId = await linkStoredAccount(database.db, sandbox, service, "user_good");
  resetServiceHealth();
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

describe("a page action while the service rate-limits", () => {
  it("answers at once with the wait the service gave, and changes nothing", async () => {
    await controlSandbox(sandbox, "rate-limit", { retryAfterSeconds: 40 });
    // The app's own ceiling on waiting (no maxWaitMs in its configuration).
    const result = await enablePullMonitoring(database.db, service, staff.manager, { pullId, every: 1, unit: "M" });
    expect(result).toEqual({
      ok: false,
      code: "CONFLICT",
      message: "The service is limiting requests; try again in 40 s.",
    });
    expect(await database.db.$count(monitorings)).toBe(0);
    expect(sandbox.state.rateLimit).toMatchObject({ refused: 1, early: 0 });

    // Asked again straight away: refused without a request, with the time that is left.
    const again = await enablePullMonitoring(database.db, service, staff.manager, { pullId, every: 1, unit: "M" });
    expect(again).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^The service is limiting requests; try again in (3\d|40) s\.$/),
    });
    expect(sandbox.state.rateLimit.refused).toBe(1);
  });
});
