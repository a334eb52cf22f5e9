import "server-only";
import { desc, eq, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/types";
import { monitorings, pulls } from "@/db/schema";
import { nextRefreshWhy } from "@/lib/monitoring/refresh-words";

// What the pull's header says about monitoring: the mirror of the service's Monitoring for
// this account, as the webhooks and the sync's list of monitorings last described it. Most accounts are not monitored: no row.

export type PullMonitoring = {
  monitoringId: string;
  status: string | null;
  interval: string | null;
  nextPullDate: Date | null;
  /** Why the next refresh is when it is (lib/monitoring/refresh-words.ts). */
  nextRefreshWhy: string;
  reconnectNeeded: boolean;
  reconnectAuthStatus: string | null;
  /** Started on the service's dashboard or team-wide, and found by the sync (lib/ingest/reconcile-monitorings.ts). */
  startedOutside: boolean;
};

/** The monitoring this pull belongs to (as its initial, latest or reconnect pull, or by account). */
export async function getPullMonitoring(
  db: Db,
  params: { pullId: string; accountIdentifier: string | null },
): Promise<PullMonitoring | null> {
  return findMonitoring(
    db,
    params.pullId,
    params.accountIdentifier ? eq(monitorings.accountIdentifier, params.accountIdentifier) : null,
  );
}

/**
 * The same, with the account read from the stored pull inside the query: it needs nothing but
 * the pull's id, so a page can ask for it beside the pull itself instead of after it.
 */
export async function getMonitoringOfPull(db: Db, pullId: string): Promise<PullMonitoring | null> {
  return findMonitoring(
    db,
    pullId,
    sql`${monitorings.accountIdentifier} = (select ${pulls.accountIdentifier} from ${pulls} where ${pulls.pullId} = ${pullId})`,
  );
}

async function findMonitoring(db: Db, pullId: string, byAccount: SQL | null): Promise<PullMonitoring | null> {
  const matches = [
    eq(monitorings.latestPullId, pullId),
    eq(monitorings.initialPullId, pullId),
    eq(monitorings.reconnectPullId, pullId),
  ];
  if (byAccount) matches.push(byAccount);
  const rows = await db
    .select({
      monitoringId: monitorings.monitoringId,
      status: monitorings.status,
      interval: monitorings.interval,
      nextPullDate: monitorings.nextPullDate,
      plannedRefreshReason: monitorings.plannedRefreshReason,
      plannedRefreshError: monitorings.plannedRefreshError,
      reconnectRequestedAt: monitorings.reconnectRequestedAt,
      reconnectAuthStatus: monitorings.reconnectAuthStatus,
      origin: monitorings.origin,
    })
    .from(monitorings)
    .where(or(...matches))
    .orderBy(desc(monitorings.updatedAt))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  return {
    monitoringId: row.monitoringId,
    status: row.status,
    interval: row.interval,
    nextPullDate: row.nextPullDate,
    nextRefreshWhy: nextRefreshWhy({
      reason: row.plannedRefreshReason,
      error: row.plannedRefreshError,
      interval: row.interval,
    }),
    reconnectNeeded: row.reconnectRequestedAt !== null,
    reconnectAuthStatus: row.reconnectAuthStatus,
    startedOutside: row.origin === "SERVICE",
  };
}
