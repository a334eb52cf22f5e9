import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pulls } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import { removePulls } from "@/lib/privacy/remove-pulls";
import { assignPulls } from "@/lib/workflow/assignment";
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
import { reconcileReportRollups } from "./rollup-reconcile";
import { rebuildReportRollups } from "./rollups";

// The reports' rollups must equal a full recomputation from the pulls after any sequence of the
// writes that change them: stage changes (won, lost, undone), reassignment, new pulls (refreshes
// of an account carry its decision over), erasure. Random books, several seeds; after each
// sequence the sums are reconciled (zero differences) and every report read from them is
// compared with the same report computed from the pulls.

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

type Step = "win" | "lose" | "undo" | "reassign" | "unassign" | "refresh" | "erase";
const STEPS: Step[] = [
  "win",
  "win",
  "lose",
  "lose",
  "undo",
  "reassign",
  "unassign",
  "refresh",
  "refresh",
  "refresh",
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

async function expectReportsAsFromPulls(filters: ReportFilter[]): Promise<void> {
  for (const filter of filters) {
    expect(normalized(await getReport(database.db, filter)), JSON.stringify(filter)).toEqual(
      normalized(await computeReportFromPulls(database.db, filter)),
    );
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
  });
});
