import "server-only";
import { desc, eq, or } from "drizzle-orm";
import type { Db } from "@/db/types";
import { monitorings } from "@/db/schema";

// What the pull's header says about monitoring: the mirror of the service's Monitoring for
// this account, as the webhooks last described it. Most accounts are not monitored: no row.

export type PullMonitoring = {
  monitoringId: string;
  status: string | null;
  interval: string | null;
  nextPullDate: Date | null;
  reconnectNeeded: boolean;
  reconnectAuthStatus: string | null;
};

/** The monitoring this pull belongs to (as its initial, latest or reconnect pull, or by account). */
export async function getPullMonitoring(db: Db, params: { pullId: string; accountIdentifier: string | null }): Promise<PullMonitoring | null> {
  const matches = [eq(monitorings.latestPullId, params.pullId), eq(monitorings.initialPullId, params.pullId), eq(monitorings.reconnectPullId, params.pullId)];
  if (params.accountIdentifier) matches.push(eq(monitorings.accountIdentifier, params.accountIdentifier));
  const rows = await db
    .select({
      monitoringId: monitorings.monitoringId,
      status: monitorings.status,
      interval: monitorings.interval,
      nextPullDate: monitorings.nextPullDate,
      reconnectRequestedAt: monitorings.reconnectRequestedAt,
      reconnectAuthStatus: monitorings.reconnectAuthStatus,
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
    reconnectNeeded: row.reconnectRequestedAt !== null,
    reconnectAuthStatus: row.reconnectAuthStatus,
  };
}
