import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "@/db/connect";
import { pulls, PULL_STAGES } from "@/db/schema";
import type { Actor } from "@/lib/core/actor";
import { storePull } from "@/lib/ingest/store-pull";
import { removePulls } from "@/lib/privacy/remove-pulls";
import type { ListViewer } from "@/lib/pulls/visibility";
import { createOffice, setUserOffice } from "@/lib/users/offices";
import { assignPulls } from "@/lib/workflow/assignment";
import { setPullStage } from "@/lib/workflow/funnel";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { householdPayload, type HouseholdPolicy } from "@/test/household-payload";
import { createStaff } from "@/test/workflow-fixture";
import { GAP_CODES } from "./gaps";
import { keptCountsServe, rebuildCrossSellCounts } from "./kept-counts";
import { POLICY_BUCKETS, type CrossSellQuery } from "./list-query";
import { countCrossSell, countCrossSellByScan, crossSellCountsAndRows, listCrossSell } from "./queries";

// The counts kept ahead (migration 0050) against the scan they replace: on random books, after
// random writes made the way the app makes them (storing pulls and refreshes, assigning,
// unassigning, stage changes, moving agents between offices, erasure, deleting pulls), the page's
// counts for an admin and for each office's manager, under every filter the kept counts serve,
// must be exactly the scan's. Any write path the triggers miss shows up here as a difference.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;
let offices: string[];
const onPostgres = Boolean(process.env.DATABASE_URL);

/** A small deterministic generator, so a failing book can be rebuilt from its seed. */
function randomOf(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
  };
}
type Random = ReturnType<typeof randomOf>;

/** Households with every gap somewhere: bundles, monolines, several carriers, young drivers, no premium, nothing in force. */
const MIXES: HouseholdPolicy[][] = [
  [{ type: "AUTO" }],
  [{ type: "AUTO" }, { type: "HOMEOWNERS" }],
  [
    { type: "AUTO", carrier: "Geico" },
    { type: "HOMEOWNERS", carrier: "Allstate", premium: 400_000 },
  ],
  [{ type: "RENTERS", premium: null }],
  [{ type: "HOMEOWNERS", premium: 250_000 }],
  [{ type: "AUTO" }, { type: "CONDO" }, { type: "UMBRELLA" }],
  [{ type: "AUTO" }, { type: "AUTO", carrier: "Geico" }, { type: "HOMEOWNERS" }, { type: "FLOOD" }],
  [{ type: "AUTO" }, { type: "MOTORCYCLE" }, { type: "BOAT" }, { type: "HOMEOWNERS" }, { type: "RENTERS" }],
  [{ type: "AUTO", status: "CANCELLED" }],
  [],
];

function payloadOf(random: Random, account?: string) {
  const young = random.next() < 0.3;
  return householdPayload({
    account: account ?? (random.next() < 0.1 ? null : `acct_${randomUUID()}`),
    createdAt: new Date(Date.UTC(2026, 0, 1) + random.int(300) * 86_400_000).toISOString(),
    first: `H${random.int(1_000)}`,
    policies: random.pick(MIXES),
    drivers: young ? [{ birth: "2006-05-01" }] : [{ birth: "1970-05-01" }],
  });
}

const admin = (): Actor => staff.admin;

async function pullIds(): Promise<Array<{ id: string; account: string | null }>> {
  return (
    await database.db.select({ id: pulls.pullId, account: pulls.accountIdentifier }).from(pulls).orderBy(pulls.pullId)
  ).map((r) => ({ id: r.id, account: r.account }));
}

/** One write, as the app makes it; answers what it did, for the failure message. */
async function randomWrite(random: Random): Promise<string> {
  const all = await pullIds();
  const some = all.length > 0 ? random.pick(all) : null;
  const agents = [staff.agent, staff.otherAgent, staff.manager];
  const roll = random.int(9);
  if (roll === 0 || !some) {
    const payload = payloadOf(random);
    await storePull(database.db, payload);
    return `stored ${payload.pull_id}`;
  }
  if (roll === 1 && some.account) {
    // A refresh of the account: its household row is replaced by the newer pull's (other gaps).
    const payload = payloadOf(random, some.account);
    await storePull(database.db, { ...payload, created_at: new Date().toISOString() });
    return `refreshed ${some.account}`;
  }
  if (roll === 2 || roll === 3) {
    const to = random.next() < 0.3 ? null : random.pick(agents).id;
    const ids = all.filter(() => random.next() < 0.3).map((p) => p.id);
    const chosen = ids.length > 0 ? ids : [some.id];
    const result = await assignPulls(database.db, admin(), { pullIds: chosen, assigneeId: to });
    expect(result.ok).toBe(true);
    return `assigned ${chosen.length} to ${to}`;
  }
  if (roll === 4) {
    const stage = random.pick(PULL_STAGES);
    const result = await setPullStage(database.db, admin(), {
      pullId: some.id,
      stage,
      ...(stage === "WON" ? { premium: "1,200.00" } : {}),
      ...(stage === "LOST" ? { lostCategory: "PRICE" } : {}),
    });
    expect(result.ok).toBe(true);
    return `stage ${stage} on ${some.id}`;
  }
  if (roll === 5) {
    // An agent moves office (or becomes agency-wide): their pulls move with them.
    const who = random.pick(agents);
    const officeId = random.next() < 0.25 ? null : random.pick(offices);
    const result = await setUserOffice(database.db, admin(), { userId: who.id, officeId });
    expect(result.ok).toBe(true);
    return `moved ${who.name} to ${officeId}`;
  }
  if (roll === 6) {
    // A rule routes an unassigned pull to an office (office_id set directly, migration 0047).
    await database.db
      .update(pulls)
      .set({ officeId: random.pick([...offices, null]) })
      .where(eq(pulls.pullId, some.id));
    return `routed ${some.id}`;
  }
  if (roll === 7) {
    await database.db.transaction((tx) => removePulls(tx, [some.id], { kind: "ERASURE", requestId: null }));
    return `erased ${some.id}`;
  }
  await database.db.delete(pulls).where(eq(pulls.pullId, some.id));
  return `deleted ${some.id}`;
}

const viewers = (): Array<[string, ListViewer]> => [
  ["admin", { kind: "all" }],
  ...offices.map((officeId, i): [string, ListViewer] => [`office ${i}`, { kind: "office", officeId }]),
];

/** Every view the kept counts serve: agent and stage filters with no gap or policies, and every gap × policies. */
function servedQueries(): CrossSellQuery[] {
  const queries: CrossSellQuery[] = [];
  for (const agent of [undefined, "unassigned"] as const)
    for (const stage of [undefined, ...PULL_STAGES]) queries.push({ agent, stage });
  for (const gap of [undefined, ...GAP_CODES])
    for (const policies of [undefined, ...POLICY_BUCKETS]) queries.push({ gap, policies });
  queries.push({ agent: "unassigned", stage: "WORKING", gap: "NO_FLOOD", policies: "2" });
  return queries;
}

/** Every served view's counts, kept and scanned, and its list's length: the differences, described. */
async function differences(): Promise<string[]> {
  const found: string[] = [];
  for (const [name, viewer] of viewers())
    for (const query of servedQueries()) {
      expect(keptCountsServe(viewer, query)).toBe(true);
      const kept = await countCrossSell(database.db, viewer, query);
      const scanned = await countCrossSellByScan(database.db, viewer, query);
      if (JSON.stringify(kept) !== JSON.stringify(scanned))
        found.push(
          `${name} ${JSON.stringify(query)}: kept ${JSON.stringify(kept)}, scanned ${JSON.stringify(scanned)}`,
        );
      // The list the counts head: as many rows as they say, the most premium in play first.
      const rows = await listCrossSell(database.db, viewer, query, { limit: 1_000 });
      if (rows.length !== kept.total)
        found.push(`${name} ${JSON.stringify(query)}: ${rows.length} rows, ${kept.total} counted`);
      // The page's own read skips the walks the kept counts say find nothing: the same rows.
      const page = await crossSellCountsAndRows(database.db, viewer, query, { limit: 1_000, offset: 0 });
      if (page.rows.map((r) => r.pullId).join() !== rows.map((r) => r.pullId).join())
        found.push(`${name} ${JSON.stringify(query)}: the page's rows differ from the full walks'`);
      const premiums = rows.map((r) => r.premiumInPlayCents ?? -1);
      if (premiums.some((p, i) => i > 0 && p > (premiums[i - 1] as number)))
        found.push(`${name} ${JSON.stringify(query)}: rows out of order`);
    }
  return found;
}

async function deltaRows(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from cross_sell_count_deltas`,
  );
  return row?.n ?? 0;
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate household_gaps, policy_xdates, policies, pulls, users, offices cascade`);
  staff = await createStaff(database.db);
  offices = [];
  for (const name of ["North", "South"]) {
    const created = await createOffice(database.db, staff.admin, { name });
    if (!created.ok) throw new Error(created.message);
    offices.push(created.id);
  }
  await setUserOffice(database.db, staff.admin, { userId: staff.agent.id, officeId: offices[0] });
  await setUserOffice(database.db, staff.admin, { userId: staff.otherAgent.id, officeId: offices[1] });
});

describe("the cross-sell counts kept ahead", () => {
  it("equal the scan for an admin and each office, under every filter, through random writes", async () => {
    for (const seed of [1, 2, 3]) {
      await database.db.execute(sql`truncate household_gaps, pulls cascade`);
      const random = randomOf(seed);
      for (let i = 0; i < 25; i++) await storePull(database.db, payloadOf(random));
      const writes: string[] = [];
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 12; i++) writes.push(await randomWrite(random));
        const found = await differences();
        expect(found, `seed ${seed} after:\n${writes.join("\n")}`).toEqual([]);
      }
      // A meaningful book: the admin sees households, some assigned, some in an office.
      const all = await countCrossSellByScan(database.db, { kind: "all" }, {});
      expect(all.total).toBeGreaterThan(10);
      const [spread] = await queryRows<{ assigned: number; officed: number }>(
        database.db,
        sql`select count(*) filter (where assigned)::int as assigned, count(*) filter (where office_id is not null)::int as officed
            from cross_sell_counts`,
      );
      expect(spread?.assigned).toBeGreaterThan(0);
      expect(spread?.officed).toBeGreaterThan(0);
    }
  });

  it("are rebuilt from household_gaps as they stand, and cleared with it", async () => {
    const random = randomOf(7);
    for (let i = 0; i < 20; i++) await storePull(database.db, payloadOf(random));
    // As after a bulk load with the triggers set aside: the counts know nothing of the rows.
    await database.db.execute(sql`delete from cross_sell_counts`);
    await database.db.execute(sql`delete from cross_sell_count_deltas`);
    expect((await countCrossSell(database.db, { kind: "all" }, {})).total).toBe(0);
    await rebuildCrossSellCounts(database.db);
    expect(await deltaRows()).toBe(0);
    expect(await differences()).toEqual([]);
    expect((await countCrossSell(database.db, { kind: "all" }, {})).total).toBeGreaterThan(0);
    await database.db.execute(sql`truncate household_gaps`);
    expect((await countCrossSell(database.db, { kind: "all" }, {})).total).toBe(0);
  });

  it("leaves an agent's own view and one agent's households to the scan", () => {
    expect(keptCountsServe({ kind: "own-or-unassigned", userId: randomUUID() }, {})).toBe(false);
    expect(keptCountsServe({ kind: "all" }, { agent: randomUUID() })).toBe(false);
    expect(keptCountsServe({ kind: "office", officeId: randomUUID() }, { agent: randomUUID() })).toBe(false);
  });
});

describe.skipIf(!onPostgres)("the kept counts with several connections", () => {
  /** A second session on the test's database, as another app instance would be. */
  function otherSession() {
    const url = new URL(process.env.DATABASE_URL as string);
    url.pathname = `/${database.name}`;
    return postgres(url.toString(), { max: 2, onnotice: () => {} });
  }

  it("count right while another session holds the fold: the deltas not yet folded are added", async () => {
    const random = randomOf(11);
    for (let i = 0; i < 15; i++) await storePull(database.db, payloadOf(random));
    expect(await differences()).toEqual([]);
    const other = otherSession();
    const holder = await other.reserve();
    try {
      // Another session folding: every fold of this one skips.
      await holder`select pg_advisory_lock(hashtext('cross_sell_counts'))`;
      for (let i = 0; i < 15; i++) await randomWrite(random);
      expect(await deltaRows()).toBeGreaterThan(0);
      expect(await differences()).toEqual([]);
      expect(await deltaRows()).toBeGreaterThan(0);
      await holder`select pg_advisory_unlock(hashtext('cross_sell_counts'))`;
      expect(await differences()).toEqual([]);
      expect(await deltaRows()).toBe(0);
    } finally {
      holder.release();
      await other.end();
    }
  });

  it("lets two transactions storing households at once both go ahead, and a reader fold meanwhile", async () => {
    const random = randomOf(13);
    for (let i = 0; i < 5; i++) await storePull(database.db, payloadOf(random));
    await countCrossSell(database.db, { kind: "all" }, {});
    const first = payloadOf(random);
    // The same mix of policies and drivers: both add to the same key, where one shared counter row
    // would make the second wait for the first to commit.
    const second = { ...payloadOf(random), policies: first.policies, drivers: first.drivers };
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let stored: () => void = () => {};
    const firstStored = new Promise<void>((resolve) => (stored = resolve));
    const open = database.db.transaction(async (tx) => {
      await storePull(tx, first);
      stored();
      await held;
    });
    try {
      await firstStored;
      // Waiting on a lock the open transaction holds would fail here after 2 s instead of hanging.
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`set local lock_timeout = '2s'`);
        await storePull(tx, second);
      });
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`set local lock_timeout = '2s'`);
        await countCrossSell(tx, { kind: "all" }, {});
      });
      // The open transaction's household is not counted yet; the second's is.
      const before = await countCrossSellByScan(database.db, { kind: "all" }, {});
      expect(await countCrossSell(database.db, { kind: "all" }, {})).toEqual(before);
    } finally {
      release();
      await open;
    }
    expect(await differences()).toEqual([]);
  });
});
