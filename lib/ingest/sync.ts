import "server-only";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { syncRuns, type SyncRunRow } from "@/db/schema";
import type { ServiceConfig } from "@/lib/service/client";
import { listPulls } from "@/lib/service/pulls-api";
import { storePull } from "@/lib/pulls/store-pull";
import { retryArchiveWrites } from "@/lib/workflow/archive";
import { retryWhileRateLimited, SYNC_RATE_LIMIT_BUDGET_MS } from "./rate-limit-wait";

// Reconciliation: page through the service's pull list since the last good run and store what
// is missing or changed, for pulls whose webhooks never came. The list carries full pulls, so
// no extra fetch is needed; storePull makes a repeat harmless.

const PAGE_SIZE = 100;
/** Pulls created just before the last run started may have been listed by neither run. */
const OVERLAP_MS = 10 * 60_000;
/** A run that has not reported for this long died with its process. */
const STALE_AFTER_MS = 2 * 60_000;

export type SyncTrigger = "SCHEDULE" | "MANUAL";
export type StartResult = { started: true; run: SyncRunRow } | { started: false; run: SyncRunRow };

export async function latestSyncRun(db: Db): Promise<SyncRunRow | null> {
  const rows = await db.select().from(syncRuns).orderBy(desc(syncRuns.id)).limit(1);
  return rows[0] ?? null;
}

async function sinceLastGoodRun(db: Db): Promise<Date | null> {
  const rows = await db
    .select({ startedAt: syncRuns.startedAt })
    .from(syncRuns)
    .where(eq(syncRuns.status, "DONE"))
    .orderBy(desc(syncRuns.startedAt))
    .limit(1);
  const last = rows[0]?.startedAt;
  return last ? new Date(last.getTime() - OVERLAP_MS) : null;
}

/** A pull a webhook stored while the page was in flight is newer than the page: as unchanged. */
function recorded(counts: {
  listed: number;
  created: number;
  updated: number;
  unchanged: number;
  invalid: number;
  stale: number;
}) {
  const { stale, ...rest } = counts;
  return { ...rest, unchanged: rest.unchanged + stale };
}

/** Opens a run unless one is already going (then that one is returned). */
export async function startSyncRun(
  db: Db,
  trigger: SyncTrigger,
  requestedBy: string | null = null,
): Promise<StartResult> {
  await db
    .update(syncRuns)
    .set({ status: "FAILED", error: "The process running this sync stopped.", finishedAt: new Date() })
    .where(and(eq(syncRuns.status, "RUNNING"), lt(syncRuns.heartbeatAt, new Date(Date.now() - STALE_AFTER_MS))));
  const since = await sinceLastGoodRun(db);
  const inserted = await db.insert(syncRuns).values({ trigger, requestedBy, since }).onConflictDoNothing().returning();
  if (inserted[0]) return { started: true, run: inserted[0] };
  const running = await db.select().from(syncRuns).where(eq(syncRuns.status, "RUNNING")).limit(1);
  if (running[0]) return { started: false, run: running[0] };
  throw new Error("Could not start a sync run.");
}

/** Runs an opened sync to its end, recording progress after every page. Never throws. */
export async function runSync(
  db: Db,
  service: ServiceConfig,
  run: SyncRunRow,
  log: (line: string) => void = () => {},
): Promise<SyncRunRow> {
  const counts = { listed: 0, created: 0, updated: 0, unchanged: 0, invalid: 0, stale: 0 };
  const since = run.since?.toISOString();
  const heartbeat = async () => {
    await db.update(syncRuns).set({ heartbeatAt: new Date() }).where(eq(syncRuns.id, run.id));
  };
  const waits = { waitedMs: 0, budgetMs: SYNC_RATE_LIMIT_BUDGET_MS, heartbeat };
  // Archive decisions the service missed go first, so the pulls listed below already carry them.
  await retryArchiveWrites(db, service, { log });
  try {
    for (let offset = 0; ; offset += PAGE_SIZE) {
      const fetchStartedAt = new Date();
      const page = await retryWhileRateLimited(() => listPulls(service, { since, limit: PAGE_SIZE, offset }), waits);
      for (const pull of page.value.pulls) {
        // Stored from the list's own copy, which is the service's full pull.
        const result = await storePull(db, pull, { fetchStartedAt });
        counts.listed++;
        counts[result.outcome]++;
      }
      const total = page.value.total_pulls ?? counts.listed;
      await db
        .update(syncRuns)
        .set({ ...recorded(counts), total, heartbeatAt: new Date() })
        .where(eq(syncRuns.id, run.id));
      if (page.value.pulls.length < PAGE_SIZE || offset + PAGE_SIZE >= total) break;
    }
    const [done] = await db
      .update(syncRuns)
      .set({ ...recorded(counts), status: "DONE", finishedAt: new Date() })
      .where(eq(syncRuns.id, run.id))
      .returning();
    log(`sync ${run.id}: ${counts.listed} listed, ${counts.created} new, ${counts.updated} changed`);
    return done ?? run;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`sync ${run.id} failed: ${message}`);
    const [failed] = await db
      .update(syncRuns)
      .set({ ...recorded(counts), status: "FAILED", error: message, finishedAt: new Date() })
      .where(eq(syncRuns.id, run.id))
      .returning();
    return failed ?? run;
  }
}

/** True when the last run started longer ago than the interval (or there was none). */
export async function isSyncDue(db: Db, intervalMs: number): Promise<boolean> {
  const rows = await db
    .select({
      due: sql<boolean>`max(${syncRuns.startedAt}) is null or max(${syncRuns.startedAt}) < now() - make_interval(secs => ${intervalMs / 1000})`,
    })
    .from(syncRuns);
  return rows[0]?.due ?? true;
}
