import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pulls } from "@/db/schema";
import { formatDuration } from "@/lib/format";
import { storePull } from "@/lib/ingest/store-pull";
import { removePulls } from "@/lib/privacy/remove-pulls";
import { assignPulls } from "@/lib/workflow/assignment";
import { markPullSeen } from "@/lib/workflow/seen";
import { setPullStage } from "@/lib/workflow/funnel";
import { LOST_CATEGORIES } from "@/lib/workflow/lost-reasons";
import { generatePulls, type SandboxPull } from "@/sandbox/data/pulls";
import { createRandom, type Random } from "@/sandbox/data/random";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { getLostReasons, getReport, getWonAndCloseRatio } from "./queries";
import {
  computeLostReasonsFromPulls,
  computeReportFromPulls,
  computeWonAndCloseRatioFromPulls,
} from "./queries-from-pulls";
import type { ReportFilter } from "./report-filter";
import type { SourceRow } from "./sources";
import { reconcileReportRollups } from "./rollup-reconcile";
import { rebuildReportRollups } from "./rollups";

// The reports' rollups must equal a full recomputation from the pulls after any sequence of the
// writes that change them: stage changes (won, lost, undone), reassignment, first touches, new
// pulls (refreshes of an account carry its decision over), archiving, erasure. Random books,
// several seeds; after each sequence the sums are reconciled (zero differences) and every report
// read from them is compared with the same report computed from the pulls. The medians, read
// from histograms whose buckets are the durations as the page shows them, are compared at that
// precision: the same shown value when one value is in the middle, within one shown unit (a
// minute, an hour, a day; 0.1 day for the headline) when two are.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
});
afterAll(async () => {
  await database?.close();
});

const NOW = new Date("2026-06-15T00:00:00Z");

/** Arrays sorted, so rows that tie in the reports' order compare equal whatever order they came in. */
function normalized(value: unknown): unknown {
  if (Array.isArray(value))
    return value.map(normalized).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalized(v)]));
  return value;
}

async function listedPullIds(): Promise<string[]> {
  const rows = await database.db
    .select({ id: pulls.pullId })
    .from(pulls)
    .where(sql`${pulls.listed}`)
    .orderBy(pulls.pullId);
  return rows.map((r) => r.id);
}

/** A book of `size` pulls whose accounts repeat, so refreshes of an account arrive among them. */
async function storeBook(random: Random, seed: number, size: number): Promise<SandboxPull[]> {
  const generated = generatePulls(seed, size, NOW);
  const accounts = generated.flatMap((p) => (p.account_identifier ? [p.account_identifier] : [])).slice(0, 6);
  const stored: SandboxPull[] = [];
  for (const payload of generated) {
    const pull =
      payload.account_identifier && accounts.length > 0 && random.chance(0.4)
        ? { ...payload, account_identifier: random.pick(accounts) }
        : payload;
    await storePull(database.db, pull);
    stored.push(pull);
  }
  return stored;
}

type Step = "win" | "lose" | "undo" | "reassign" | "unassign" | "touch" | "refresh" | "archive" | "erase";
const STEPS: Step[] = [
  "win",
  "win",
  "lose",
  "lose",
  "undo",
  "reassign",
  "unassign",
  "touch",
  "refresh",
  "refresh",
  "refresh",
  "archive",
  "erase",
];

/** One random write; answers what it did, for a failure's message. */
async function randomStep(random: Random, book: SandboxPull[]): Promise<string> {
  const ids = await listedPullIds();
  const pullId = random.pick(ids);
  const step = random.pick(STEPS);
  const at = new Date(NOW.getTime() - random.int(0, 200) * 86_400_000 - random.int(0, 86_399) * 1000);
  const actor = random.pick([staff.manager, staff.admin]);
  switch (step) {
    case "win":
      await setPullStage(
        database.db,
        actor,
        { pullId, stage: "WON", premium: `${random.int(100, 5000)}.${random.int(10, 99)}` },
        at,
      );
      break;
    case "lose":
      await setPullStage(
        database.db,
        actor,
        {
          pullId,
          stage: "LOST",
          lostCategory: random.pick(LOST_CATEGORIES),
          lostToCarrier: random.chance(0.5) ? random.pick(["Acme", "Bolt"]) : undefined,
          lostToPremium: random.chance(0.5) ? `${random.int(100, 3000)}` : undefined,
        },
        at,
      );
      break;
    case "undo":
      await setPullStage(database.db, actor, { pullId, stage: "WORKING" }, at);
      break;
    case "reassign":
      await assignPulls(database.db, staff.manager, {
        pullIds: [pullId],
        assigneeId: random.pick([staff.agent.id, staff.otherAgent.id]),
      });
      break;
    case "unassign":
      await assignPulls(database.db, staff.manager, { pullIds: [pullId], assigneeId: null });
      break;
    case "touch": {
      // The assignee opens the pull: its first touch, when it has none yet.
      const [row] = await database.db.select().from(pulls).where(eq(pulls.pullId, pullId));
      if (row?.assigneeId) await markPullSeen(database.db, row.assigneeId, pullId, at);
      break;
    }
    case "archive":
      await database.db
        .update(pulls)
        .set({ isArchived: sql`not ${pulls.isArchived}` })
        .where(eq(pulls.pullId, pullId));
      break;
    case "refresh": {
      // A new pull of an account already worked: the carry-over copies its decision.
      const [row] = await database.db.select().from(pulls).where(eq(pulls.pullId, pullId));
      const template = random.pick(book);
      await storePull(database.db, {
        ...template,
        pull_id: random.uuid(),
        account_identifier: row?.accountIdentifier ?? template.account_identifier,
        created_at: new Date(NOW.getTime() + random.int(1, 30) * 86_400_000).toISOString(),
      });
      break;
    }
    case "erase":
      await database.db.transaction((tx) => removePulls(tx, [pullId], { kind: "ERASURE", requestId: null }));
      break;
  }
  return `${step} ${pullId}`;
}

/** The unit a duration is shown in (formatDuration): a minute under 2 hours, an hour under 2 days, else a day. */
const shownUnitMs = (ms: number) => (ms < 7_200_000 ? 60_000 : ms < 172_800_000 ? 3_600_000 : 86_400_000);

/** A median from the histogram beside the one from the pulls: shown alike for one middle value, within a unit for two. */
function expectSameShownMedian(kept: number | null, exact: number | null, middleValues: 1 | 2, what: string): void {
  expect(kept === null, what).toBe(exact === null);
  if (kept === null || exact === null) return;
  if (middleValues === 1) expect(formatDuration(kept), what).toBe(formatDuration(exact));
  expect(Math.abs(kept - exact), `${what}: ${kept} against ${exact}`).toBeLessThanOrEqual(
    shownUnitMs(Math.max(kept, exact)),
  );
}

/** The sources rows compared, medians at the page's precision; answers the rows without medians. */
function sourcesWithoutMedians(kept: SourceRow[], exact: SourceRow[], what: string): unknown {
  for (const row of kept) {
    const other = exact.find((r) => r.key === row.key);
    expect(other, `${what} ${row.key}`).toBeDefined();
    if (!other) continue;
    expectSameShownMedian(
      row.medianToWonMs,
      other.medianToWonMs,
      row.won % 2 === 1 ? 1 : 2,
      `${what} ${row.key} to WON`,
    );
    expectSameShownMedian(row.medianToFirstTouchMs, other.medianToFirstTouchMs, 2, `${what} ${row.key} to first touch`);
  }
  return normalized(kept.map(({ medianToWonMs: _w, medianToFirstTouchMs: _t, ...rest }) => rest));
}

async function expectReportsAsFromPulls(filters: ReportFilter[]): Promise<void> {
  for (const filter of filters) {
    const what = JSON.stringify(filter);
    const kept = await getReport(database.db, filter);
    const exact = await computeReportFromPulls(database.db, filter);
    expect(kept.medianDaysToWon === null, what).toBe(exact.medianDaysToWon === null);
    // The headline shows days to one decimal.
    expect(Math.abs((kept.medianDaysToWon ?? 0) - (exact.medianDaysToWon ?? 0)), what).toBeLessThanOrEqual(0.1 + 1e-9);
    expect(sourcesWithoutMedians(kept.sourcesByLink, exact.sourcesByLink, `${what} link`)).toEqual(
      sourcesWithoutMedians(exact.sourcesByLink, exact.sourcesByLink, `${what} link`),
    );
    expect(sourcesWithoutMedians(kept.sourcesByAgent, exact.sourcesByAgent, `${what} agent`)).toEqual(
      sourcesWithoutMedians(exact.sourcesByAgent, exact.sourcesByAgent, `${what} agent`),
    );
    const rest = (r: typeof kept) => {
      const { medianDaysToWon: _m, sourcesByLink: _l, sourcesByAgent: _a, ...others } = r;
      return normalized(others);
    };
    expect(rest(kept), what).toEqual(rest(exact));
    expect(normalized(await getLostReasons(database.db, filter))).toEqual(
      normalized(await computeLostReasonsFromPulls(database.db, filter)),
    );
    expect(normalized(await getWonAndCloseRatio(database.db, filter))).toEqual(
      normalized(await computeWonAndCloseRatioFromPulls(database.db, filter)),
    );
  }
}

describe("report rollups", () => {
  for (const seed of [11, 29, 47]) {
    it(`equal a full recomputation after random writes (seed ${seed})`, async () => {
      const random = createRandom(seed);
      const book = await storeBook(random, seed, 24);
      const done: string[] = [];
      for (let i = 0; i < 60; i++) {
        done.push(await randomStep(random, book));
        if (i % 20 === 19) expect(await reconcileReportRollups(database.db), done.join("\n")).toEqual([]);
      }
      expect(await reconcileReportRollups(database.db), done.join("\n")).toEqual([]);
      // The sequence reached the cases that matter: wins, losses, and decisions carried to a refresh.
      const [mix] = await database.db
        .select({
          won: sql<number>`count(*) filter (where ${pulls.stage} = 'WON')::int`,
          lost: sql<number>`count(*) filter (where ${pulls.stage} = 'LOST')::int`,
          carried: sql<number>`count(*) filter (where ${pulls.decisionCarried})::int`,
        })
        .from(pulls);
      expect(mix).toMatchObject({ won: expect.any(Number), lost: expect.any(Number) });
      expect(Math.min(mix?.won ?? 0, mix?.lost ?? 0, mix?.carried ?? 0)).toBeGreaterThan(0);
      const aliases = book.flatMap((p) => (typeof p.public_alias === "string" ? [p.public_alias] : []));
      await expectReportsAsFromPulls([
        {},
        { period: "week" },
        { period: "quarter", from: "2026-02-01", to: "2026-05-31" },
        { agent: staff.agent.id },
        { agent: staff.otherAgent.id, period: "week" },
        { line: "AUTO" },
        { link: aliases[0] ?? "none" },
        { from: "2026-04-10", to: "2026-04-20", line: "HOMEOWNERS" },
        // Whole months from the month sums, the ends from the days.
        { from: "2026-03-15", to: "2026-05-10" },
        { to: "2026-04-03", agent: staff.agent.id },
      ]);
    });
  }

  it("counts a decision, then not once it is undone", async () => {
    const [pullId] = await listedPullIds();
    if (!pullId) throw new Error("no pull");
    await setPullStage(database.db, staff.manager, { pullId, stage: "WORKING" });
    const before = await getWonAndCloseRatio(database.db, {});
    const won = await setPullStage(database.db, staff.manager, { pullId, stage: "WON", premium: "1000.00" });
    expect(won).toMatchObject({ ok: true });
    const after = await getWonAndCloseRatio(database.db, {});
    expect(after.won.count).toBe(before.won.count + 1);
    expect(after.won.cents).toBe(before.won.cents + 100_000);
    await setPullStage(database.db, staff.manager, { pullId, stage: "WORKING" });
    expect(await getWonAndCloseRatio(database.db, {})).toEqual(before);
    expect(await reconcileReportRollups(database.db)).toEqual([]);
  });

  it("moves the median to first touch when the assignee first opens a pull, and nothing else changes", async () => {
    const [pullId] = await listedPullIds();
    if (!pullId) throw new Error("no pull");
    await assignPulls(database.db, staff.manager, { pullIds: [pullId], assigneeId: staff.agent.id });
    await database.db.update(pulls).set({ firstTouchedAt: null, assigneeSeenAt: null }).where(eq(pulls.pullId, pullId));
    expect(await reconcileReportRollups(database.db)).toEqual([]);
    const before = await getReport(database.db, {});
    await markPullSeen(database.db, staff.agent.id, pullId, new Date("2026-06-20T00:00:00Z"));
    expect(await reconcileReportRollups(database.db)).toEqual([]);
    const after = await getReport(database.db, {});
    expect(after.sourcesByAgent).not.toEqual(before.sourcesByAgent);
    await expectReportsAsFromPulls([{}]);
  });

  it("stays exact when writes and reports run at the same time", async () => {
    const ids = (await listedPullIds()).slice(0, 16);
    // Stage changes and reassignments on many connections at once (on PostgreSQL), with reports
    // refreshing the sums between them: each sum is added to by several transactions.
    await Promise.all([
      ...ids.map((pullId, i) =>
        i % 3 === 0
          ? assignPulls(database.db, staff.manager, { pullIds: [pullId], assigneeId: staff.agent.id })
          : setPullStage(
              database.db,
              staff.manager,
              i % 3 === 1
                ? { pullId, stage: "WON", premium: "500.00" }
                : { pullId, stage: "LOST", lostCategory: "PRICE" },
            ),
      ),
      getReport(database.db, {}),
      getLostReasons(database.db, {}),
      getWonAndCloseRatio(database.db, {}),
    ]);
    expect(await reconcileReportRollups(database.db)).toEqual([]);
  });

  it("finds a sum changed behind the rollups' back, and a rebuild sets it right", async () => {
    await database.db.execute(sql`update report_rollups set cents = cents + 1 where kind = 'created'`);
    const differences = await reconcileReportRollups(database.db);
    expect(differences.length).toBeGreaterThan(0);
    expect(differences[0]).toMatchObject({ kind: "created" });
    await rebuildReportRollups(database.db);
    expect(await reconcileReportRollups(database.db)).toEqual([]);
    // The sources' sums and histograms alike.
    await database.db.execute(sql`update report_source_rollups set count = count + 1 where kind = 'touch'`);
    const touched = await reconcileReportRollups(database.db);
    expect(touched.length).toBeGreaterThan(0);
    expect(touched.every((d) => d.kind === "sources:touch")).toBe(true);
    await rebuildReportRollups(database.db);
    expect(await reconcileReportRollups(database.db)).toEqual([]);
  });
});
