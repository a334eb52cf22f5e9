import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { auditEvents, householdGaps, pulls, userSessions } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import type { Actor } from "@/lib/core/actor";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { householdPayload } from "@/test/household-payload";
import { createStaff } from "@/test/workflow-fixture";
import { loadCrossSellPage } from "./cross-sell";

// The cross-sell page's loader and its CSV on a real database: counts by gap and by policies,
// each counted under the other filter, the list by premium in play, the agents' visibility (the
// pull list's rule), pagination, and a link whose parts cannot be read.

let current: { id: string } | null = null;
const sessions: Record<string, string> = {};
vi.mock("next-auth", () => ({
  getServerSession: async () => (current ? { user: { id: current.id }, sessionId: sessions[current.id] } : null),
  default: () => null,
}));

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;
const asUser = (actor: Actor): Actor => ({ ...actor, sessionId: "" });

/** Three households: the agent's, another agent's (won) and the queue's, and one with nothing in force. */
async function book() {
  const mine = householdPayload({ first: "Mine", policies: [{ type: "AUTO", premium: 100_000 }] });
  const theirs = householdPayload({
    first: "Theirs",
    policies: [{ type: "AUTO" }, { type: "HOMEOWNERS" }],
  });
  const queue = householdPayload({
    first: "Queue",
    policies: [
      { type: "AUTO" },
      { type: "HOMEOWNERS" },
      { type: "UMBRELLA" },
      { type: "MOTORCYCLE", carrier: "GEICO", premium: 50_000 },
    ],
  });
  const quoted = householdPayload({ first: "Quoted", policies: [{ type: "AUTO", status: "QUOTE" }] });
  for (const p of [mine, theirs, queue, quoted]) await storePull(database.db, p);
  await database.db.update(pulls).set({ assigneeId: staff.agent.id }).where(eq(pulls.pullId, mine.pull_id));
  await database.db
    .update(pulls)
    .set({ assigneeId: staff.otherAgent.id, stage: "WON", wonPremiumCents: 200_000 })
    .where(eq(pulls.pullId, theirs.pull_id));
  return { mine, theirs, queue };
}

const names = (page: Awaited<ReturnType<typeof loadCrossSellPage>>) => page.rows.map((r) => r.holderName);

beforeAll(async () => {
  database = await createTestDatabase();
  const cache = globalThis as unknown as { __coverdeskDb?: { connection?: Promise<unknown> } };
  (cache.__coverdeskDb ??= {}).connection = Promise.resolve(database);
});
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  await database.db.execute(
    sql`truncate household_gaps, policy_xdates, policies, pulls, users, user_sessions, audit_events cascade`,
  );
  staff = await createStaff(database.db);
  for (const actor of Object.values(staff)) {
    const [session] = await database.db
      .insert(userSessions)
      .values({ userId: actor.id, expiresAt: new Date(Date.now() + 3_600_000) })
      .returning({ id: userSessions.id });
    sessions[actor.id] = session?.id ?? "";
  }
  current = null;
});

describe("the cross-sell page's loader", () => {
  it("counts households by gap and by policies, and lists them by premium in play", async () => {
    await book();
    const view = await loadCrossSellPage(database.db, asUser(staff.manager), {});
    expect(view.seesAll).toBe(true);
    expect(view.counts).toEqual({
      total: 3,
      premiumInPlayCents: 100_000 + 50_000,
      byGap: { AUTO_NO_HOME: 1, NO_UMBRELLA: 0, NO_FLOOD: 2, YOUNG_DRIVER: 0, MULTI_CARRIER: 1 },
      byPolicies: { "1": 1, "2": 1, "3": 0, "4+": 1 },
    });
    // The household with nothing in force is left out; no premium in play comes last.
    expect(names(view)).toEqual(["Mine Doe", "Queue Doe", "Theirs Doe"]);
    expect(view.rows[1]).toMatchObject({
      policyCount: 4,
      carrierCount: 2,
      lines: ["AUTO", "HOMEOWNERS", "MOTORCYCLE", "UMBRELLA"],
      gaps: ["NO_FLOOD", "MULTI_CARRIER"],
      premiumInPlayCents: 50_000,
      stage: "WORKING",
      assigneeName: null,
    });
    expect(view.rows[2]).toMatchObject({ stage: "WON", assigneeName: staff.otherAgent.name });
    expect(view.pageCount).toBe(1);
  });

  it("filters by gap, policies, agent and stage, each count under the other filter", async () => {
    const { theirs } = await book();
    const flood = await loadCrossSellPage(database.db, asUser(staff.admin), { gap: "NO_FLOOD" });
    expect(names(flood)).toEqual(["Queue Doe", "Theirs Doe"]);
    expect(flood.counts.total).toBe(2);
    // The policies counts are of flood-gap households; the gap counts of every household.
    expect(flood.counts.byPolicies).toEqual({ "1": 0, "2": 1, "3": 0, "4+": 1 });
    expect(flood.counts.byGap.AUTO_NO_HOME).toBe(1);

    const big = await loadCrossSellPage(database.db, asUser(staff.admin), { policies: "4+" });
    expect(names(big)).toEqual(["Queue Doe"]);
    expect(big.counts.byGap).toMatchObject({ AUTO_NO_HOME: 0, NO_FLOOD: 1, MULTI_CARRIER: 1 });

    const two = await loadCrossSellPage(database.db, asUser(staff.admin), { policies: "2", gap: "NO_FLOOD" });
    expect(two.rows.map((r) => r.pullId)).toEqual([theirs.pull_id]);
    expect(names(await loadCrossSellPage(database.db, asUser(staff.admin), { stage: "WON" }))).toEqual(["Theirs Doe"]);
    expect(names(await loadCrossSellPage(database.db, asUser(staff.admin), { agent: "unassigned" }))).toEqual([
      "Queue Doe",
    ]);
    const theirsOnly = await loadCrossSellPage(database.db, asUser(staff.admin), { agent: staff.otherAgent.id });
    expect(theirsOnly.counts.total).toBe(1);
    expect(theirsOnly.counts.byGap.NO_FLOOD).toBe(1);
  });

  it("shows an agent their own households and the queue's, and nobody else's by any link", async () => {
    await book();
    const agentView = await loadCrossSellPage(database.db, asUser(staff.agent), {});
    expect(agentView.seesAll).toBe(false);
    expect(names(agentView)).toEqual(["Mine Doe", "Queue Doe"]);
    expect(agentView.counts.total).toBe(2);
    expect(agentView.counts.byGap.NO_FLOOD).toBe(1);
    expect(agentView.agents.map((a) => a.id)).toEqual([staff.agent.id]);
    const snooping = await loadCrossSellPage(database.db, asUser(staff.agent), { agent: staff.otherAgent.id });
    expect(snooping.rows).toEqual([]);
    expect(snooping.counts.total).toBe(0);
    expect((await loadCrossSellPage(database.db, asUser(staff.agent), { stage: "WON" })).rows).toEqual([]);
  });

  it("pages 50 households at a time", async () => {
    const ids = Array.from({ length: 60 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
    await database.db
      .insert(pulls)
      .values(ids.map((pullId) => ({ pullId, status: "SUCCESS", raw: {}, contentHash: "x" })));
    await database.db.insert(householdGaps).values(
      ids.map((pullId, i) => ({
        pullId,
        holderName: `Household ${i}`,
        policyCount: 1,
        lines: ["AUTO"],
        gaps: ["AUTO_NO_HOME"],
        annualPremiumCents: 1_000 * (i + 1),
        premiumInPlayCents: 1_000 * (i + 1),
      })),
    );
    const first = await loadCrossSellPage(database.db, asUser(staff.manager), {});
    expect(first).toMatchObject({ page: 1, pageCount: 2 });
    expect(first.rows).toHaveLength(50);
    expect(first.rows[0]?.holderName).toBe("Household 59");
    const second = await loadCrossSellPage(database.db, asUser(staff.manager), { page: "2" });
    expect(second.rows.map((r) => r.holderName)).toEqual(Array.from({ length: 10 }, (_, i) => `Household ${9 - i}`));
    expect((await loadCrossSellPage(database.db, asUser(staff.manager), { page: "3" })).rows).toEqual([]);
  });

  it("leaves out and names the parts of a link it cannot read", async () => {
    await book();
    const bad = await loadCrossSellPage(database.db, asUser(staff.manager), {
      gap: "NOPE",
      policies: "7",
      page: "0",
      stage: "MAYBE",
      agent: "someone",
    });
    expect(bad.ignored.sort()).toEqual(["agent", "gap", "page", "policies", "stage"]);
    expect(bad.query).toEqual({});
    expect(bad.page).toBe(1);
    expect(bad.counts.total).toBe(3);
    // A repeated parameter counts by its first value, as on every page.
    expect(
      (await loadCrossSellPage(database.db, asUser(staff.manager), { gap: ["AUTO_NO_HOME", "x"] })).rows,
    ).toHaveLength(1);
  });
});

describe("the cross-sell CSV", () => {
  const get = async (query = "") =>
    (await import("@/app/api/cross-sell/csv/route")).GET(new Request(`http://app/api/cross-sell/csv${query}`));

  it("downloads the filtered list as the viewer sees it, and records the export", async () => {
    const { mine, theirs, queue } = await book();
    current = { id: staff.manager.id };
    const response = await get("?gap=NO_FLOOD");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toContain("coverdesk-cross-sell.csv");
    const lines = (await response.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe(
      "name,email,policies in force,carriers,lines,gaps,annual premium,premium in play,stage,assignee,pull id",
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain("Queue Doe");
    expect(lines[1]).toContain("AUTO; HOMEOWNERS; MOTORCYCLE; UMBRELLA,No flood policy; Several carriers,");
    expect(lines[1]).toContain(",500.00,WORKING,,");
    expect(lines[2]).toContain(theirs.pull_id);
    const [audit] = await database.db.select().from(auditEvents).where(eq(auditEvents.action, "CSV_EXPORTED"));
    expect(audit).toMatchObject({
      actorId: staff.manager.id,
      details: { export: "cross-sell", filters: { gap: "NO_FLOOD" }, rows: 2 },
    });

    current = { id: staff.agent.id };
    const agentCsv = await (await get()).text();
    expect(agentCsv).toContain(mine.pull_id);
    expect(agentCsv).toContain(queue.pull_id);
    expect(agentCsv).not.toContain(theirs.pull_id);
  });

  it("answers 404 to a caller without a session, and writes nothing", async () => {
    await book();
    current = null;
    const response = await get();
    expect(response.status).toBe(404);
    expect(await database.db.select().from(auditEvents).where(eq(auditEvents.action, "CSV_EXPORTED"))).toEqual([]);
  });
});
