import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, pulls, users } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import { generatePulls } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";

import { assignPulls } from "./assignment";
import { setPullStage } from "./funnel";

// Assignment and the funnel, with their permissions, stale forms and audit trail.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;
let ids: string[];
const row = async (pullId: string) => (await database.db.select().from(pulls).where(eq(pulls.pullId, pullId)))[0];
const auditCount = async () =>
  (await database.db.select({ n: sql<number>`count(*)::int` }).from(auditEvents))[0]?.n ?? 0;

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
  const seeded = generatePulls(8, 12, new Date()).filter((p) => !p.parent_pull_id);
  for (const pull of seeded) await storePull(database.db, pull);
  ids = seeded.map((p) => p.pull_id);
});
afterAll(async () => {
  await database?.close();
});

describe("assignment", () => {
  it("lets a manager assign a selection to an agent, all in one go, with one audit entry per pull", async () => {
    const before = await auditCount();
    const result = await assignPulls(database.db, staff.manager, {
      pullIds: [ids[0] ?? "", ids[1] ?? ""],
      assigneeId: staff.agent.id,
    });
    expect(result).toEqual({ ok: true, changed: 2 });
    expect(await row(ids[0] ?? "")).toMatchObject({ assigneeId: staff.agent.id, assigneeSeenAt: null });
    expect(await auditCount()).toBe(before + 2);
    // Assigning again to the same person changes nothing and records nothing.
    expect(
      await assignPulls(database.db, staff.manager, { pullIds: [ids[0] ?? ""], assigneeId: staff.agent.id }),
    ).toEqual({ ok: true, changed: 0 });
    expect(await auditCount()).toBe(before + 2);
  });

  it("lets an agent take an unassigned pull, but not give pulls to others or take someone else's", async () => {
    expect(
      await assignPulls(database.db, staff.otherAgent, { pullIds: [ids[2] ?? ""], assigneeId: staff.otherAgent.id }),
    ).toEqual({ ok: true, changed: 1 });
    expect(await row(ids[2] ?? "")).toMatchObject({ assigneeId: staff.otherAgent.id });
    expect((await row(ids[2] ?? ""))?.assigneeSeenAt).toBeInstanceOf(Date);
    expect(
      await assignPulls(database.db, staff.agent, { pullIds: [ids[3] ?? ""], assigneeId: staff.otherAgent.id }),
    ).toMatchObject({ ok: false, code: "FORBIDDEN" });
    // A pull assigned to another agent is invisible to this one: answered as not found.
    expect(
      await assignPulls(database.db, staff.agent, { pullIds: [ids[2] ?? ""], assigneeId: staff.agent.id }),
    ).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect(await row(ids[2] ?? "")).toMatchObject({ assigneeId: staff.otherAgent.id });
  });

  it("changes none of a selection when one pull is refused", async () => {
    const result = await assignPulls(database.db, staff.agent, {
      pullIds: [ids[4] ?? "", ids[2] ?? ""],
      assigneeId: staff.agent.id,
    });
    expect(result).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect(await row(ids[4] ?? "")).toMatchObject({ assigneeId: null });
  });

  it("refuses an unknown or inactive assignee, a bad id and a stale form, changing nothing", async () => {
    expect(
      await assignPulls(database.db, staff.manager, {
        pullIds: [ids[5] ?? ""],
        assigneeId: "00000000-0000-4000-8000-000000000000",
      }),
    ).toMatchObject({ ok: false, code: "INVALID", field: "assigneeId" });
    const [gone] = await database.db
      .insert(users)
      .values({ email: "gone@agency.test", name: "Gone", role: "AGENT", passwordHash: "x", isActive: false })
      .returning();
    expect(
      await assignPulls(database.db, staff.manager, { pullIds: [ids[5] ?? ""], assigneeId: gone?.id ?? null }),
    ).toMatchObject({ ok: false, code: "INVALID" });
    expect(await assignPulls(database.db, staff.manager, { pullIds: ["not-a-uuid"], assigneeId: null })).toMatchObject({
      ok: false,
      code: "INVALID",
    });
    // The form showed the pull unassigned, but it went to the agent meanwhile.
    expect(
      await assignPulls(database.db, staff.manager, {
        pullIds: [ids[0] ?? ""],
        assigneeId: staff.otherAgent.id,
        expectedAssigneeId: null,
      }),
    ).toMatchObject({ ok: false, code: "STALE" });
    expect(await row(ids[0] ?? "")).toMatchObject({ assigneeId: staff.agent.id });
  });
});

describe("the funnel", () => {
  it("lets the assigned agent mark a pull won with a premium, kept in cents and in the audit trail", async () => {
    const result = await setPullStage(database.db, staff.agent, {
      pullId: ids[0] ?? "",
      stage: "WON",
      premium: "1,234.56",
      expectedStage: "WORKING",
    });
    expect(result).toEqual({ ok: true, stage: "WON", wonPremiumCents: 123_456 });
    expect(await row(ids[0] ?? "")).toMatchObject({ stage: "WON", wonPremiumCents: 123_456 });
    const [entry] = await database.db.select().from(auditEvents).where(eq(auditEvents.action, "STAGE_CHANGED"));
    expect(entry).toMatchObject({
      actorId: staff.agent.id,
      pullId: ids[0],
      details: { from: "WORKING", to: "WON", wonPremiumCents: 123_456 },
    });
  });

  it("refuses WON without a positive premium, bad stages and stale forms, changing nothing", async () => {
    for (const premium of [undefined, "", "0", "-5", "abc"]) {
      expect(
        await setPullStage(database.db, staff.agent, { pullId: ids[1] ?? "", stage: "WON", premium }),
        String(premium),
      ).toMatchObject({ ok: false, code: "INVALID", field: "premium" });
    }
    expect(
      await setPullStage(database.db, staff.agent, { pullId: ids[1] ?? "", stage: "MAYBE" as "WON" }),
    ).toMatchObject({ ok: false, code: "INVALID" });
    expect(
      await setPullStage(database.db, staff.manager, { pullId: ids[0] ?? "", stage: "LOST", expectedStage: "WORKING" }),
    ).toMatchObject({ ok: false, code: "STALE" });
    expect(await row(ids[0] ?? "")).toMatchObject({ stage: "WON" });
  });

  it("lets only the assignee, managers and admins change a stage", async () => {
    // Unassigned: the agent sees it in the queue but may not set its stage.
    expect(await setPullStage(database.db, staff.agent, { pullId: ids[6] ?? "", stage: "LOST" })).toMatchObject({
      ok: false,
      code: "FORBIDDEN",
    });
    expect(await setPullStage(database.db, staff.agent, { pullId: ids[2] ?? "", stage: "LOST" })).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
    expect(
      await setPullStage(database.db, staff.manager, {
        pullId: ids[6] ?? "",
        stage: "LOST",
        lostReason: "Went with a captive agent",
      }),
    ).toMatchObject({ ok: true });
    expect(await row(ids[6] ?? "")).toMatchObject({
      stage: "LOST",
      lostReason: "Went with a captive agent",
      wonPremiumCents: null,
    });
  });
});

describe("the audit trail", () => {
  it("cannot be edited or deleted, not even by the app", async () => {
    await expect(database.db.update(auditEvents).set({ action: "EDITED" })).rejects.toThrow();
    await expect(database.db.delete(auditEvents)).rejects.toThrow();
    expect(await auditCount()).toBeGreaterThan(0);
  });
});
