import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pulls } from "@/db/schema";
import { queryRows } from "@/db/connect";
import { storePull } from "@/lib/pulls/store-pull";
import { assignPulls } from "@/lib/workflow/assignment";
import { setPullStage } from "@/lib/workflow/funnel";
import { generatePulls, type SandboxPull } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { getReport } from "./queries";
import { parseReportFilter } from "./report-filter";

// Every figure of the report against what the test itself set up: known stages, premiums and
// owners, including a one-cent win and a win reassigned afterwards.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;
let book: SandboxPull[];
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
  });

  it("sums won premium by agent, carrier, line and link, and credits the agent who had it when won", async () => {
    book = generatePulls(51, 30, new Date())
      .filter((p) => p.status === "SUCCESS" && !p.parent_pull_id && !p.is_archived)
      .slice(0, 8);
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
    expect(r.medianDaysToWon).toBeCloseTo(Number(median?.days), 6);
    expect(r.newPulls.reduce((sum, row) => sum + row.count, 0)).toBe(book.length);
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
});
