import "server-only";
import { inArray } from "drizzle-orm";
import type { Db } from "@/db/types";
import { pulls } from "@/db/schema";
import { isoDay } from "@/lib/xdates/derive";
import { personName } from "@/lib/xdates/words";
import { forecastRefreshes } from "./refresh-plan";
import { listActiveMonitorings, renewalKey, renewalsOf } from "./refresh-timing";

// The rules page's forecast: refreshes per month for the next year as timed to renewals, against
// what the fixed intervals would have cost, and which accounts a monthly budget cannot pay for
// (the latest refreshes of a month over budget: earlier ones are paid first).

export type ForecastMonth = {
  /** "2027-03" */
  month: string;
  timed: number;
  fixed: number;
  overBudget: Array<{ pullId: string | null; name: string; day: string }>;
  /** Accounts over budget beyond the ones listed. */
  moreOverBudget: number;
};

export type RefreshForecast = {
  monitored: number;
  timedAccounts: number;
  months: ForecastMonth[];
  timedTotal: number;
  fixedTotal: number;
  /** Timed refreshes held to 30 days after the account's refresh before them (the service's minimum). */
  heldTotal: number;
  budget: number | null;
};

const LISTED_PER_MONTH = 10;
/** Monitorings read a round trip: the forecast reads them all (40,000 at a million pulls), and holds only counts. */
const FORECAST_BATCH = 2_000;

export async function getRefreshForecast(
  db: Db,
  options: { leadTimeDays: number; budget: number | null; today?: string; months?: number },
): Promise<RefreshForecast> {
  const today = options.today ?? isoDay();
  const monthCount = options.months ?? 12;
  const byMonth = new Map<string, { timed: Array<{ pullId: string | null; day: string }>; fixed: number }>();
  const firstMonth = today.slice(0, 7);
  for (let i = 0; i < monthCount; i++) {
    const date = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 1 + i, 1));
    byMonth.set(isoDay(date).slice(0, 7), { timed: [], fixed: 0 });
  }
  let monitored = 0;
  let timedAccounts = 0;
  let heldTotal = 0;
  for (let after = ""; ;) {
    const batch = await listActiveMonitorings(db, after, FORECAST_BATCH);
    if (batch.length === 0) break;
    after = batch.at(-1)?.monitoringId ?? after;
    const renewals = await renewalsOf(db, batch);
    for (const monitoring of batch) {
      monitored++;
      const own = renewals.get(renewalKey(monitoring)) ?? [];
      if (own.length > 0) timedAccounts++;
      const forecast = forecastRefreshes({
        renewals: own,
        lastRefreshDay: monitoring.lastRefreshAt ? isoDay(monitoring.lastRefreshAt) : null,
        today,
        leadTimeDays: options.leadTimeDays,
        interval: monitoring.interval,
        months: monthCount,
      });
      heldTotal += forecast.held;
      for (const day of forecast.timed) byMonth.get(day.slice(0, 7))?.timed.push({ pullId: monitoring.pullId, day });
      for (const day of forecast.fixed) {
        const month = byMonth.get(day.slice(0, 7));
        if (month) month.fixed++;
      }
    }
  }
  const months: ForecastMonth[] = [];
  const overIds = new Set<string>();
  for (const [month, { timed, fixed }] of byMonth) {
    if (month < firstMonth) continue;
    timed.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
    const over = options.budget === null ? [] : timed.slice(options.budget);
    for (const entry of over.slice(0, LISTED_PER_MONTH)) if (entry.pullId) overIds.add(entry.pullId);
    months.push({
      month,
      timed: timed.length,
      fixed,
      overBudget: over.slice(0, LISTED_PER_MONTH).map((entry) => ({ ...entry, name: "" })),
      moreOverBudget: Math.max(0, over.length - LISTED_PER_MONTH),
    });
  }
  const names = await holderNames(db, [...overIds]);
  for (const month of months)
    for (const entry of month.overBudget) entry.name = (entry.pullId && names.get(entry.pullId)) || "Unnamed account";
  return {
    monitored,
    timedAccounts,
    months,
    timedTotal: months.reduce((sum, m) => sum + m.timed, 0),
    fixedTotal: months.reduce((sum, m) => sum + m.fixed, 0),
    heldTotal,
    budget: options.budget,
  };
}

async function holderNames(db: Db, pullIds: string[]): Promise<Map<string, string>> {
  if (pullIds.length === 0) return new Map();
  const rows = await db
    .select({ pullId: pulls.pullId, firstName: pulls.firstName, lastName: pulls.lastName, email: pulls.email })
    .from(pulls)
    .where(inArray(pulls.pullId, pullIds));
  return new Map(rows.map((row) => [row.pullId, personName(row)]));
}
