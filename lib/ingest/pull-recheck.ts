import "server-only";
import { eq, sql } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { pulls, pullStatusChecks } from "@/db/schema";
import { FINAL_PULL_STATUSES, FINAL_PULL_STATUSES_SQL } from "@/db/schema/pull-final-statuses";
import { storePull } from "@/lib/ingest/store-pull";
import type { ServiceConfig } from "@/lib/service/client";
import { ServiceError } from "@/lib/service/errors";
import { fetchPullPayload } from "@/lib/service/pulls-api";

// A pull whose COMPLETE webhook was lost stays in the status it had when last heard of, and the
// sync's list (by creation date, since the last run) has passed it by. So each run also re-reads,
// one by one, the stored pulls that are not final, the longest unchecked first, a bounded number
// per run, and stores each through ingestion's own storePull. A pull still not final a month
// after it was created is left alone: its consumer walked away, or the service never will.

/** Pulls re-read per run: at one GET each, a run stays short however many are waiting. */
const RECHECK_PER_RUN = 50;
const RECHECK_MAX_AGE_DAYS = 30;

const FINAL = new Set<string>(FINAL_PULL_STATUSES);
const NOT_FINAL = sql.raw(`not in (${FINAL_PULL_STATUSES_SQL})`);
const createdAt = sql`coalesce(${pulls.serviceCreatedAt}, ${pulls.createdAt})`;

export type RecheckCounts = { rechecked: number; settled: number; gaveUp: number };
export type RecheckReport = {
  onPull?: (counts: RecheckCounts) => Promise<void>;
  problem: (text: string) => void;
};

/**
 * The pulls due a re-read: not final, young enough, and not read since `runStartedAt` (the
 * run's own list has just stored those), the longest unchecked first.
 */
async function duePulls(db: Db, runStartedAt: Date): Promise<string[]> {
  const rows = await queryRows<{ pull_id: string }>(
    db,
    sql`select ${pulls.pullId} as pull_id
        from ${pulls} left join ${pullStatusChecks} on ${pullStatusChecks.pullId} = ${pulls.pullId}
        where ${pulls.status} ${NOT_FINAL}
          and ${createdAt} >= ${runStartedAt.toISOString()}::timestamptz - make_interval(days => ${RECHECK_MAX_AGE_DAYS})
          and greatest(${pulls.fetchedAt}, ${pullStatusChecks.checkedAt}) < ${runStartedAt.toISOString()}::timestamptz
        order by greatest(${pulls.fetchedAt}, ${pullStatusChecks.checkedAt}), ${pulls.pullId}
        limit ${RECHECK_PER_RUN}`,
  );
  return rows.map((r) => r.pull_id);
}

async function countGivenUp(db: Db, runStartedAt: Date): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from ${pulls}
        where ${pulls.status} ${NOT_FINAL}
          and ${createdAt} < ${runStartedAt.toISOString()}::timestamptz - make_interval(days => ${RECHECK_MAX_AGE_DAYS})`,
  );
  return row?.n ?? 0;
}

async function markChecked(db: Db, pullId: string, error: string | null): Promise<void> {
  await db
    .insert(pullStatusChecks)
    .values({ pullId, checkedAt: new Date(), error })
    .onConflictDoUpdate({ target: pullStatusChecks.pullId, set: { checkedAt: new Date(), error } });
}

/** Re-reads the pulls that are due; a pull the service will not answer for is noted and passed over. */
export async function recheckUnfinishedPulls(
  db: Db,
  service: ServiceConfig,
  runStartedAt: Date,
  report: RecheckReport,
): Promise<RecheckCounts> {
  const counts: RecheckCounts = { rechecked: 0, settled: 0, gaveUp: await countGivenUp(db, runStartedAt) };
  if (counts.gaveUp > 0)
    report.problem(
      `${counts.gaveUp} pull${counts.gaveUp === 1 ? " is" : "s are"} still not final ${RECHECK_MAX_AGE_DAYS} days after linking: no longer re-read.`,
    );
  for (const pullId of await duePulls(db, runStartedAt)) {
    const fetchStartedAt = new Date();
    let error: string | null = null;
    let settled = false;
    try {
      const payload = await fetchPullPayload(service, pullId);
      const stored = await storePull(db, payload, { fetchStartedAt });
      if (stored.outcome === "invalid") error = `the service's answer could not be read: ${stored.error}`;
      else settled = FINAL.has(await storedStatus(db, pullId));
    } catch (failure) {
      if (!(failure instanceof ServiceError)) throw failure;
      error = failure.message;
    }
    if (error) report.problem(`Pull ${pullId} could not be re-read: ${error}`);
    // A pull now final is not re-read again: its check has nothing more to order.
    if (settled) await db.delete(pullStatusChecks).where(eq(pullStatusChecks.pullId, pullId));
    else await markChecked(db, pullId, error);
    if (settled) counts.settled++;
    counts.rechecked++;
    await report.onPull?.(counts);
  }
  return counts;
}

async function storedStatus(db: Db, pullId: string): Promise<string> {
  const [row] = await db.select({ status: pulls.status }).from(pulls).where(eq(pulls.pullId, pullId));
  return row?.status ?? "";
}
