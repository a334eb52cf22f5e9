import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, pullArchiveWrites, pulls } from "@/db/schema";
import { runSync, startSyncRun } from "@/lib/ingest/sync";
import { storePull } from "@/lib/ingest/store-pull";
import type { ServiceConfig } from "@/lib/service/client";
import { fetchPullPayload, getPull, setPullArchived } from "@/lib/service/pulls-api";
import type { Sandbox } from "@/sandbox/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { setFaults } from "@/test/sandbox-faults";
import { startServiceSandbox } from "@/test/service-sandbox";
import { createStaff } from "@/test/workflow-fixture";
import { archivePull, retryArchiveWrites } from "./archive";

// Archiving in Coverdesk is written back to the service (PATCH /pulls/{id} {is_archived}), over
// HTTP against the sandbox: told at once, kept here when the service cannot be told and told
// again by the sync, and a change made at the service shows here once it is fetched.

const TEAM = "0a3b5c7d-9e1f-4a2b-8c4d-6e8f0a2b4c6d";
let database: TestDatabase;
let sandbox: Sandbox;
let service: ServiceConfig;
let staff: Awaited<ReturnType<typeof createStaff>>;
let ids: string[] = [];

const local = async (pullId: string) =>
  (await database.db.select({ archived: pulls.isArchived }).from(pulls).where(eq(pulls.pullId, pullId)))[0]?.archived;
/** The stored payload's flag: what the service was last seen to hold. */
const stored = async (pullId: string) =>
  (
    (await database.db.select({ raw: pulls.raw }).from(pulls).where(eq(pulls.pullId, pullId)))[0]?.raw as {
      is_archived?: boolean;
    }
  )?.is_archived;
const atService = async (pullId: string) => (await getPull(service, pullId)).value.is_archived;
const pending = async (pullId: string) =>
  (await database.db.select().from(pullArchiveWrites).where(eq(pullArchiveWrites.pullId, pullId)))[0] ?? null;
const fetchAndStore = async (pullId: string) => storePull(database.db, await fetchPullPayload(service, pullId));

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
  ({ sandbox, service } = await startServiceSandbox("archive", { teamId: TEAM, seed: 61, pullCount: 8 }));
  service = { ...service, maxAttempts: 1 };
  ids = [...sandbox.state.pulls.values()]
    .filter((p) => !p.parent_pull_id && !p.is_archived)
    .map((p) => p.pull_id)
    .slice(0, 5);
  for (const id of ids) await fetchAndStore(id);
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

describe("archiving a linked account", () => {
  it("archives here and at the service, records who did it, and restores the same way", async () => {
    const pullId = ids[0] ?? "";
    const archived = await archivePull(database.db, service, staff.manager, { pullId, archived: "true" });
    expect(archived).toMatchObject({ ok: true, archived: true, outcome: "told" });
    expect(await local(pullId)).toBe(true);
    expect(await atService(pullId)).toBe(true);
    expect(await pending(pullId)).toBeNull();
    expect(await stored(pullId), "fetched again once told").toBe(true);
    const audit = await database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.pullId, pullId), eq(auditEvents.action, "PULL_ARCHIVED")));
    expect(audit).toMatchObject([{ actorId: staff.manager.id, details: { archived: true } }]);

    expect(await archivePull(database.db, service, staff.admin, { pullId, archived: "false" })).toMatchObject({
      ok: true,
      outcome: "told",
    });
    expect(await local(pullId)).toBe(false);
    expect(await atService(pullId)).toBe(false);
  });

  it("refuses agents, unknown pulls and anything but archive or restore, changing nothing", async () => {
    const pullId = ids[1] ?? "";
    expect(await archivePull(database.db, service, staff.agent, { pullId, archived: "true" })).toMatchObject({
      ok: false,
    });
    expect(
      await archivePull(database.db, service, staff.admin, { pullId: crypto.randomUUID(), archived: "true" }),
    ).toMatchObject({ ok: false, code: "NOT_FOUND" });
    for (const bad of ["yes", "", undefined, "TRUE"])
      expect(await archivePull(database.db, service, staff.admin, { pullId, archived: bad })).toMatchObject({
        ok: false,
        code: "INVALID",
      });
    expect(await local(pullId)).toBe(false);
    expect(await atService(pullId)).toBe(false);
    expect(await pending(pullId)).toBeNull();
  });

  it("keeps the archive when the service cannot be told, against a fetched older flag, until the sync tells it", async () => {
    const pullId = ids[2] ?? "";
    await setFaults(sandbox, { errorRate: 1 });
    try {
      const result = await archivePull(database.db, service, staff.manager, { pullId, archived: "true" });
      expect(result).toMatchObject({ ok: true, outcome: "waiting" });
      expect(result.ok && result.message).toMatch(/could not be told yet/);
    } finally {
      await setFaults(sandbox, { errorRate: 0 });
    }
    expect(await local(pullId)).toBe(true);
    expect(await pending(pullId)).toMatchObject({
      archived: true,
      attempts: 1,
      lastError: expect.stringMatching(/500/),
    });
    expect(await atService(pullId)).toBe(false);

    // A webhook's fetch brings a changed pull with the service's older flag: the agency's decision stays.
    Object.assign(sandbox.state.pulls.get(pullId) ?? {}, { phone: "555-0100" });
    expect(await fetchAndStore(pullId)).toMatchObject({ outcome: "updated" });
    expect(await local(pullId)).toBe(true);

    // The sync tells the service first (once the write is due), then lists pulls that agree.
    await database.db
      .update(pullArchiveWrites)
      .set({ nextAttemptAt: new Date(Date.now() - 1_000) })
      .where(eq(pullArchiveWrites.pullId, pullId));
    const start = await startSyncRun(database.db, "MANUAL");
    expect(await runSync(database.db, service, start.run)).toMatchObject({ status: "DONE" });
    expect(await atService(pullId)).toBe(true);
    expect(await pending(pullId)).toBeNull();
    expect(await local(pullId)).toBe(true);
  });

  it("waits for a failed write's time before trying again", async () => {
    const pullId = ids[3] ?? "";
    await setFaults(sandbox, { errorRate: 1 });
    try {
      await archivePull(database.db, service, staff.manager, { pullId, archived: "true" });
    } finally {
      await setFaults(sandbox, { errorRate: 0 });
    }
    expect(await retryArchiveWrites(database.db, service)).toEqual({ told: 0, waiting: 0, refused: 0 });
    expect(await atService(pullId)).toBe(false);
    await database.db
      .update(pullArchiveWrites)
      .set({ nextAttemptAt: new Date(Date.now() - 1_000) })
      .where(eq(pullArchiveWrites.pullId, pullId));
    expect(await retryArchiveWrites(database.db, service)).toEqual({ told: 1, waiting: 0, refused: 0 });
    expect(await atService(pullId)).toBe(true);
  });

  it("shows an archive changed at the service once the pull is fetched", async () => {
    const pullId = ids[4] ?? "";
    await setPullArchived(service, pullId, true); // on the service's dashboard, say
    await fetchAndStore(pullId);
    expect(await local(pullId)).toBe(true);
    await setPullArchived(service, pullId, false);
    await fetchAndStore(pullId);
    expect(await local(pullId)).toBe(false);
  });

  it("keeps the archive here when the service refuses it for good, and stops asking", async () => {
    const pullId = ids[1] ?? "";
    const served = sandbox.state.pulls.get(pullId);
    sandbox.state.pulls.delete(pullId); // the service no longer knows it: 404 NOT_FOUND
    try {
      const result = await archivePull(database.db, service, staff.admin, { pullId, archived: "true" });
      expect(result).toMatchObject({ ok: true, outcome: "refused" });
      expect(await pending(pullId)).toMatchObject({
        nextAttemptAt: null,
        lastError: expect.stringMatching(/NOT_FOUND/),
      });
      expect(await retryArchiveWrites(database.db, service)).toEqual({ told: 0, waiting: 0, refused: 0 });
    } finally {
      if (served) sandbox.state.pulls.set(pullId, served);
    }
    expect(await local(pullId)).toBe(true);
  });
});
