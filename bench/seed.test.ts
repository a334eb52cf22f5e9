import { asc, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/db/connect";
import { householdGaps, policies, policyXDates, pulls } from "@/db/schema";
import { backfillHouseholdGaps } from "@/lib/cross-sell/store";
import { backfillXDates } from "@/lib/xdates/store";
import { storePull } from "@/lib/ingest/store-pull";
import { getLostReasons } from "@/lib/reports/queries";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { seedDatabase, seedPayloadChunks, servedPayload, BENCH_TEAM_ID } from "./seed";

// The benchmark's seeder writes in bulk what ingestion writes one pull at a time: the rows
// must be the same, or the benchmark would measure another app.

const NOW = new Date("2026-11-01T00:00:00Z");
const COUNT = 45; // two chunks of 36 / 9: hostile strings, failed links and a child pull
const ORIGIN = "http://127.0.0.1:4410";
let seeded: TestDatabase;
let ingested: TestDatabase;

beforeAll(async () => {
  [seeded, ingested] = await Promise.all([createTestDatabase(), createTestDatabase()]);
});
afterAll(async () => {
  await Promise.all([seeded?.close(), ingested?.close()]);
});

const withoutClock = <T extends Record<string, unknown>>(row: T) => {
  const { createdAt: _c, updatedAt: _u, ...rest } = row;
  return rest;
};

describe("the benchmark seeder", () => {
  it("writes the same pull and policy rows as storePull for the same payloads", async () => {
    await seedDatabase(seeded.db, {
      count: COUNT,
      seed: 3,
      now: NOW,
      chunkSize: 36,
      workflow: false,
      sandboxOrigin: ORIGIN,
    });
    for (const chunk of seedPayloadChunks(3, COUNT, NOW, 36)) {
      for (const generated of chunk) {
        const fetchedAt = new Date(Math.min(NOW.getTime(), Date.parse(generated.created_at) + 60_000));
        const result = await storePull(
          ingested.db,
          { success: true, pull: servedPayload(generated, ORIGIN, BENCH_TEAM_ID) },
          { fetchStartedAt: fetchedAt },
        );
        expect(result).toMatchObject({ outcome: "created" });
      }
    }
    const read = async (db: TestDatabase["db"]) => ({
      pulls: (await db.select().from(pulls).orderBy(asc(pulls.pullId))).map(withoutClock),
      policies: await db.select().from(policies).orderBy(asc(policies.pullId), asc(policies.policyId)),
      // The X-dates, as far as they do not depend on the day they were derived on.
      xdates: await db
        .select({
          pullId: policyXDates.pullId,
          policyId: policyXDates.policyId,
          policyType: policyXDates.policyType,
          carrierLabel: policyXDates.carrierLabel,
          annualPremiumCents: policyXDates.annualPremiumCents,
          expiryDate: policyXDates.expiryDate,
          reason: policyXDates.reason,
        })
        .from(policyXDates)
        .orderBy(asc(policyXDates.pullId), asc(policyXDates.policyId)),
      households: (await db.select().from(householdGaps).orderBy(asc(householdGaps.pullId))).map(withoutClock),
    });
    const [a, b] = await Promise.all([read(seeded.db), read(ingested.db)]);
    expect(a.pulls).toHaveLength(COUNT);
    expect(a.policies.length).toBeGreaterThan(COUNT);
    expect(a.pulls).toEqual(b.pulls);
    expect(a.policies).toEqual(b.policies);
    expect(a.xdates.length).toBeGreaterThan(0);
    expect(a.xdates).toEqual(b.xdates);
    expect(a.households.length).toBeGreaterThan(0);
    expect(a.households).toEqual(b.households);
    // Among them: the child pull, a failed link, the hostile account.
    expect(a.pulls.some((p) => p.parentPullId !== null)).toBe(true);
    expect(a.pulls.some((p) => p.status !== "SUCCESS")).toBe(true);
  });

  it("adds the agency's side consistently: assignees, funnel with premiums, audit, monitoring", async () => {
    const other = await createTestDatabase();
    try {
      const indexesOf = (db: TestDatabase["db"]) =>
        queryRows<{ name: string; def: string; valid: boolean }>(
          db,
          sql`select c.relname as name, pg_get_indexdef(i.indexrelid) as def, i.indisvalid as valid
              from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
              where n.nspname = 'public' order by c.relname`,
        );
      const migrated = await indexesOf(other.db);
      // Indexes set aside for the load (as a big book's are) must come back as the migrations
      // made them, the audit trail's on every month too, not as an index of its parent alone.
      const summary = await seedDatabase(other.db, { count: 300, seed: 9, now: NOW, rebuildIndexes: true });
      expect(summary.pulls).toBe(300);
      const rebuilt = await indexesOf(other.db);
      expect(rebuilt.filter((i) => !i.valid)).toEqual([]);
      expect(rebuilt.map((i) => i.def)).toEqual(expect.arrayContaining(migrated.map((i) => i.def)));
      const [stats] = await queryRows<{
        won: number;
        lost: number;
        working: number;
        assigned: number;
        bad_won: number;
        monitored: number;
        audits: number;
      }>(
        other.db,
        sql`select count(*) filter (where stage = 'WON')::int as won, count(*) filter (where stage = 'LOST')::int as lost,
                   count(*) filter (where stage = 'WORKING')::int as working, count(assignee_id)::int as assigned,
                   count(*) filter (where stage = 'WON' and (won_premium_cents is null or won_credited_to is null or stage_changed_at is null))::int as bad_won,
                   (select count(*)::int from monitorings) as monitored, (select count(*)::int from audit_events) as audits
            from pulls`,
      );
      expect(stats?.won).toBeGreaterThan(20);
      expect(stats?.lost).toBeGreaterThan(10);
      expect(stats?.working).toBeGreaterThan(50);
      expect(stats?.assigned).toBeGreaterThan(150);
      expect(stats?.bad_won).toBe(0);
      expect(stats?.monitored).toBeGreaterThan(0);
      expect(stats?.audits).toBeGreaterThanOrEqual(Number(stats?.assigned) + Number(stats?.won) + Number(stats?.lost));
      // The reports count losses from their history: every loss the seed decided is in it.
      const lostReasons = await getLostReasons(other.db, {});
      const byReason = lostReasons.filter((r) => r.dimension === "reason").reduce((n, r) => n + r.count, 0);
      expect(byReason).toBe(stats?.lost);

      // pulls.monitored, kept by migration 0026's triggers while pulls and then monitorings were
      // written: exactly the pulls an active monitoring names, or whose account it names.
      const [monitored] = await queryRows<{ marked: number; wrong: number }>(
        other.db,
        sql`select count(*) filter (where monitored)::int as marked,
                   count(*) filter (where monitored <> exists (
                     select 1 from monitorings m where coalesce(m.status, 'ACTIVE') <> 'STOPPED'
                       and (m.initial_pull_id = p.pull_id or m.latest_pull_id = p.pull_id or m.account_identifier = p.account_identifier)))::int as wrong
            from pulls p`,
      );
      expect(monitored?.marked).toBeGreaterThan(0);
      expect(monitored?.wrong).toBe(0);

      // The reports' rollups (migration 0046), derived once after a load that fired no trigger:
      // every sum is the book's facts summed, none is missing or extra, nothing is left marked.
      const [rollups] = await queryRows<{ total: number; missing: number; extra: number; dirty: number }>(
        other.db,
        sql`with book as (
              select kind, day, agent_id, carrier, carrier_name, lines, link, reason, lost_to,
                     sum(count)::int as count, sum(won)::int as won, sum(cents)::bigint as cents
              from report_facts_now group by kind, day, agent_id, carrier, carrier_name, lines, link, reason, lost_to
            ), stored as (
              select kind, day, agent_id, carrier, carrier_name, lines, link, reason, lost_to, count, won, cents
              from report_rollups
            )
            select (select count(*)::int from stored) as total,
                   (select count(*)::int from (select * from book except select * from stored) m) as missing,
                   (select count(*)::int from (select * from stored except select * from book) e) as extra,
                   (select count(*)::int from report_dirty) as dirty`,
      );
      expect(rollups?.total).toBeGreaterThan(0);
      expect(rollups).toMatchObject({ missing: 0, extra: 0, dirty: 0 });

      // The cross-sell counts (migration 0050), derived once after the load like the rollups:
      // the households' own groups, none missing or extra, no delta left to fold.
      const [kept] = await queryRows<{ total: number; missing: number; extra: number; deltas: number }>(
        other.db,
        sql`with book as (
              select office_id, assignee_id is not null as assigned, stage, policy_count, gap_mask,
                     count(*)::int as households, coalesce(sum(premium_in_play_cents), 0)::bigint as premium
              from household_gaps where policy_count >= 1 group by 1, 2, 3, 4, 5
            ), stored as (
              select office_id, assigned, stage, policy_count, gap_mask, households, premium from cross_sell_counts
            )
            select (select count(*)::int from stored) as total,
                   (select count(*)::int from (select * from book except select * from stored) m) as missing,
                   (select count(*)::int from (select * from stored except select * from book) e) as extra,
                   (select count(*)::int from cross_sell_count_deltas) as deltas`,
      );
      expect(kept?.total).toBeGreaterThan(0);
      expect(kept).toMatchObject({ missing: 0, extra: 0, deltas: 0 });

      // The X-date sums (migration 0052), rebuilt after the load and the superseded rows' delete:
      // policy_xdates summed, no sum missing or extra, no delta left.
      const [xsums] = await queryRows<{ total: number; missing: number; extra: number; deltas: number }>(
        other.db,
        sql`with book as (
              select x_date, case when x_date is null then coalesce(reason, 'NO_EXPIRY') end as reason, office_id,
                     assignee_id is not null as assigned, stage, count(*)::int as count,
                     coalesce(sum(annual_premium_cents), 0)::bigint as premium_cents, count(annual_premium_cents)::int as priced
              from policy_xdates group by 1, 2, 3, 4, 5
            ), stored as (
              select x_date, reason, office_id, assigned, stage, count, premium_cents, priced from xdate_sums
            )
            select (select count(*)::int from stored) as total,
                   (select count(*)::int from (select * from book except select * from stored) m) as missing,
                   (select count(*)::int from (select * from stored except select * from book) e) as extra,
                   (select count(*)::int from xdate_sum_deltas) + (select count(*)::int from xdate_option_deltas) as deltas`,
      );
      expect(xsums?.total).toBeGreaterThan(0);
      expect(xsums).toMatchObject({ missing: 0, extra: 0, deltas: 0 });

      // The X-date and cross-sell rows it computes beside each pull are the ones the app's own
      // backfill derives from the stored pulls, owners and stages included.
      const derived = async () => ({
        xdates: (
          await other.db.select().from(policyXDates).orderBy(asc(policyXDates.pullId), asc(policyXDates.policyId))
        ).map(withoutClock),
        households: (await other.db.select().from(householdGaps).orderBy(asc(householdGaps.pullId))).map(withoutClock),
      });
      const seededRows = await derived();
      expect(seededRows.xdates.filter((x) => x.assigneeId !== null && x.stage === "WON").length).toBeGreaterThan(0);
      await other.db.delete(policyXDates);
      await other.db.delete(householdGaps);
      await backfillXDates(other.db, 500, "2026-11-01");
      await backfillHouseholdGaps(other.db, 500, "2026-11-01");
      expect(seededRows).toEqual(await derived());
    } finally {
      await other.close();
    }
  });
});
