import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pulls } from "@/db/schema";
import { queryRows } from "@/db/connect";
import { storePull } from "@/lib/ingest/store-pull";
import { assignPulls } from "@/lib/workflow/assignment";
import { setPullStage } from "@/lib/workflow/funnel";
import { generatePulls, type SandboxPull } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { getReport, getWonAndCloseRatio } from "./queries";
import { parseReportFilter } from "./report-filter";

// Every figure of the report against what the test itself set up: known stages, premiums and
// owners, including a one-cent win and a win reassigned afterwards; then the funnel with a
// failed link, a win nobody was assigned and a decision carried over to a refresh.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;
let book: SandboxPull[];
let generated: SandboxPull[];
const report = (params: Record<string, string> = {}) => getReport(database.db, parseReportFilter(params).filter);

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
});
afterAll(async () => {
  await database?.close();
});

describe("reports", () => {
  it("reads zero and nothing when there is no data", async () => {
    const empty = await report();
    expect(empty.won).toEqual({ count: 0, cents: 0 });
    expect(empty.byAgent).toEqual([]);
    expect(empty.closeRatio).toEqual({ rows: [], won: 0, lost: 0, ratio: null });
    expect(empty.pipeline).toEqual({ count: 0, cents: 0 });
    expect(empty.medianDaysToWon).toBeNull();
    expect(empty.byPeriodAgent).toEqual([]);
    expect(empty.funnel.map((s) => [s.key, s.count, s.ofPrevious])).toEqual([
      ["linked", 0, null],
      ["successful", 0, null],
      ["assigned", 0, null],
      ["worked", 0, null],
      ["won", 0, null],
    ]);
  });

  it("sums won premium by agent, carrier, line and link, and credits the agent who had it when won", async () => {
    generated = generatePulls(51, 30, new Date());
    book = generated.filter((p) => p.status === "SUCCESS" && !p.parent_pull_id && !p.is_archived).slice(0, 8);
    for (const pull of book) await storePull(database.db, pull);
    const [a, b, c, d, e] = book.map((p) => p.pull_id) as [string, string, string, string, string];
    await assignPulls(database.db, staff.manager, { pullIds: [a, b, c], assigneeId: staff.agent.id });
    await assignPulls(database.db, staff.manager, { pullIds: [d, e], assigneeId: staff.otherAgent.id });
    await setPullStage(database.db, staff.agent, { pullId: a, stage: "WON", premium: "1,000.00" });
    await setPullStage(database.db, staff.agent, { pullId: b, stage: "WON", premium: "0.01" });
    await setPullStage(database.db, staff.agent, { pullId: c, stage: "LOST", lostReason: "price" });
    await setPullStage(database.db, staff.otherAgent, { pullId: d, stage: "WON", premium: "250.50" });
    // Won by the first agent, then handed to the other: the credit stays with the first.
    await assignPulls(database.db, staff.manager, { pullIds: [b], assigneeId: staff.otherAgent.id });

    const r = await report();
    expect(r.won).toEqual({ count: 3, cents: 100_000 + 1 + 25_050 });
    expect(r.byAgent).toEqual([
      { key: staff.agent.id, label: staff.agent.name, count: 2, cents: 100_001 },
      { key: staff.otherAgent.id, label: staff.otherAgent.name, count: 1, cents: 25_050 },
    ]);
    const wins = book.filter((p) => [a, b, d].includes(p.pull_id));
    const cents = new Map([
      [a, 100_000],
      [b, 1],
      [d, 25_050],
    ]);
    const expectBy = (keyOf: (p: SandboxPull) => string) => {
      const totals = new Map<string, number>();
      for (const p of wins) totals.set(keyOf(p), (totals.get(keyOf(p)) ?? 0) + (cents.get(p.pull_id) ?? 0));
      return totals;
    };
    expect(new Map(r.byCarrier.map((row) => [row.key, row.cents]))).toEqual(
      expectBy((p) => String(p.insurance_provider_name)),
    );
    const lines = (p: SandboxPull) =>
      [...new Set((p.policies as Array<{ policy_type: string }>).map((x) => x.policy_type))].sort().join(" + ") ||
      "NONE";
    expect(new Map(r.byLine.map((row) => [row.key, row.cents]))).toEqual(expectBy(lines));
    expect(new Map(r.byLink.map((row) => [row.key, row.cents]))).toEqual(expectBy((p) => String(p.public_alias ?? "")));
    expect(r.byPeriod.reduce((sum, row) => sum + row.cents, 0)).toBe(125_051);
  });

  it("computes close ratios, the open pipeline and the median days to a win", async () => {
    const r = await report();
    const agentRow = r.closeRatio.rows.find((row) => row.key === staff.agent.id);
    expect(agentRow).toMatchObject({ won: 2, lost: 1 });
    expect(agentRow?.ratio).toBeCloseTo(2 / 3, 10);
    expect(r.closeRatio).toMatchObject({ won: 3, lost: 1, ratio: 0.75 });
    const [direct] = await queryRows<{ count: number; cents: number }>(
      database.db,
      sql`select count(*)::int as count, coalesce(sum(total_premium_cents), 0)::float8 as cents from pulls where stage = 'WORKING' and status = 'SUCCESS' and not is_archived and parent_pull_id is null`,
    );
    expect(r.pipeline).toEqual({ count: Number(direct?.count), cents: Number(direct?.cents) });
    const [median] = await queryRows<{ days: number }>(
      database.db,
      sql`select percentile_cont(0.5) within group (order by extract(epoch from stage_changed_at - service_created_at) / 86400)::float8 as days from pulls where stage = 'WON'`,
    );
    // Kept in tenths of a day, as the headline shows it: with three wins (one middle value) exact at that precision.
    expect(r.medianDaysToWon).toBe(Math.round(Number(median?.days) * 10) / 10);
    expect(r.newPulls.reduce((sum, row) => sum + row.count, 0)).toBe(book.length);
  });

  it("splits won premium by period and agent, adding up to the totals by agent and by period", async () => {
    const r = await report();
    const month = `${new Date().toISOString().slice(0, 7)}-01`;
    expect(r.byPeriodAgent).toEqual([
      { period: month, agent: staff.agent.id, label: staff.agent.name, count: 2, cents: 100_001 },
      { period: month, agent: staff.otherAgent.id, label: staff.otherAgent.name, count: 1, cents: 25_050 },
    ]);
    for (const period of ["week", "month", "quarter"] as const) {
      const p = await report({ period });
      const sumBy = (key: (row: (typeof p.byPeriodAgent)[number]) => string) => {
        const totals = new Map<string, number>();
        for (const row of p.byPeriodAgent) totals.set(key(row), (totals.get(key(row)) ?? 0) + row.cents);
        return totals;
      };
      // The added grouping set leaves every other figure as it was.
      expect(sumBy((row) => row.agent)).toEqual(new Map(p.byAgent.map((row) => [row.key, row.cents])));
      expect(sumBy((row) => row.period)).toEqual(new Map(p.byPeriod.map((row) => [row.key, row.cents])));
      expect(p.won).toEqual(r.won);
      expect(p.byAgent).toEqual(r.byAgent);
      expect(p.byCarrier).toEqual(r.byCarrier);
      expect(p.byLine).toEqual(r.byLine);
      expect(p.byLink).toEqual(r.byLink);
    }
  });

  it("groups by quarter: periods start in January, April, July or October and add up", async () => {
    const r = await report({ period: "quarter" });
    expect(r.period).toBe("quarter");
    for (const key of [...r.byPeriod.map((row) => row.key), ...r.newPulls.map((row) => row.period)])
      expect(key).toMatch(/^\d{4}-(01|04|07|10)-01$/);
    expect(r.byPeriod.reduce((sum, row) => sum + row.cents, 0)).toBe(125_051);
    expect(r.newPulls.reduce((sum, row) => sum + row.count, 0)).toBe(book.length);
    const quarterOf = (iso: string) => {
      const d = new Date(iso);
      return `${d.getUTCFullYear()}-${String(d.getUTCMonth() - (d.getUTCMonth() % 3) + 1).padStart(2, "0")}-01`;
    };
    const expected = new Map<string, number>();
    for (const p of book) expected.set(quarterOf(p.created_at), (expected.get(quarterOf(p.created_at)) ?? 0) + 1);
    expect(new Map(r.newPulls.map((row) => [row.period, row.count]))).toEqual(expected);
  });

  it("follows the linked pulls down the funnel: successful, assigned, decided, won", async () => {
    const r = await report();
    // Eight successful links, five assigned (a to e), four decided (a, b, d won; c lost).
    expect(r.funnel.map((s) => [s.key, s.count])).toEqual([
      ["linked", 8],
      ["successful", 8],
      ["assigned", 5],
      ["worked", 4],
      ["won", 3],
    ]);
    expect(r.funnel.map((s) => s.ofPrevious)).toEqual([null, 1, 5 / 8, 4 / 5, 3 / 4]);
    expect(r.funnel[0]?.count).toBe(r.newPulls.reduce((sum, row) => sum + row.count, 0));
    expect(r.funnel[1]?.count).toBe(r.newPulls.reduce((sum, row) => sum + row.successful, 0));
    const future = await report({ from: "2999-01-01" });
    expect(future.funnel.every((s) => s.count === 0)).toBe(true);
  });

  it("narrows every figure by agent, line and link, and names filters it cannot read", async () => {
    const mine = await report({ agent: staff.otherAgent.id });
    expect(mine.won).toEqual({ count: 1, cents: 25_050 });
    expect(mine.byAgent.map((r) => r.key)).toEqual([staff.otherAgent.id]);
    const future = await report({ from: "2999-01-01" });
    expect(future.won.count).toBe(0);
    expect(parseReportFilter({ agent: "bob", line: "auto; drop", period: "year" }).ignored.sort()).toEqual([
      "agent",
      "line",
      "period",
    ]);
    const [first] = book;
    await database.db
      .update(pulls)
      .set({ publicAlias: "spring-promo" })
      .where(eq(pulls.pullId, first?.pull_id ?? ""));
    expect((await report({ link: "spring-promo" })).won).toEqual({ count: 1, cents: 100_000 });
  });

  it("counts a failed link as linked only, a win nobody was assigned as assigned, and a carried decision once", async () => {
    const failed = generated.find((p) => p.status !== "SUCCESS" && !p.parent_pull_id);
    const unassigned = generated.filter((p) => p.status === "SUCCESS" && !p.parent_pull_id && !p.is_archived)[8];
    if (!failed || !unassigned) throw new Error("the generated book has no failed or spare pull");
    await storePull(database.db, failed);
    await storePull(database.db, unassigned);
    // A manager marks it won without assigning it: whoever decided it took it up.
    expect(
      await setPullStage(database.db, staff.manager, { pullId: unassigned.pull_id, stage: "WON", premium: "10.00" }),
    ).toMatchObject({ ok: true });
    // A refresh of the first won account: it carries the win, which stays the first pull's.
    const [first] = book;
    if (!first) throw new Error("no book");
    const refresh = { ...first, pull_id: randomUUID(), created_at: new Date().toISOString() };
    await storePull(database.db, refresh);
    const [carried] = await database.db.select().from(pulls).where(eq(pulls.pullId, refresh.pull_id));
    expect(carried).toMatchObject({ stage: "WON", decisionCarried: true, assigneeId: staff.agent.id });

    const r = await report();
    expect(r.funnel.map((s) => [s.key, s.count])).toEqual([
      ["linked", 11],
      ["successful", 10],
      ["assigned", 7],
      ["worked", 5],
      ["won", 4],
    ]);
    expect(r.won).toEqual({ count: 4, cents: 125_051 + 1_000 });
    await expectMyPullsFiguresAsTheReport();
    // An agent's funnel is their pulls': a and c, and the refresh of a (b was handed on).
    const mine = await report({ agent: staff.agent.id });
    expect(mine.funnel.map((s) => [s.key, s.count])).toEqual([
      ["linked", 3],
      ["successful", 3],
      ["assigned", 3],
      ["worked", 2],
      ["won", 1],
    ]);
    // Once the first pull is reopened, the refresh's win is its own.
    expect(await setPullStage(database.db, staff.manager, { pullId: first.pull_id, stage: "WORKING" })).toMatchObject({
      ok: true,
    });
    expect((await report()).funnel.map((s) => s.count)).toEqual([11, 10, 7, 5, 4]);
    await expectMyPullsFiguresAsTheReport();
  });
});

/**
 * My pulls reads won premium and the close ratio alone (getWonAndCloseRatio): they must be the
 * report's, for the book, each agent, a month and a line, carried decisions included.
 */
async function expectMyPullsFiguresAsTheReport() {
  const today = new Date().toISOString().slice(0, 10);
  const filters: Array<Record<string, string>> = [
    {},
    { agent: staff.agent.id },
    { agent: staff.otherAgent.id },
    { agent: staff.manager.id, from: `${today.slice(0, 8)}01` },
    { from: today, to: today },
    { line: "AUTO" },
  ];
  for (const params of filters) {
    const { filter } = parseReportFilter(params);
    const [full, figures] = await Promise.all([
      getReport(database.db, filter),
      getWonAndCloseRatio(database.db, filter),
    ]);
    expect(figures, JSON.stringify(params)).toEqual({ won: full.won, closeRatio: full.closeRatio });
  }
  // Not every filter reads nothing: the book's own figures are there to compare.
  expect((await getWonAndCloseRatio(database.db, {})).won.count).toBeGreaterThan(0);
}
