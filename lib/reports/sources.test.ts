import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dealReturns, pulls } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import { generatePulls, type SandboxPull } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { getReport } from "./queries";
import { reportCsv } from "./report-csv";
import { parseReportFilter } from "./report-filter";
import { loadReportsPage } from "@/lib/loaders/reports";
import { getSourceFigures, type SourceRow } from "./sources";

// Where business comes from and how fast it is worked, on a small book built by hand: every
// pull's link, owner, stage, link date and first touch set to known values, so each count,
// ratio and median is checked against what the test itself wrote. Then a refresh that must
// not count as an arrival, recycled wins, and each filter.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;
const WA = "0b5f8a4e-2f4c-4d7e-9b61-3a2c1d0e9f10"; // get-a-quote
const WB = "0b5f8a4e-2f4c-4d7e-9b61-3a2c1d0e9f11"; // renewal-review
const T0 = Date.parse("2026-03-02T09:00:00Z");
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(T0 + ms);
const ids: Record<string, string> = {};
let generated: SandboxPull[];

const figures = (params: Record<string, string> = {}) =>
  getSourceFigures(database.db, parseReportFilter(params).filter);
const row = (rows: SourceRow[], key: string) => rows.find((r) => r.key === key);

type Setup = Partial<typeof pulls.$inferInsert> & { arrivedAt: number };
async function set(name: string, { arrivedAt, ...values }: Setup) {
  await database.db
    .update(pulls)
    .set({ serviceCreatedAt: at(arrivedAt), ...values })
    .where(eq(pulls.pullId, ids[name] ?? ""));
}

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
  generated = generatePulls(77, 30, new Date("2026-04-01T00:00:00Z"));
  const ok = generated.filter((p) => p.status === "SUCCESS" && !p.parent_pull_id && p.account_identifier);
  const failed = generated.find((p) => p.status !== "SUCCESS" && !p.parent_pull_id);
  if (!failed || ok.length < 7) throw new Error("the generated book is too small");
  const book = { p1: ok[0], p2: ok[1], p3: ok[2], p4: failed, p5: ok[3], p6: ok[4], p8: ok[5] };
  for (const [name, pull] of Object.entries(book)) {
    if (!pull) throw new Error(name);
    await storePull(database.db, pull);
    ids[name] = pull.pull_id;
  }
  const { agent, otherAgent } = staff;
  const workedA = { widgetId: WA, publicAlias: "get-a-quote" };
  const workedB = { widgetId: WB, publicAlias: "renewal-review" };
  // Link A: a win (touched after 10 min, won after 2 days), a loss (30 min), one still worked (50 min), a failed link.
  await set("p1", {
    ...workedA,
    arrivedAt: 0,
    assigneeId: otherAgent.id, // won by Ann, handed to Otto since: the win stays Ann's
    stage: "WON",
    wonCreditedTo: agent.id,
    wonPremiumCents: 100_000,
    stageChangedAt: at(2 * DAY),
    firstTouchedAt: at(10 * MIN),
  });
  await set("p2", {
    ...workedA,
    arrivedAt: HOUR,
    assigneeId: agent.id,
    stage: "LOST",
    stageChangedAt: at(3 * DAY),
    firstTouchedAt: at(HOUR + 30 * MIN),
  });
  await set("p3", {
    ...workedA,
    arrivedAt: 2 * HOUR,
    assigneeId: otherAgent.id,
    firstTouchedAt: at(2 * HOUR + 50 * MIN),
  });
  await set("p4", { ...workedA, arrivedAt: 3 * HOUR, assigneeId: null, firstTouchedAt: null });
  // Link B: a win by Otto (3 hours to first touch, 4 days to WON), and one nobody has touched.
  await set("p5", {
    ...workedB,
    arrivedAt: 5 * DAY,
    assigneeId: otherAgent.id,
    stage: "WON",
    wonCreditedTo: otherAgent.id,
    wonPremiumCents: 50_000,
    stageChangedAt: at(9 * DAY),
    firstTouchedAt: at(5 * DAY + 3 * HOUR),
    policyTypes: ["FLOOD"],
  });
  await set("p6", { ...workedB, arrivedAt: 6 * DAY, assigneeId: null, firstTouchedAt: null });
  // A deal of link A linked months before, lost, come back and won again on day 20: a recycled win, not an arrival in March.
  await set("p8", {
    ...workedA,
    arrivedAt: -120 * DAY,
    assigneeId: agent.id,
    stage: "WON",
    wonCreditedTo: agent.id,
    wonPremiumCents: 70_000,
    stageChangedAt: at(20 * DAY),
    firstTouchedAt: at(-120 * DAY + 5 * MIN),
  });
  const returned = { kind: "RECYCLED", headline: "came back", pullId: ids.p8 ?? "", assigneeId: agent.id };
  await database.db.insert(dealReturns).values([
    { ...returned, key: `test:${ids.p8}:won`, wonAt: at(20 * DAY), wonPremiumCents: 70_000 },
    // Came back but not won: no recycled win.
    { ...returned, key: `test:${ids.p8}:open`, pullId: ids.p6 ?? "", assigneeId: null },
  ]);
});
afterAll(async () => {
  await database?.close();
});

describe("sources and speed, per link and per agent", () => {
  const march = { from: "2026-03-01", to: "2026-03-31" };

  it("counts the arrivals of each link, to where they stand now, with the medians", async () => {
    const { byLink } = await figures(march);
    expect(byLink.map((r) => r.key)).toEqual(["get-a-quote", "renewal-review"]);
    expect(row(byLink, "get-a-quote")).toEqual({
      key: "get-a-quote",
      label: "get-a-quote",
      widgetId: WA,
      alias: "get-a-quote",
      arrived: 4,
      completed: 3,
      assigned: 3,
      won: 1,
      lost: 1,
      wonCents: 100_000,
      closeRatio: 0.5,
      medianToFirstTouchMs: 30 * MIN, // of 10, 30 and 50 minutes; the failed link was never touched
      medianToWonMs: 2 * DAY,
      recycledWins: 1, // p8, won again on day 20
    });
    expect(row(byLink, "renewal-review")).toMatchObject({
      widgetId: WB,
      arrived: 2,
      completed: 2,
      assigned: 1,
      won: 1,
      lost: 0,
      wonCents: 50_000,
      closeRatio: 1,
      medianToFirstTouchMs: 3 * HOUR,
      medianToWonMs: 4 * DAY,
      recycledWins: 0,
    });
  });

  it("gives a win to the agent it is credited to and the rest to whoever has the pull, so each column adds up to the links'", async () => {
    const { byLink, byAgent } = await figures(march);
    // Ann: the loss she has (p2, touched after 30 min), and the win credited to her (p1, handed to Otto since).
    expect(row(byAgent, staff.agent.id)).toMatchObject({
      label: staff.agent.name,
      arrived: 1,
      completed: 1,
      assigned: 1,
      won: 1,
      lost: 1,
      closeRatio: 0.5,
      wonCents: 100_000,
      medianToFirstTouchMs: 30 * MIN,
      medianToWonMs: 2 * DAY,
      recycledWins: 1,
    });
    // Otto has p1, p3 and p5 (touched after 10 min, 50 min and 3 hours); p5 is his win.
    expect(row(byAgent, staff.otherAgent.id)).toMatchObject({
      arrived: 3,
      completed: 3,
      assigned: 3,
      won: 1,
      lost: 0,
      wonCents: 50_000,
      medianToFirstTouchMs: 50 * MIN,
      medianToWonMs: 4 * DAY,
    });
    expect(row(byAgent, "")).toMatchObject({ label: "No one", arrived: 2, completed: 1, assigned: 0, won: 0 });
    const total = (rows: SourceRow[], pick: (r: SourceRow) => number) => rows.reduce((a, r) => a + pick(r), 0);
    for (const pick of [
      (r: SourceRow) => r.arrived,
      (r: SourceRow) => r.completed,
      (r: SourceRow) => r.won,
      (r: SourceRow) => r.lost,
      (r: SourceRow) => r.wonCents,
      (r: SourceRow) => r.recycledWins,
    ])
      expect(total(byAgent, pick)).toBe(total(byLink, pick));
  });

  it("does not count a refresh of an account as a new arrival, nor its carried win", async () => {
    const first = generated.find((p) => p.pull_id === ids.p1);
    if (!first) throw new Error("no p1");
    const refresh = { ...first, pull_id: randomUUID(), created_at: at(4 * DAY).toISOString() };
    await storePull(database.db, refresh);
    await database.db
      .update(pulls)
      .set({ widgetId: WA, publicAlias: "get-a-quote" })
      .where(eq(pulls.pullId, refresh.pull_id));
    const [stored] = await database.db.select().from(pulls).where(eq(pulls.pullId, refresh.pull_id));
    expect(stored).toMatchObject({ stage: "WON", decisionCarried: true });
    const { byLink, byAgent } = await figures(march);
    expect(row(byLink, "get-a-quote")).toMatchObject({ arrived: 4, won: 1, wonCents: 100_000 });
    expect(row(byAgent, staff.otherAgent.id)).toMatchObject({ arrived: 3, won: 1 });
    expect(row(byAgent, staff.agent.id)).toMatchObject({ arrived: 1, won: 1 });
    // Even when its first pull is outside the range, a refresh is not an arrival.
    expect((await figures({ from: "2026-03-06", to: "2026-03-06" })).byLink).toEqual([]);
  });

  it("applies the report's filter: dates, link, agent and line of business", async () => {
    const linkB = await figures({ ...march, link: "renewal-review" });
    expect(linkB.byLink.map((r) => [r.key, r.arrived])).toEqual([["renewal-review", 2]]);
    expect(linkB.byAgent.map((r) => [r.key, r.arrived]).sort()).toEqual(
      [
        ["", 1],
        [staff.otherAgent.id, 1],
      ].sort(),
    );
    const ann = await figures({ ...march, agent: staff.agent.id });
    // Her pulls (p2) and her wins (p1, and p8 won again on day 20).
    expect(ann.byLink.map((r) => [r.key, r.arrived, r.won, r.lost, r.recycledWins])).toEqual([
      ["get-a-quote", 1, 1, 1, 1],
    ]);
    expect(ann.byAgent.map((r) => r.key)).toEqual([staff.agent.id]);
    const flood = await figures({ ...march, line: "FLOOD" });
    expect(flood.byLink.map((r) => [r.key, r.arrived, r.won])).toEqual([["renewal-review", 1, 1]]);
    // The first week of March: link A's four pulls only; the recycled win of day 20 is outside.
    const week = await figures({ from: "2026-03-01", to: "2026-03-06" });
    expect(week.byLink.map((r) => [r.key, r.arrived, r.recycledWins])).toEqual([["get-a-quote", 4, 0]]);
    // All time: p8 arrives too (in November), and its win counts as a win of link A.
    const all = await figures();
    expect(row(all.byLink, "get-a-quote")).toMatchObject({ arrived: 5, won: 2, wonCents: 170_000, recycledWins: 1 });
  });

  it("reads a garbage filter as the other reports do: named and left out, the figures unfiltered", async () => {
    const page = await loadReportsPage(database.db, {
      agent: "'; drop table pulls; --",
      from: "2026-02-31x",
      line: "auto; drop",
      link: "x".repeat(500),
      period: "decade",
    });
    expect(page.ignored.sort()).toEqual(["agent", "from", "line", "link", "period"]);
    expect(page.report.sourcesByLink).toEqual((await figures()).byLink);
    expect(page.linkNamesAnswered).toBeUndefined(); // not asked: no service given
  });

  it("joins the report and downloads both tables as CSV, medians in minutes", async () => {
    const report = await getReport(database.db, parseReportFilter(march).filter);
    expect(report.sourcesByLink.map((r) => r.key)).toEqual(["get-a-quote", "renewal-review"]);
    const links = reportCsv(report, "sourcesByLink").split("\r\n");
    expect(links[0]).toBe(
      "link,public alias,widget id,arrived,completed,assigned,won,lost,won premium,close ratio,median minutes to first touch,median minutes to won,recycled wins",
    );
    expect(links[1]).toBe(`get-a-quote,get-a-quote,${WA},4,3,3,1,1,1000.00,0.5000,30.0,2880.0,1`);
    const agents = reportCsv(report, "sourcesByAgent").split("\r\n");
    expect(agents[0]?.startsWith("agent,arrived,")).toBe(true);
    expect(agents).toContain(`${staff.agent.name},1,1,1,1,1,1000.00,0.5000,30.0,2880.0,1`);
  });

  it("reads nothing as nothing", async () => {
    expect(await figures({ from: "2999-01-01" })).toEqual({ byLink: [], byAgent: [] });
  });
});
