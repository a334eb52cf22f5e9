import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitorings } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import type { ServiceConfig } from "@/lib/service/client";
import { listMonitorings } from "@/lib/service/monitorings-api";
import { fetchPullPayload } from "@/lib/service/pulls-api";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { linkStoredAccount } from "@/test/service-sandbox";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { bulkMonitoring } from "./bulk";
import { changePullMonitoring, enablePullMonitoring, refreshPullNow, stopPullMonitoring } from "./commands";

// Monitoring a pull through the service (the sandbox, over HTTP): our mirror follows only what
// the service accepted, and bad input is refused before any call.

const TEAM = "8d7c6b5a-4f3e-4d2c-9b1a-0f9e8d7c6b5a";
let database: TestDatabase;
let sandbox: Sandbox;
let service: ServiceConfig;
let staff: Awaited<ReturnType<typeof createStaff>>;
let pullId = "";

const linkAccount = (username: string) => linkStoredAccount(database.db, sandbox, service, username);

const monitoringCount = async () => (await listMonitorings(service)).value.monitorings.length;

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
  sandbox = await startSandbox({
    port: 0,
    clientId: "mon",
    clientSecret: "mon-secret",
    teamId: TEAM,
    webhookUrl: null,
    webhookSecret: null,
    seed: 5,
    pullCount: 12,
    speed: 0.0005,
    deliverOnStart: false,
  });
  service = {
    baseUrl: sandbox.baseUrl,
    teamId: TEAM,
    clientId: "mon",
    clientSecret: "mon-secret",
    timeoutMs: 2_000,
    retryBaseMs: 1,
  };
  pullId = await linkAccount("user_good");
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

describe("monitoring a pull", () => {
  it("refuses an interval under 30 days, or a bad one, before calling the service", async () => {
    const before = await monitoringCount();
    expect(
      await enablePullMonitoring(database.db, service, staff.manager, { pullId, every: 29, unit: "D" }),
    ).toMatchObject({ ok: false, code: "INVALID", message: "Monitoring can refresh at most every 30 days." });
    expect(
      await enablePullMonitoring(database.db, service, staff.manager, { pullId, every: "soon", unit: "M" }),
    ).toMatchObject({ ok: false, code: "INVALID" });
    expect(
      await enablePullMonitoring(database.db, service, staff.manager, { pullId, every: 2, unit: "W" }),
    ).toMatchObject({ ok: false, code: "INVALID" });
    expect(await monitoringCount()).toBe(before);
  });

  it("lets only managers and admins turn it on", async () => {
    expect(
      await enablePullMonitoring(database.db, service, staff.agent, { pullId, every: 1, unit: "M" }),
    ).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(
      await enablePullMonitoring(database.db, service, staff.manager, {
        pullId: "00000000-0000-4000-8000-000000000000",
        every: 1,
        unit: "M",
      }),
    ).toMatchObject({ ok: false, code: "NOT_FOUND" });
  });

  it("turns on, changes, refreshes and stops monitoring, mirroring the service's answers", async () => {
    const enabled = await enablePullMonitoring(database.db, service, staff.manager, { pullId, every: 1, unit: "M" });
    if (!enabled.ok) throw new Error(enabled.message);
    const row = async () =>
      (await database.db.select().from(monitorings).where(eq(monitorings.monitoringId, enabled.monitoringId)))[0];
    expect(await row()).toMatchObject({ status: "ACTIVE", interval: "P1M", initialPullId: pullId });
    expect((await row())?.nextPullDate).toBeInstanceOf(Date);

    expect(
      await changePullMonitoring(database.db, service, staff.admin, {
        pullId,
        monitoringId: enabled.monitoringId,
        every: 3,
        unit: "M",
      }),
    ).toEqual({ ok: true });
    expect((await row())?.interval).toBe("P3M");

    const refreshed = await refreshPullNow(database.db, service, staff.manager, {
      pullId,
      monitoringId: enabled.monitoringId,
    });
    expect(refreshed).toMatchObject({ ok: true, newPullId: expect.any(String) });

    expect(
      await stopPullMonitoring(database.db, service, staff.manager, { pullId, monitoringId: enabled.monitoringId }),
    ).toEqual({ ok: true });
    expect((await row())?.status).toBe("STOPPED");
    // The service refuses a refresh of a stopped monitoring: said plainly, and nothing changes.
    expect(
      await refreshPullNow(database.db, service, staff.manager, { pullId, monitoringId: enabled.monitoringId }),
    ).toMatchObject({ ok: false, message: "Monitoring is stopped for this account; turn it on first." });
    expect((await row())?.status).toBe("STOPPED");
  });

  it("passes on the service's refusal and records nothing when the pull is too old", async () => {
    const old = [...sandbox.state.pulls.values()].find(
      (p) => p.status === "SUCCESS" && !p.parent_pull_id && p.type === "PULLING_DATA",
    );
    if (!old) throw new Error("no seeded pull");
    sandbox.state.pulls.set(old.pull_id, { ...old, created_at: new Date(Date.now() - 400 * 86_400_000).toISOString() });
    await storePull(database.db, await fetchPullPayload(service, old.pull_id));
    const before = await database.db.select().from(monitorings);
    const result = await enablePullMonitoring(database.db, service, staff.manager, {
      pullId: old.pull_id,
      every: 1,
      unit: "Y",
    });
    expect(result, JSON.stringify(result)).toMatchObject({
      ok: false,
      message: expect.stringContaining("a pull this old"),
    });
    expect(await database.db.select().from(monitorings)).toEqual(before);
  });

  it("monitors a selection, counting what the service accepted and naming why it refused the rest", async () => {
    const fresh = await linkAccount("user_good");
    const old = [...sandbox.state.pulls.values()].find(
      (p) =>
        p.status === "SUCCESS" &&
        !p.parent_pull_id &&
        p.type === "PULLING_DATA" &&
        Date.now() - Date.parse(p.created_at) > 100 * 86_400_000,
    );
    if (!old) throw new Error("no old pull");
    expect(
      await bulkMonitoring(database.db, service, staff.agent, { pullIds: [fresh], turnOn: true, every: 1, unit: "M" }),
    ).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(
      await bulkMonitoring(database.db, service, staff.manager, {
        pullIds: [fresh],
        turnOn: true,
        every: 7,
        unit: "D",
      }),
    ).toMatchObject({ ok: false, code: "INVALID" });
    const on = await bulkMonitoring(database.db, service, staff.manager, {
      pullIds: [fresh, old.pull_id],
      turnOn: true,
      every: 1,
      unit: "M",
    });
    expect(on).toEqual({
      ok: true,
      done: 1,
      refused: 1,
      reasons: ["The service will not monitor a pull this old. Ask the consumer to link the account again."],
    });
    const off = await bulkMonitoring(database.db, service, staff.manager, {
      pullIds: [fresh, old.pull_id],
      turnOn: false,
    });
    expect(off).toMatchObject({ ok: true, done: 1, refused: 1, reasons: ["It is not monitored."] });
  });
});
