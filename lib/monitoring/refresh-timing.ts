import "server-only";
import { and, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { monitorings, policyXDates, pulls } from "@/db/schema";
import { getAgencyRules } from "@/lib/rules/agency-rules";
import type { ServiceConfig } from "@/lib/service/client";
import { ServiceError } from "@/lib/service/errors";
import { updateMonitoring } from "@/lib/service/monitorings-api";
import { isoDay } from "@/lib/xdates/derive";
import { planRefresh, plannedReasonSchema, refreshAt, type PlannedReason, type Renewal } from "./refresh-plan";

// The job that moves each monitored account's next refresh to its renewal (refresh-plan.ts),
// through the service's next_pull_date. It runs hourly beside the X-date upkeep and after a
// rules change. Only a plan that changed is sent, and the instance whose conditional update
// claims the change is the one that sends it: several instances send each change once.

const BATCH = 500;

export type ActiveMonitoring = {
  monitoringId: string;
  accountIdentifier: string | null;
  pullId: string | null;
  interval: string | null;
  nextPullDate: Date | null;
  plannedRefreshAt: Date | null;
  plannedRefreshReason: unknown;
  plannedRefreshSentAt: Date | null;
  lastRefreshAt: Date | null;
};

/** Active monitorings, a batch at a time, with the day of the account's newest pull. */
export async function listActiveMonitorings(db: Db, after: string, limit = BATCH): Promise<ActiveMonitoring[]> {
  return db
    .select({
      monitoringId: monitorings.monitoringId,
      // The account the latest pull was joined to when the webhooks named none (lib/pulls/account-key.ts).
      accountIdentifier: sql<string | null>`coalesce(${monitorings.accountIdentifier}, ${pulls.accountIdentifier})`,
      pullId: sql<string | null>`coalesce(${monitorings.latestPullId}, ${monitorings.initialPullId})`,
      interval: monitorings.interval,
      nextPullDate: monitorings.nextPullDate,
      plannedRefreshAt: monitorings.plannedRefreshAt,
      plannedRefreshReason: monitorings.plannedRefreshReason,
      plannedRefreshSentAt: monitorings.plannedRefreshSentAt,
      lastRefreshAt: sql<Date | null>`coalesce(${pulls.serviceCreatedAt}, ${pulls.fetchedAt})`.mapWith(
        (value: unknown) => (value === null ? null : new Date(value as string)),
      ),
    })
    .from(monitorings)
    .leftJoin(pulls, eq(pulls.pullId, sql`coalesce(${monitorings.latestPullId}, ${monitorings.initialPullId})`))
    .where(and(eq(monitorings.status, "ACTIVE"), sql`${monitorings.monitoringId} > ${after}`))
    .orderBy(monitorings.monitoringId)
    .limit(limit);
}

/** The renewals of each monitoring's account, from the X-date table (by account, else by its pull). */
export async function renewalsOf(db: Db, batch: ActiveMonitoring[]): Promise<Map<string, Renewal[]>> {
  const accounts = batch.flatMap((m) => (m.accountIdentifier ? [m.accountIdentifier] : []));
  const pullIds = batch.flatMap((m) => (!m.accountIdentifier && m.pullId ? [m.pullId] : []));
  const byKey = new Map<string, Renewal[]>();
  if (accounts.length + pullIds.length === 0) return byKey;
  const rows = await db
    .select({
      accountIdentifier: policyXDates.accountIdentifier,
      pullId: policyXDates.pullId,
      xDate: policyXDates.xDate,
      termMonths: policyXDates.termMonths,
      carrier: policyXDates.carrierLabel,
      line: policyXDates.policyType,
    })
    .from(policyXDates)
    .where(
      and(
        isNotNull(policyXDates.xDate),
        or(
          accounts.length > 0 ? inArray(policyXDates.accountIdentifier, accounts) : undefined,
          pullIds.length > 0 ? inArray(policyXDates.pullId, pullIds) : undefined,
        ),
      ),
    );
  for (const row of rows) {
    if (!row.xDate) continue;
    const key = row.accountIdentifier ?? row.pullId;
    const list = byKey.get(key) ?? [];
    list.push({ xDate: row.xDate, termMonths: row.termMonths, carrier: row.carrier, line: row.line });
    byKey.set(key, list);
  }
  return byKey;
}

export const renewalKey = (m: Pick<ActiveMonitoring, "accountIdentifier" | "pullId">) =>
  m.accountIdentifier ?? m.pullId ?? "";

const sameDay = (a: Date | null, day: string | null) => (a ? isoDay(a) : null) === day;
const sameReason = (stored: unknown, reason: PlannedReason) => {
  const parsed = plannedReasonSchema.safeParse(stored);
  return parsed.success && JSON.stringify(parsed.data) === JSON.stringify(reason);
};

export type TimingSummary = { checked: number; sent: number; refused: number };

/** Plans every active monitoring and sends the changed ones to the service. */
export async function timeRefreshes(
  db: Db,
  service: ServiceConfig,
  options: { today?: string; log?: (line: string) => void } = {},
): Promise<TimingSummary> {
  const today = options.today ?? isoDay();
  const { leadTimeDays } = await getAgencyRules(db);
  const summary: TimingSummary = { checked: 0, sent: 0, refused: 0 };
  for (let after = ""; ;) {
    const batch = await listActiveMonitorings(db, after);
    if (batch.length === 0) return summary;
    after = batch.at(-1)?.monitoringId ?? after;
    const renewals = await renewalsOf(db, batch);
    for (const monitoring of batch) {
      summary.checked++;
      const plan = planRefresh({
        renewals: renewals.get(renewalKey(monitoring)) ?? [],
        lastRefreshDay: monitoring.lastRefreshAt ? isoDay(monitoring.lastRefreshAt) : null,
        today,
        leadTimeDays,
        interval: monitoring.interval,
      });
      const unchanged =
        sameDay(monitoring.plannedRefreshAt, plan.day) &&
        sameReason(monitoring.plannedRefreshReason, plan.reason) &&
        // The service moved its date by itself (an interval changed by hand): tell it again.
        (plan.day === null || sameDay(monitoring.nextPullDate, plan.day));
      if (unchanged) continue;
      const outcome = await sendPlan(db, service, monitoring, plan.day, plan.reason);
      if (outcome === "sent") summary.sent++;
      if (outcome === "refused") summary.refused++;
    }
  }
}

async function sendPlan(
  db: Db,
  service: ServiceConfig,
  monitoring: ActiveMonitoring,
  day: string | null,
  reason: PlannedReason,
): Promise<"sent" | "kept" | "refused" | "taken"> {
  const at = day ? refreshAt(day, monitoring.lastRefreshAt) : null;
  // The claim: whoever moves the stored plan on from what we read is the one that sends it. It
  // records the date being sent as the service's next one at once: an instance that reads the row
  // between this claim and the service's answer must find the plan already told, or it would take
  // the old date for the service having moved it and send the change a second time.
  const claimed = await db
    .update(monitorings)
    .set({
      plannedRefreshAt: at,
      plannedRefreshReason: reason,
      plannedRefreshSentAt: new Date(),
      plannedRefreshError: null,
      ...(at ? { nextPullDate: at } : {}),
    })
    .where(
      and(
        eq(monitorings.monitoringId, monitoring.monitoringId),
        monitoring.plannedRefreshSentAt
          ? eq(monitorings.plannedRefreshSentAt, monitoring.plannedRefreshSentAt)
          : sql`${monitorings.plannedRefreshSentAt} is null`,
      ),
    )
    .returning({ id: monitorings.monitoringId });
  if (claimed.length === 0) return "taken";
  // Nothing to tell the service: no X-date (its interval decides), or it has this day already.
  if (!at || sameDay(monitoring.nextPullDate, day)) return "kept";
  try {
    const answer = await updateMonitoring(service, monitoring.monitoringId, { next_pull_date: at.toISOString() });
    const next = answer.value.next_pull_date ? new Date(answer.value.next_pull_date) : at;
    await db
      .update(monitorings)
      .set({ nextPullDate: next, updatedAt: new Date() })
      .where(eq(monitorings.monitoringId, monitoring.monitoringId));
    return "sent";
  } catch (error) {
    const message =
      error instanceof ServiceError
        ? `The service refused the timed refresh (${error.code}); it keeps its own schedule.`
        : `The service could not be reached to time the refresh; it will be tried again within the hour.`;
    // Unclaimed again, so the next run tries once more; the page shows why meanwhile. The
    // service kept its own date.
    await db
      .update(monitorings)
      .set({ plannedRefreshAt: null, plannedRefreshError: message, nextPullDate: monitoring.nextPullDate })
      .where(eq(monitorings.monitoringId, monitoring.monitoringId));
    return "refused";
  }
}
