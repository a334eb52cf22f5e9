import "server-only";
import { eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/types";
import { monitorings, pulls, type MonitoringRow } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import type { ServiceConfig } from "@/lib/service/client";
import { ServiceError } from "@/lib/service/errors";
import { listMonitorings } from "@/lib/service/monitorings-api";
import { fetchPullPayload } from "@/lib/service/pulls-api";
import type { Monitoring } from "@/lib/service/schemas";
import { recordAudit } from "@/lib/audit/audit-log";
import { formatInterval } from "@/lib/format";

// The team's monitorings as the service lists them, mirrored both ways: one started on the
// service's dashboard (or team-wide) becomes known here and joins its pull and account, so the
// pull page shows it on (it is being billed) and the monitored filter lists it; one stopped
// there shows stopped. The pulls' monitored flag follows by the database's triggers (0026).

const PAGE_SIZE = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type MonitoringReconcileCounts = { listed: number; found: number; changed: number };
export type MonitoringReconcileReport = {
  onPage?: (counts: MonitoringReconcileCounts) => Promise<void>;
  problem: (text: string) => void;
};

type Mirrored = Pick<MonitoringRow, "status" | "interval" | "nextPullDate" | "stopAfterDate" | "latestPullId">;

const time = (value: string | null) => (value ? new Date(value) : null);
const sameTime = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

function mirroredOf(monitoring: Monitoring, latestPullId: string | null): Mirrored {
  return {
    status: monitoring.status,
    interval: monitoring.interval,
    nextPullDate: time(monitoring.next_pull_date),
    stopAfterDate: time(monitoring.stop_after_date),
    latestPullId,
  };
}

const unchanged = (row: MonitoringRow, next: Mirrored) =>
  row.status === next.status &&
  row.interval === next.interval &&
  row.latestPullId === next.latestPullId &&
  sameTime(row.nextPullDate, next.nextPullDate) &&
  sameTime(row.stopAfterDate, next.stopAfterDate);

/**
 * What the audit trail says happened on the service, outside Coverdesk; null for a date moved.
 * A monitoring only a webhook had named (no status answered yet) is news as much as an unknown one.
 */
function describe(before: MonitoringRow | undefined, after: Mirrored): string | null {
  const every = after.interval ? `, every ${formatInterval(after.interval)}` : "";
  if (!before?.status)
    return after.status === "STOPPED"
      ? "found a stopped monitoring of this account at the service"
      : `found this account monitored at the service (started on its dashboard or team-wide)${every}`;
  if (before.status !== after.status && after.status === "STOPPED") return "found monitoring stopped at the service";
  if (before.status !== after.status) return `found monitoring on again at the service${every}`;
  if (before.interval !== after.interval) return `found monitoring set to${every.slice(1)} at the service`;
  return null;
}

/** Stores the monitoring's latest pull through ingestion when Coverdesk lacks it; false when it could not. */
async function ensurePull(
  db: Db,
  service: ServiceConfig,
  pullId: string,
  initialPullId: string | null,
  report: MonitoringReconcileReport,
): Promise<boolean> {
  const fetchStartedAt = new Date();
  try {
    const payload = await fetchPullPayload(service, pullId);
    const stored = await storePull(db, payload, { fetchStartedAt, initialPullId });
    if (stored.outcome !== "invalid") return true;
    report.problem(`Pull ${pullId} of a monitoring could not be read: ${stored.error}`);
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    report.problem(`Pull ${pullId} of a monitoring could not be fetched: ${error.message}`);
  }
  return false;
}

const usableId = (id: string | null) => (id && UUID.test(id) ? id : null);

/** The account of the monitoring's latest pull, storing that pull first when Coverdesk lacks it. */
async function accountOfLatest(
  db: Db,
  service: ServiceConfig,
  latest: string,
  initialPullId: string | null,
  report: MonitoringReconcileReport,
): Promise<string | null> {
  const read = async () =>
    (await db.select({ account: pulls.accountIdentifier }).from(pulls).where(eq(pulls.pullId, latest)))[0];
  const stored =
    (await read()) ?? ((await ensurePull(db, service, latest, initialPullId, report)) ? await read() : null);
  return stored?.account ?? null;
}

/**
 * The latest pull only moves forward, as webhooks move it (lib/ingest/apply-event.ts): a list
 * answered before a refresh's webhook was stored does not take the monitoring back.
 */
async function newerOf(db: Db, known: string | null, listed: string | null): Promise<string | null> {
  if (!known || !listed || known === listed) return listed ?? known;
  const rows = await db
    .select({ pullId: pulls.pullId, createdAt: pulls.serviceCreatedAt })
    .from(pulls)
    .where(inArray(pulls.pullId, [known, listed]));
  const created = (id: string) => rows.find((r) => r.pullId === id)?.createdAt?.getTime() ?? -Infinity;
  return created(known) > created(listed) ? known : listed;
}

/** Mirrors one monitoring of the service's list; answers whether it was new here, moved, or neither. */
async function mirrorOne(
  db: Db,
  service: ServiceConfig,
  monitoring: Monitoring,
  before: MonitoringRow | undefined,
  report: MonitoringReconcileReport,
): Promise<"found" | "changed" | "same"> {
  const listedLatest = usableId(monitoring.latest_pull_id);
  if (!listedLatest)
    report.problem(`Monitoring ${monitoring.monitoring_id} names no usable latest pull: it joins no pull yet.`);
  const account = listedLatest
    ? await accountOfLatest(db, service, listedLatest, before?.initialPullId ?? null, report)
    : null;
  // A latest pull Coverdesk could not store is still named, so the flag marks it once it arrives.
  const next = mirroredOf(monitoring, await newerOf(db, before?.latestPullId ?? null, listedLatest));
  const same = before !== undefined && unchanged(before, next);
  if (same && before.origin && (before.accountIdentifier || !account)) return "same";
  const change = describe(before, next);
  await db.transaction(async (tx) => {
    await tx
      .insert(monitorings)
      .values({ monitoringId: monitoring.monitoring_id, accountIdentifier: account, origin: "SERVICE", ...next })
      .onConflictDoUpdate({
        target: monitorings.monitoringId,
        set: {
          ...next,
          accountIdentifier: before?.accountIdentifier ?? account,
          origin: before?.origin ?? "SERVICE",
          updatedAt: new Date(),
        },
      });
    if (change)
      await recordAudit(tx, null, "MONITORING_CHANGED", {
        pullId: before?.initialPullId ?? next.latestPullId,
        details: { change, monitoringId: monitoring.monitoring_id, source: "service" },
      });
  });
  return !before?.status ? "found" : same ? "same" : "changed";
}

/** Mirrors one page of the service's list; answers how many were new here and how many moved. */
async function mirrorPage(
  db: Db,
  service: ServiceConfig,
  listed: Monitoring[],
  report: MonitoringReconcileReport,
): Promise<{ found: number; changed: number }> {
  const counts = { found: 0, changed: 0 };
  if (listed.length === 0) return counts;
  const rows = await db
    .select()
    .from(monitorings)
    .where(
      inArray(
        monitorings.monitoringId,
        listed.map((m) => m.monitoring_id),
      ),
    );
  const known = new Map(rows.map((r) => [r.monitoringId, r]));
  for (const monitoring of listed) {
    const outcome = await mirrorOne(db, service, monitoring, known.get(monitoring.monitoring_id), report);
    if (outcome !== "same") counts[outcome]++;
  }
  return counts;
}

/**
 * Pages through GET /monitorings (by its `before` cursor) and mirrors each. An answer that
 * cannot be read ends the pass with a problem, never the sync: the pulls are already in.
 */
export async function reconcileMonitorings(
  db: Db,
  service: ServiceConfig,
  report: MonitoringReconcileReport,
): Promise<MonitoringReconcileCounts> {
  const counts = { listed: 0, found: 0, changed: 0 };
  const seen = new Set<string>();
  let before: string | undefined;
  try {
    for (;;) {
      const answer = await listMonitorings(service, { limit: PAGE_SIZE, before });
      for (const problem of answer.problems) report.problem(`GET /monitorings: ${problem.path}: ${problem.message}`);
      // A cursor that goes round in circles would list forever: what was seen is not mirrored twice.
      const fresh = answer.value.monitorings.filter((m) => !seen.has(m.monitoring_id));
      for (const m of fresh) seen.add(m.monitoring_id);
      const page = await mirrorPage(db, service, fresh, report);
      counts.listed += fresh.length;
      counts.found += page.found;
      counts.changed += page.changed;
      await report.onPage?.(counts);
      const last = answer.value.monitorings.at(-1)?.monitoring_id;
      if (fresh.length === 0 || answer.value.monitorings.length < PAGE_SIZE || !last) break;
      before = last;
    }
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    report.problem(`The monitorings could not be listed: ${error.message}`);
  }
  return counts;
}
