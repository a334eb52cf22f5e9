import "server-only";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { syncRuns, type SyncRunRow } from "@/db/schema";
import type { ServiceConfig } from "@/lib/service/client";
import { iteratePullPages } from "@/lib/service/pulls-api";
import { storePull } from "@/lib/ingest/store-pull";
import { reconcileMonitorings } from "@/lib/ingest/reconcile-monitorings";
import { recheckUnfinishedPulls } from "./pull-recheck";
import { retryArchiveWrites } from "@/lib/ingest/archive";
import { retryWhileRateLimited, SYNC_RATE_LIMIT_BUDGET_MS } from "./rate-limit-wait";

// Reconciliation, for what webhooks never told: list the service's pulls created since the last
// good run and store what is missing or changed (the list carries full pulls, and storePull
// makes a repeat harmless); re-read the pulls that are not final, whose COMPLETE may have been
// lost (pull-recheck.ts); and mirror the team's monitorings, including those started or stopped
// on the service's dashboard (lib/ingest/reconcile-monitorings.ts).

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
  refused: number;
}) {
  // A refused pull (its consumer was erased) is counted on its erased subject, not here.
  const { stale, refused: _refused, ...rest } = counts;
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

/** The run's problems as kept on its row: the first few in full, then how many more. */
const MAX_PROBLEMS = 20;
function problemList(problems: string[]): string[] {
  if (problems.length <= MAX_PROBLEMS) return problems;
  return [...problems.slice(0, MAX_PROBLEMS), `and ${problems.length - MAX_PROBLEMS} more`];
}

/**
 * Runs an opened sync to its end, recording progress as it goes: the pulls created in its
 * window (since the last good run, up to its own start), then the stored pulls that are not
 * final, then the team's monitorings. Never throws.
 */
export async function runSync(
  db: Db,
  service: ServiceConfig,
  run: SyncRunRow,
  log: (line: string) => void = () => {},
): Promise<SyncRunRow> {
  const counts = { listed: 0, created: 0, updated: 0, unchanged: 0, invalid: 0, stale: 0, refused: 0 };
  const problems: string[] = [];
  const report = { problem: (text: string) => void problems.push(text) };
  const progress = async (patch: Partial<SyncRunRow>) => {
    await db
      .update(syncRuns)
      .set({ ...patch, problems: problemList(problems), heartbeatAt: new Date() })
      .where(eq(syncRuns.id, run.id));
  };
  // A 429 is waited out as the service says, heartbeat by heartbeat, within the run's budget.
  const waits = { waitedMs: 0, budgetMs: SYNC_RATE_LIMIT_BUDGET_MS, heartbeat: () => progress({}) };
  const around = <T>(call: () => Promise<T>) => retryWhileRateLimited(call, waits);
  // Archive decisions the service missed go first, so the pulls listed below already carry them.
  await retryArchiveWrites(db, service, { log });
  try {
    await progress({ phase: "PULLS" });
    // Up to the run's own start: pulls that arrive meanwhile cannot move the windows being
    // listed, and the next run's overlap takes them.
    const window = {
      since: run.since?.toISOString(),
      before: run.startedAt.toISOString(),
      pageSize: PAGE_SIZE,
      around,
    };
    for await (const page of iteratePullPages(service, window)) {
      for (const pull of page.pulls) {
        // Stored from the list's own copy, which is the service's full pull, as it came.
        const result = await storePull(db, page.payloads.get(pull.pull_id) ?? pull, {
          fetchStartedAt: page.requestedAt,
        });
        counts.listed++;
        counts[result.outcome]++;
        if (result.outcome === "refused") report.problem("A pull of an erased consumer was listed and refused.");
      }
      await progress({ ...recorded(counts), total: page.total ?? counts.listed });
    }
    await progress({ phase: "STATUSES" });
    const rechecks = await recheckUnfinishedPulls(db, service, run.startedAt, {
      ...report,
      onPull: (recheck) => progress(recheck),
    });
    await progress({ phase: "MONITORINGS" });
    const found = await reconcileMonitorings(db, service, {
      ...report,
      onPage: (m) => progress({ monitorings: m.listed, monitoringsFound: m.found, monitoringsChanged: m.changed }),
    });
    const [done] = await db
      .update(syncRuns)
      .set({
        ...recorded(counts),
        ...rechecks,
        monitorings: found.listed,
        monitoringsFound: found.found,
        monitoringsChanged: found.changed,
        problems: problemList(problems),
        phase: null,
        status: "DONE",
        finishedAt: new Date(),
      })
      .where(eq(syncRuns.id, run.id))
      .returning();
    log(
      `sync ${run.id}: ${counts.listed} listed, ${counts.created} new, ${counts.updated} changed; ` +
        `${rechecks.rechecked} re-read, ${rechecks.settled} now final; ${found.listed} monitorings, ${found.found} found` +
        (problems.length > 0 ? `; ${problems.length} problems` : ""),
    );
    return done ?? run;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`sync ${run.id} failed: ${message}`);
    const [failed] = await db
      .update(syncRuns)
      .set({
        ...recorded(counts),
        problems: problemList(problems),
        status: "FAILED",
        error: message,
        finishedAt: new Date(),
      })
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
