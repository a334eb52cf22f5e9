import "server-only";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "@/db/types";
import { monitoringEvents, pulls } from "@/db/schema";
import { visibleTo, type ListViewer } from "@/lib/pulls/visibility";
import { parsePull } from "@/lib/service/schemas";
import { describeChanges } from "./describe-changes";

// An account's timeline: its pulls (same account identifier) oldest first, and between each
// two what changed, from our snapshots, plus the event types the service reported.

const MAX_PULLS = 12;

export type HistoryEntry = {
  pullId: string;
  createdAt: Date | null;
  status: string;
  changes: string[];
  serviceEvents: string[];
};

export async function getAccountHistory(
  db: Db,
  viewer: ListViewer,
  accountIdentifier: string | null,
): Promise<HistoryEntry[]> {
  if (!accountIdentifier) return [];
  const visible = visibleTo(viewer);
  const rows = await db
    .select({ pullId: pulls.pullId, raw: pulls.raw, createdAt: pulls.serviceCreatedAt, status: pulls.status })
    .from(pulls)
    .where(and(eq(pulls.accountIdentifier, accountIdentifier), isNull(pulls.parentPullId), visible))
    .orderBy(asc(pulls.serviceCreatedAt))
    .limit(MAX_PULLS);
  if (rows.length < 2) return [];
  const events = await db
    .select({ pullId: monitoringEvents.pullId, type: monitoringEvents.type })
    .from(monitoringEvents)
    .where(
      inArray(
        monitoringEvents.pullId,
        rows.map((r) => r.pullId),
      ),
    );
  return rows.map((row, index) => {
    const previous = index > 0 ? rows[index - 1] : undefined;
    const before = previous ? parsePull(previous.raw) : null;
    const after = parsePull(row.raw);
    const changes = before?.ok && after.ok ? describeChanges(before.pull, after.pull) : [];
    return {
      pullId: row.pullId,
      createdAt: row.createdAt,
      status: row.status,
      changes,
      serviceEvents: events.filter((e) => e.pullId === row.pullId).map((e) => e.type ?? "UNKNOWN"),
    };
  });
}
