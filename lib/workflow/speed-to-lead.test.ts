import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { agencyRules, alerts, assignmentSettings, auditEvents, pulls } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import { auditSentence } from "@/components/workflow/audit-sentence";
import { generatePulls, type SandboxPull } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { assignPulls } from "./assignment";
import { autoAssignPull, saveAssignmentSettings } from "./auto-assign";
import { setPullStage } from "./funnel";
import { markPullSeen } from "./seen";
import { runSpeedToLead } from "./speed-to-lead";

// The first touch (set once, by people, never by the system) and the speed-to-lead rule that
// waits for it: off by default, only for pulls that arrived after it was switched on, once per
// pull however many instances run it, handing a waiting pull on or raising it to the managers.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;
let book: SandboxPull[];
let used = 0;
const MIN = 60_000;
const SINCE = new Date("2026-06-01T08:00:00Z");

/** A new successful pull, stored, arrived (created_at) at `arrived`, assigned to `assigneeId`. */
async function newPull(arrived: Date, assigneeId: string | null, names = { first_name: "Jane", last_name: "Doe" }) {
  const pull = book[used++];
  if (!pull) throw new Error("the generated book ran out");
  await storePull(database.db, { ...pull, ...names, is_archived: false });
  await database.db
    .update(pulls)
    .set({ createdAt: arrived, assigneeId, assignedAt: assigneeId ? arrived : null })
    .where(eq(pulls.pullId, pull.pull_id));
  return pull;
}
const read = async (pullId: string) => (await database.db.select().from(pulls).where(eq(pulls.pullId, pullId)))[0];
const switchOn = (minutes: number | null, action: "RAISE" | "REASSIGN", since: Date | null = SINCE) =>
  database.db
    .insert(agencyRules)
    .values({ id: 1, speedToLeadMinutes: minutes, speedToLeadAction: action, speedToLeadSince: since })
    .onConflictDoUpdate({
      target: agencyRules.id,
      set: { speedToLeadMinutes: minutes, speedToLeadAction: action, speedToLeadSince: since },
    });
const speedAudits = (pullId: string) =>
  database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.pullId, pullId), eq(auditEvents.action, "SPEED_TO_LEAD")));

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
  book = generatePulls(91, 80, new Date("2026-06-01T00:00:00Z")).filter(
    (p) => p.status === "SUCCESS" && !p.parent_pull_id && p.account_identifier,
  );
});
afterAll(async () => {
  await database?.close();
});

describe("the first touch", () => {
  it("is set once, when the assignee first opens the pull", async () => {
    const pull = await newPull(SINCE, staff.agent.id);
    const opened = new Date(SINCE.getTime() + 12 * MIN);
    await markPullSeen(database.db, staff.otherAgent.id, pull.pull_id, opened); // not theirs: nothing
    expect((await read(pull.pull_id))?.firstTouchedAt).toBeNull();
    await markPullSeen(database.db, staff.agent.id, pull.pull_id, opened);
    expect((await read(pull.pull_id))?.firstTouchedAt).toEqual(opened);
    // Handed to Otto, who opens it later: the first touch stays the first.
    await assignPulls(
      database.db,
      staff.manager,
      { pullIds: [pull.pull_id], assigneeId: staff.otherAgent.id },
      new Date(SINCE.getTime() + 60 * MIN),
    );
    await markPullSeen(database.db, staff.otherAgent.id, pull.pull_id, new Date(SINCE.getTime() + 90 * MIN));
    expect((await read(pull.pull_id))?.firstTouchedAt).toEqual(opened);
  });

  it("is set when a person changes the owner or the stage (and premium), not by automatic assignment or a carry-over", async () => {
    const assigned = await newPull(SINCE, null);
    const at = new Date(SINCE.getTime() + 7 * MIN);
    await assignPulls(database.db, staff.manager, { pullIds: [assigned.pull_id], assigneeId: staff.agent.id }, at);
    expect((await read(assigned.pull_id))?.firstTouchedAt).toEqual(at);

    const decided = await newPull(SINCE, staff.agent.id);
    const wonAt = new Date(SINCE.getTime() + 3 * 60 * MIN);
    expect(
      await setPullStage(database.db, staff.agent, { pullId: decided.pull_id, stage: "WON", premium: "900.00" }, wonAt),
    ).toMatchObject({ ok: true });
    expect((await read(decided.pull_id))?.firstTouchedAt).toEqual(wonAt);

    await saveAssignmentSettings(database.db, staff.admin, { mode: "ROUND_ROBIN" });
    const automatic = await newPull(SINCE, null);
    await database.db.transaction((tx) =>
      autoAssignPull(
        tx,
        { pullId: automatic.pull_id, states: [], linesOfBusiness: [] },
        new Date(SINCE.getTime() + MIN),
      ),
    );
    expect(await read(automatic.pull_id)).toMatchObject({ assigneeId: expect.any(String), firstTouchedAt: null });

    // A refresh of the won account carries its owner and stage over: nobody touched the refresh.
    const refresh = { ...decided, pull_id: randomUUID(), created_at: new Date().toISOString() };
    await storePull(database.db, refresh);
    expect(await read(refresh.pull_id)).toMatchObject({ stage: "WON", decisionCarried: true, firstTouchedAt: null });
    await database.db.delete(assignmentSettings);
  });
});

describe("the speed-to-lead rule", () => {
  beforeEach(async () => {
    await database.db.delete(agencyRules);
    await database.db.delete(assignmentSettings);
    // Everything earlier in the file has been dealt with: only this test's pulls wait.
    await database.db.update(pulls).set({ firstTouchedAt: SINCE });
  });

  it("does nothing while it is off (the default), or without the moment it was switched on", async () => {
    const pull = await newPull(new Date(SINCE.getTime() + MIN), staff.agent.id);
    const late = new Date(SINCE.getTime() + 10 * 24 * 60 * MIN);
    expect(await runSpeedToLead(database.db, late)).toEqual([]);
    await switchOn(30, "RAISE", null);
    expect(await runSpeedToLead(database.db, late)).toEqual([]);
    expect((await read(pull.pull_id))?.speedToLeadAt).toBeNull();
  });

  it("raises an untouched pull once, after its wait, to the queue's alerts; not one that arrived before it was switched on", async () => {
    await switchOn(30, "RAISE");
    const arrived = new Date(SINCE.getTime() + 5 * MIN);
    const waiting = await newPull(arrived, staff.agent.id);
    const older = await newPull(new Date(SINCE.getTime() - MIN), staff.agent.id);
    const queued = await newPull(arrived, null, { first_name: "", last_name: "" });
    expect(await runSpeedToLead(database.db, new Date(arrived.getTime() + 29 * MIN))).toEqual([]);

    const now = new Date(arrived.getTime() + 42 * MIN);
    const acted = await runSpeedToLead(database.db, now);
    expect(acted.map((a) => [a.pullId, a.action]).sort()).toEqual(
      [
        [waiting.pull_id, "RAISE"],
        [queued.pull_id, "RAISE"],
      ].sort(),
    );
    const [alert] = await database.db.select().from(alerts).where(eq(alerts.pullId, waiting.pull_id));
    expect(alert).toMatchObject({
      key: `SPEED_TO_LEAD:${waiting.pull_id}`,
      kind: "SPEED_TO_LEAD",
      assigneeId: null,
      holderName: "Jane Doe",
      headline: "Jane Doe's linked account has waited 42 minutes untouched (assigned to Ann Agent)",
    });
    const [queueAlert] = await database.db.select().from(alerts).where(eq(alerts.pullId, queued.pull_id));
    expect(queueAlert?.headline).toBe("A linked account has waited 42 minutes untouched (in the queue)");
    expect(await read(waiting.pull_id)).toMatchObject({
      speedToLeadAt: now,
      assigneeId: staff.agent.id,
      firstTouchedAt: null,
    });
    expect((await read(older.pull_id))?.speedToLeadAt).toBeNull();
    const [entry] = await speedAudits(waiting.pull_id);
    expect(entry).toMatchObject({
      actorId: null,
      details: { action: "RAISE", within: "30 minutes", waited: "42 minutes" },
    });
    expect(
      auditSentence({ action: entry?.action ?? "", actorName: entry?.actorName ?? null, details: entry?.details }),
    ).toBe("Nobody touched the pull within 30 minutes: raised to the managers");
    // Run again, later: nothing more.
    expect(await runSpeedToLead(database.db, new Date(now.getTime() + 60 * MIN))).toEqual([]);
    expect(await database.db.select().from(alerts).where(eq(alerts.pullId, waiting.pull_id))).toHaveLength(1);
  });

  it("acts once when several instances run it at the same time", async () => {
    await switchOn(15, "RAISE");
    const arrived = new Date(SINCE.getTime() + 60 * MIN);
    const batch = [await newPull(arrived, staff.agent.id), await newPull(arrived, staff.otherAgent.id)];
    const now = new Date(arrived.getTime() + 20 * MIN);
    const runs = await Promise.all([1, 2, 3].map(() => runSpeedToLead(database.db, now)));
    expect(
      runs
        .flat()
        .map((a) => a.pullId)
        .sort(),
    ).toEqual(batch.map((p) => p.pull_id).sort());
    for (const pull of batch) {
      expect(await database.db.select().from(alerts).where(eq(alerts.pullId, pull.pull_id))).toHaveLength(1);
      expect(await speedAudits(pull.pull_id)).toHaveLength(1);
    }
  });

  it("leaves alone a pull touched in time, a refresh of an account, and a failed or decided one", async () => {
    await switchOn(10, "RAISE");
    const arrived = new Date(SINCE.getTime() + 2 * 60 * MIN);
    const touched = await newPull(arrived, staff.agent.id);
    await markPullSeen(database.db, staff.agent.id, touched.pull_id, new Date(arrived.getTime() + 5 * MIN));
    const first = await newPull(new Date(arrived.getTime() - 24 * 60 * MIN), staff.agent.id);
    await database.db.update(pulls).set({ firstTouchedAt: arrived }).where(eq(pulls.pullId, first.pull_id));
    const refresh = { ...first, pull_id: randomUUID(), created_at: arrived.toISOString() };
    await storePull(database.db, refresh);
    await database.db.update(pulls).set({ createdAt: arrived }).where(eq(pulls.pullId, refresh.pull_id));
    const failed = await newPull(arrived, null);
    await database.db.update(pulls).set({ status: "PROVIDER_ERROR" }).where(eq(pulls.pullId, failed.pull_id));
    const lost = await newPull(arrived, staff.agent.id);
    await database.db.update(pulls).set({ stage: "LOST" }).where(eq(pulls.pullId, lost.pull_id));
    expect(await runSpeedToLead(database.db, new Date(arrived.getTime() + 60 * MIN))).toEqual([]);
  });

  it("hands a waiting pull to the next agent by the assignment rules, never back to the one who let it wait", async () => {
    await switchOn(30, "REASSIGN");
    await saveAssignmentSettings(database.db, staff.admin, { mode: "ROUND_ROBIN" });
    const arrived = new Date(SINCE.getTime() + 3 * 60 * MIN);
    const pull = await newPull(arrived, staff.otherAgent.id);
    // Otto's turn comes next in the round; the pull is Otto's own, so it goes on to Ann.
    await database.db.update(assignmentSettings).set({ lastAssigneeId: staff.agent.id });
    const now = new Date(arrived.getTime() + 45 * MIN);
    expect(await runSpeedToLead(database.db, now)).toEqual([
      { pullId: pull.pull_id, action: "REASSIGN", from: staff.otherAgent.id, to: staff.agent.id },
    ]);
    expect(await read(pull.pull_id)).toMatchObject({
      assigneeId: staff.agent.id,
      assignedAt: now,
      assigneeSeenAt: null,
      firstTouchedAt: null, // the system moved it: still untouched, and the rule has had its say
      speedToLeadAt: now,
    });
    const [entry] = await speedAudits(pull.pull_id);
    expect(entry?.details).toMatchObject({ action: "REASSIGN", fromName: "Otto Other", toName: "Ann Agent" });
    expect(auditSentence({ action: "SPEED_TO_LEAD", actorName: null, details: entry?.details })).toBe(
      "Nobody touched the pull within 30 minutes: handed from Otto Other to Ann Agent",
    );
    expect(await database.db.select().from(alerts).where(eq(alerts.pullId, pull.pull_id))).toEqual([]);
    // Ann took a turn of the round-robin.
    const [settings] = await database.db.select().from(assignmentSettings);
    expect(settings?.lastAssigneeId).toBe(staff.agent.id);
    expect(await runSpeedToLead(database.db, new Date(now.getTime() + 60 * MIN))).toEqual([]);
  });

  it("raises it instead when the assignment rules name no one else, or are off", async () => {
    await switchOn(30, "REASSIGN");
    await saveAssignmentSettings(database.db, staff.admin, {
      mode: "RULES",
      rules: [{ lineOfBusiness: "AUTO", assigneeId: staff.agent.id }],
      fallbackAssigneeId: staff.agent.id,
    });
    const arrived = new Date(SINCE.getTime() + 4 * 60 * MIN);
    const pull = await newPull(arrived, staff.agent.id);
    const acted = await runSpeedToLead(database.db, new Date(arrived.getTime() + 2 * 60 * MIN));
    expect(acted).toEqual([{ pullId: pull.pull_id, action: "RAISE", from: staff.agent.id, to: null }]);
    const [alert] = await database.db.select().from(alerts).where(eq(alerts.pullId, pull.pull_id));
    expect(alert?.headline).toBe(
      "Jane Doe's linked account has waited 2 hours untouched (assigned to Ann Agent); the assignment rules name no one else to hand it to",
    );
    expect((await read(pull.pull_id))?.assigneeId).toBe(staff.agent.id);

    await database.db.delete(assignmentSettings); // off
    const another = await newPull(arrived, staff.otherAgent.id);
    expect(
      (await runSpeedToLead(database.db, new Date(arrived.getTime() + 2 * 60 * MIN))).map((a) => a.action),
    ).toEqual(["RAISE"]);
    expect((await read(another.pull_id))?.assigneeId).toBe(staff.otherAgent.id);
  });
});
