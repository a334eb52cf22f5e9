import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assignmentSettings, auditEvents, pulls } from "@/db/schema";
import { canOnPull } from "@/lib/auth/permissions";
import { processDueEvents } from "@/lib/ingest/process-events";
import { receiveWebhook } from "@/lib/ingest/receive-webhook";
import { getViewablePull } from "@/lib/pulls/access";
import { parsePullListQuery } from "@/lib/pulls/list-query";
import { listPulls } from "@/lib/pulls/queries";
import { storePull } from "@/lib/ingest/store-pull";
import { getReport } from "@/lib/reports/queries";
import { generatePulls, type SandboxPull } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { assignPulls } from "./assignment";
import { setPullStage } from "./funnel";
import { countQueue, getAgentHome } from "./my-pulls";

// A monitoring refresh or reconnect is a new pull of an account the agency already works. It
// must keep that account's owner, stage and won-premium credit, stay out of every other agent's
// queue, and not be handed out again by automatic assignment.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;
let base: SandboxPull;

const row = async (pullId: string) => (await database.db.select().from(pulls).where(eq(pulls.pullId, pullId)))[0];
const pullOf = (account: string | null, createdAt: string, extra: Record<string, unknown> = {}): SandboxPull => ({
  ...base,
  pull_id: randomUUID(),
  account_identifier: account,
  created_at: createdAt,
  ...extra,
});
const listedFor = async (userId: string) =>
  (
    await listPulls(
      database.db,
      { kind: "own-or-unassigned", userId },
      parsePullListQuery({ archived: "include" }).query,
      1_000,
    )
  ).rows.map((r) => r.pullId);
const asSession = (actor: { id: string; name: string; role: "AGENT" | "MANAGER" | "ADMIN" }) => ({
  ...actor,
  email: `${actor.id}@agency.test`,
  sessionId: "test-session",
});

/** An account linked by a consumer, assigned to `agent` and won by them. */
async function wonAccount(account: string, agentId: string, premium = "1,250.00"): Promise<SandboxPull> {
  const initial = pullOf(account, "2026-03-01T10:00:00Z");
  await storePull(database.db, initial);
  expect(
    await assignPulls(database.db, staff.manager, { pullIds: [initial.pull_id], assigneeId: agentId }),
  ).toMatchObject({ ok: true });
  const agent = agentId === staff.agent.id ? staff.agent : staff.otherAgent;
  expect(await setPullStage(database.db, agent, { pullId: initial.pull_id, stage: "WON", premium })).toMatchObject({
    ok: true,
  });
  return initial;
}

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
  const found = generatePulls(41, 20, new Date("2026-06-15T00:00:00Z")).find(
    (p) => p.status === "SUCCESS" && !p.parent_pull_id && !p.is_archived,
  );
  if (!found) throw new Error("no successful pull to build on");
  base = found;
  // Automatic assignment is on and would give every new lead to the other agent: a refresh
  // that fired it would change hands.
  await database.db
    .insert(assignmentSettings)
    .values({ id: 1, mode: "RULES", rules: [], fallbackAssigneeId: staff.otherAgent.id });
});
afterAll(async () => {
  await database?.close();
});

describe("a refresh of an account keeps the account's owner", () => {
  it("takes the assignee, stage and won-premium credit of the account's latest earlier pull, in the audit trail as carried over", async () => {
    const initial = await wonAccount("acct_carry_1", staff.agent.id);
    const refresh = pullOf("acct_carry_1", "2026-06-01T10:00:00Z");
    await storePull(database.db, refresh);

    const stored = await row(refresh.pull_id);
    expect(stored).toMatchObject({
      assigneeId: staff.agent.id,
      stage: "WON",
      wonPremiumCents: 125_000,
      wonCreditedTo: staff.agent.id,
    });
    const trail = await database.db.select().from(auditEvents).where(eq(auditEvents.pullId, refresh.pull_id));
    expect(trail.map((e) => e.action)).toEqual(["PULL_CARRIED_OVER"]);
    expect(trail[0]).toMatchObject({
      actorId: null,
      subjectUserId: staff.agent.id,
      details: { fromPullId: initial.pull_id, stage: "WON", wonPremiumCents: 125_000, to: staff.agent.id },
    });
    // Automatic assignment did not fire for it (it would have picked the other agent).
    const assigned = await database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.pullId, refresh.pull_id), eq(auditEvents.action, "PULL_ASSIGNED")));
    expect(assigned).toHaveLength(0);
    // The win is the account's, counted once in the reports.
    const report = await getReport(database.db, { agent: staff.agent.id });
    expect(report.byAgent).toEqual([expect.objectContaining({ key: staff.agent.id, count: 1, cents: 125_000 })]);
  });

  it("marks a carried decision, counts it once while the earlier decision stands, and clears the mark on a decision by hand", async () => {
    const initial = await wonAccount("acct_carry_once", staff.otherAgent.id, "700.00");
    const refresh = pullOf("acct_carry_once", "2026-06-01T11:00:00Z");
    await storePull(database.db, refresh);
    expect(await row(refresh.pull_id)).toMatchObject({ stage: "WON", decisionCarried: true });
    expect((await row(initial.pull_id))?.decisionCarried).toBe(false);
    const figures = async () => {
      const report = await getReport(database.db, { agent: staff.otherAgent.id });
      return { won: report.won, closeRatio: { won: report.closeRatio.won, lost: report.closeRatio.lost } };
    };
    expect(await figures()).toEqual({ won: { count: 1, cents: 70_000 }, closeRatio: { won: 1, lost: 0 } });

    // The earlier pull is reopened: the refresh's win is no longer a copy of a standing decision.
    expect(await setPullStage(database.db, staff.manager, { pullId: initial.pull_id, stage: "WORKING" })).toMatchObject(
      { ok: true },
    );
    expect(await figures()).toEqual({ won: { count: 1, cents: 70_000 }, closeRatio: { won: 1, lost: 0 } });

    // A stage set by hand on the refresh is its own decision.
    expect(
      await setPullStage(database.db, staff.manager, { pullId: refresh.pull_id, stage: "LOST", lostReason: "price" }),
    ).toMatchObject({ ok: true });
    expect(await row(refresh.pull_id)).toMatchObject({ stage: "LOST", decisionCarried: false });
    expect(await figures()).toEqual({ won: { count: 0, cents: 0 }, closeRatio: { won: 0, lost: 1 } });
  });

  it("carries from the latest earlier pull, not from a later one nor from another account", async () => {
    await wonAccount("acct_carry_2", staff.agent.id);
    const second = pullOf("acct_carry_2", "2026-04-01T10:00:00Z");
    await storePull(database.db, second);
    expect(
      await setPullStage(database.db, staff.manager, {
        pullId: second.pull_id,
        stage: "LOST",
        lostReason: "moved carriers",
      }),
    ).toMatchObject({ ok: true });
    const third = pullOf("acct_carry_2", "2026-05-01T10:00:00Z");
    await storePull(database.db, third);
    expect(await row(third.pull_id)).toMatchObject({
      assigneeId: staff.agent.id,
      stage: "LOST",
      lostReason: "moved carriers",
      wonPremiumCents: null,
    });
  });

  it("recognises a refresh by the monitoring's first pull when its payload carries no account identifier", async () => {
    const initial = await wonAccount("acct_carry_3", staff.agent.id);
    const refresh = pullOf(null, "2026-06-02T10:00:00Z");
    const body = JSON.stringify({
      event_type: "COMPLETE",
      pull_id: refresh.pull_id,
      status: "SUCCESS",
      data: {},
      is_monitored: true,
      monitoring: { monitoring_id: "mon_carry_3", initial_pull_id: initial.pull_id },
    });
    expect((await receiveWebhook(database.db, body, { webhookSecret: null, signatureHeader: null })).status).toBe(202);
    const summary = await processDueEvents(
      database.db,
      async (pullId) => (pullId === refresh.pull_id ? { success: true, pull: refresh } : null),
      { workerId: "carry-test" },
    );
    expect(summary.done).toBe(1);
    expect(await row(refresh.pull_id)).toMatchObject({
      assigneeId: staff.agent.id,
      stage: "WON",
      wonCreditedTo: staff.agent.id,
    });
  });

  it("is new business, and may be handed out, only when the account has no earlier pull", async () => {
    const fresh = pullOf("acct_new_business", "2026-06-03T10:00:00Z");
    await storePull(database.db, fresh);
    expect(await row(fresh.pull_id)).toMatchObject({ assigneeId: staff.otherAgent.id }); // the rule's fallback
  });
});

describe("an agent sees a refresh only if it is theirs or truly unassigned", () => {
  it("hides a colleague's refreshed account from the list, the pull page and claiming", async () => {
    const initial = await wonAccount("acct_colleague", staff.agent.id);
    const refresh = pullOf("acct_colleague", "2026-06-04T10:00:00Z");
    await storePull(database.db, refresh);

    const colleague = staff.otherAgent;
    const theirs = await listedFor(colleague.id);
    expect(theirs).not.toContain(refresh.pull_id);
    expect(theirs).not.toContain(initial.pull_id);
    expect(await getViewablePull(database.db, asSession(colleague), refresh.pull_id)).toBeNull();
    expect(
      await assignPulls(database.db, colleague, { pullIds: [refresh.pull_id], assigneeId: colleague.id }),
    ).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect(await row(refresh.pull_id)).toMatchObject({ assigneeId: staff.agent.id });
    // The account's agent sees both of its pulls.
    expect(await listedFor(staff.agent.id)).toEqual(expect.arrayContaining([initial.pull_id, refresh.pull_id]));
  });

  it("keeps an unassigned pull of an account someone holds out of every queue, for every pull of the account", async () => {
    const initial = await wonAccount("acct_held", staff.agent.id);
    const refresh = pullOf("acct_held", "2026-06-05T10:00:00Z");
    await storePull(database.db, refresh);
    // A manager returns the refresh to the queue: the account is still the agent's.
    expect(
      await assignPulls(database.db, staff.manager, { pullIds: [refresh.pull_id], assigneeId: null }),
    ).toMatchObject({ ok: true, changed: 1 });

    const colleague = staff.otherAgent;
    expect(await listedFor(colleague.id)).not.toContain(refresh.pull_id);
    const detail = await getViewablePull(database.db, asSession(staff.manager), refresh.pull_id);
    expect(detail?.workflow).toMatchObject({ assigneeId: null, accountHeld: true });
    const access = detail?.workflow ?? { assigneeId: null, officeId: null, accountHeld: true };
    expect(canOnPull(colleague, "pulls:view", access)).toBe(false);
    expect(canOnPull(colleague, "pulls:claim", access)).toBe(false);
    expect(canOnPull(staff.manager, "pulls:view", access)).toBe(true);
    expect(
      await assignPulls(database.db, colleague, { pullIds: [refresh.pull_id], assigneeId: colleague.id }),
    ).toMatchObject({ ok: false, code: "NOT_FOUND" });
    // The queue count on an agent's home agrees with the list.
    const queueBefore = (await getAgentHome(database.db, colleague.id)).queue;
    await assignPulls(database.db, staff.manager, { pullIds: [initial.pull_id], assigneeId: null });
    expect((await getAgentHome(database.db, colleague.id)).queue).toBe(queueBefore + 2);
    expect(await listedFor(colleague.id)).toEqual(expect.arrayContaining([initial.pull_id, refresh.pull_id]));
    // Past its cap the home page's count stops and says so, instead of reading the whole queue.
    expect(await countQueue(database.db, queueBefore + 2)).toEqual({ total: queueBefore + 2, capped: false });
    expect(await countQueue(database.db, queueBefore + 1)).toEqual({ total: queueBefore + 1, capped: true });
    expect(await getAgentHome(database.db, colleague.id)).toMatchObject({ queueCapped: false });
  });

  it("still lists truly unassigned new business to every agent", async () => {
    await database.db.update(assignmentSettings).set({ mode: "OFF" });
    const lead = pullOf("acct_open_lead", "2026-06-06T10:00:00Z");
    await storePull(database.db, lead);
    const detail = await getViewablePull(database.db, asSession(staff.otherAgent), lead.pull_id);
    expect(detail?.workflow).toMatchObject({ assigneeId: null, accountHeld: false });
    expect(await listedFor(staff.otherAgent.id)).toContain(lead.pull_id);
    expect(await listedFor(staff.agent.id)).toContain(lead.pull_id);
  });
});
