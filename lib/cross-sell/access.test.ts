import { readFileSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { householdGaps, pulls } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import { removePulls } from "@/lib/privacy/remove-pulls";
import { visibleTo, type ListViewer } from "@/lib/pulls/visibility";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { householdPayload } from "@/test/household-payload";
import { createStaff } from "@/test/workflow-fixture";
import { parseCrossSellQuery } from "./list-query";
import { countCrossSell, listCrossSell } from "./queries";

// The agent's own cross-sell view reads the access rule from the copies on household_gaps
// (migration 0049): it must list exactly the households whose pull the pull list shows the
// agent, and follow every assignment, stage change and erasure at once.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;

const own = (userId: string): ListViewer => ({ kind: "own-or-unassigned", userId });

/** The households the agent sees on the cross-sell list, and how many the counts say. */
async function crossSellOf(viewer: ListViewer, params: Record<string, string> = {}) {
  const { query } = parseCrossSellQuery(params);
  const [rows, counts] = await Promise.all([
    listCrossSell(database.db, viewer, query, { limit: 1_000 }),
    countCrossSell(database.db, viewer, query),
  ]);
  return { ids: rows.map((r) => r.pullId).sort(), total: counts.total, rows };
}

/** The households whose pull the pull list shows the viewer (lib/pulls/visibility.ts on pulls). */
async function pullListOf(viewer: ListViewer) {
  const households = await database.db.select({ id: householdGaps.pullId }).from(householdGaps);
  if (households.length === 0) return [];
  const rows = await database.db
    .select({ id: pulls.pullId })
    .from(pulls)
    .where(
      and(
        visibleTo(viewer),
        inArray(
          pulls.pullId,
          households.map((h) => h.id),
        ),
      ),
    );
  return rows.map((r) => r.id).sort();
}

/** household_gaps' copies beside the pull's own values, for every household. */
async function copiesAndPulls() {
  return database.db
    .select({
      copy: {
        assigneeId: householdGaps.assigneeId,
        stage: householdGaps.stage,
        account: householdGaps.accountIdentifier,
      },
      pull: { assigneeId: pulls.assigneeId, stage: pulls.stage, account: pulls.accountIdentifier },
    })
    .from(householdGaps)
    .innerJoin(pulls, eq(pulls.pullId, householdGaps.pullId));
}

async function expectCopiesInStep() {
  for (const { copy, pull } of await copiesAndPulls()) expect(copy).toEqual(pull);
}

const assign = (pullId: string, assigneeId: string | null) =>
  database.db.update(pulls).set({ assigneeId }).where(eq(pulls.pullId, pullId));

/**
 * The agent's household, another agent's, the queue's, and an account another agent holds whose
 * newer refresh is unassigned (the household's row is the refresh's).
 */
async function book() {
  const mine = householdPayload({ first: "Mine", policies: [{ type: "AUTO", premium: 100_000 }] });
  const theirs = householdPayload({ first: "Theirs", policies: [{ type: "AUTO" }, { type: "HOMEOWNERS" }] });
  const queue = householdPayload({ first: "Queue", policies: [{ type: "RENTERS" }] });
  const account = `acct_${randomUUID()}`;
  const held = householdPayload({
    account,
    first: "Held",
    createdAt: "2026-01-01T00:00:00Z",
    policies: [{ type: "AUTO" }],
  });
  const refresh = householdPayload({
    account,
    first: "Refresh",
    createdAt: "2026-06-01T00:00:00Z",
    policies: [{ type: "AUTO" }, { type: "CONDO" }],
  });
  for (const p of [mine, theirs, queue, held, refresh]) await storePull(database.db, p);
  await assign(mine.pull_id, staff.agent.id);
  await assign(theirs.pull_id, staff.otherAgent.id);
  await assign(held.pull_id, staff.otherAgent.id);
  await assign(refresh.pull_id, null);
  return { mine, theirs, queue, held, refresh };
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate household_gaps, policy_xdates, policies, pulls, users cascade`);
  staff = await createStaff(database.db);
});

describe("the agent's own cross-sell view", () => {
  it("lists exactly the households the pull list shows the agent, and counts the same", async () => {
    const { mine, queue, refresh, theirs } = await book();
    for (const agent of [staff.agent, staff.otherAgent]) {
      const view = await crossSellOf(own(agent.id));
      expect(view.ids).toEqual(await pullListOf(own(agent.id)));
      expect(view.total).toBe(view.ids.length);
    }
    const view = await crossSellOf(own(staff.agent.id));
    expect(view.ids).toEqual([mine.pull_id, queue.pull_id].sort());
    // An unassigned refresh of an account another agent holds is not the queue's.
    expect(view.ids).not.toContain(refresh.pull_id);
    expect(view.ids).not.toContain(theirs.pull_id);
    // Managers see every household.
    expect((await crossSellOf({ kind: "all" })).total).toBe(4);
  });

  it("moves a household at once when its pull is reassigned, unassigned or its holder lets go", async () => {
    const { mine, theirs, held, refresh } = await book();
    await assign(mine.pull_id, staff.otherAgent.id);
    expect((await crossSellOf(own(staff.agent.id))).ids).not.toContain(mine.pull_id);
    expect((await crossSellOf(own(staff.otherAgent.id))).ids).toContain(mine.pull_id);
    await assign(theirs.pull_id, null);
    expect((await crossSellOf(own(staff.agent.id))).ids).toContain(theirs.pull_id);
    // The other pull of the account unassigned: the refresh is the queue's, shown to both.
    await assign(held.pull_id, null);
    expect((await crossSellOf(own(staff.agent.id))).ids).toContain(refresh.pull_id);
    expect((await crossSellOf(own(staff.otherAgent.id))).ids).toContain(refresh.pull_id);
    for (const agent of [staff.agent, staff.otherAgent])
      expect((await crossSellOf(own(agent.id))).ids).toEqual(await pullListOf(own(agent.id)));
    await expectCopiesInStep();
  });

  it("keeps the stage copy in step: the stage filter and the row follow a stage change", async () => {
    const { mine } = await book();
    await database.db
      .update(pulls)
      .set({ stage: "WON", wonPremiumCents: 50_000 })
      .where(eq(pulls.pullId, mine.pull_id));
    const won = await crossSellOf(own(staff.agent.id), { stage: "WON" });
    expect(won.ids).toEqual([mine.pull_id]);
    expect(won.rows[0]).toMatchObject({ stage: "WON", assigneeId: staff.agent.id, assigneeName: "Ann Agent" });
    expect((await crossSellOf(own(staff.agent.id), { stage: "WORKING" })).ids).not.toContain(mine.pull_id);
    const byAgent = await crossSellOf({ kind: "all" }, { agent: staff.agent.id, stage: "WON" });
    expect(byAgent.ids).toEqual([mine.pull_id]);
    await expectCopiesInStep();
  });

  it("after an erasure of the holding pull, the account's refresh joins the queue", async () => {
    const { held, refresh } = await book();
    await database.db.transaction((tx) => removePulls(tx, [held.pull_id], { kind: "ERASURE", requestId: null }));
    const view = await crossSellOf(own(staff.agent.id));
    expect(view.ids).toContain(refresh.pull_id);
    expect(view.ids).toEqual(await pullListOf(own(staff.agent.id)));
    await database.db.transaction((tx) => removePulls(tx, [refresh.pull_id], { kind: "ERASURE", requestId: null }));
    expect((await crossSellOf({ kind: "all" })).ids).not.toContain(refresh.pull_id);
    await expectCopiesInStep();
  });

  it("ignores a link naming another agent or a bad value: an agent still sees only their own and the queue's", async () => {
    const { theirs } = await book();
    const other = await crossSellOf(own(staff.agent.id), { agent: staff.otherAgent.id });
    expect(other.ids).toEqual([]);
    expect(other.total).toBe(0);
    const bad = await crossSellOf(own(staff.agent.id), { agent: "not-a-uuid", stage: "NOPE" });
    expect(bad.ids).toEqual(await pullListOf(own(staff.agent.id)));
    expect(bad.ids).not.toContain(theirs.pull_id);
  });
});

describe("migration 0049's backfill", () => {
  it("fills the copies of rows written before the columns existed, from their pulls", async () => {
    const { mine, theirs } = await book();
    // As at the schema before 0049: the rows carry no copies (and the trigger did not exist).
    await database.db.execute(sql`alter table pulls disable trigger household_gaps_follow_pull`);
    try {
      await database.db.execute(sql`update household_gaps set assignee_id = null, stage = 'WORKING'`);
      await database.db.update(pulls).set({ stage: "LOST" }).where(eq(pulls.pullId, theirs.pull_id));
    } finally {
      await database.db.execute(sql`alter table pulls enable trigger household_gaps_follow_pull`);
    }
    const migration = readFileSync(path.join(process.cwd(), "drizzle", "0049_cross_sell_access.sql"), "utf8");
    const backfill = migration.split("--> statement-breakpoint").find((part) => /UPDATE "household_gaps"/.test(part));
    expect(backfill).toBeDefined();
    await database.db.execute(sql.raw(backfill as string));
    await expectCopiesInStep();
    expect((await crossSellOf(own(staff.agent.id))).ids).toContain(mine.pull_id);
    expect((await crossSellOf({ kind: "all" }, { stage: "LOST" })).ids).toEqual([theirs.pull_id]);
  });
});
