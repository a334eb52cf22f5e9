import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { refreshForecasts } from "@/db/schema";
import { getAgencyRules, type AgencyRules } from "@/lib/rules/agency-rules";
import { getRefreshForecast, type RefreshForecast } from "./refresh-forecast";

// The rules page's refresh forecast, stored (db/schema/report-rollups.ts refresh_forecasts):
// computing it reads every active monitoring and its renewals, seconds at a million pulls, so
// the refresh-timing pass (hourly, and at once after a rules change) stores it when it ends and
// the page shows it "as of" then. A forecast of other rules than the page's (saved a moment ago,
// the pass still running) is computed once more by the page and stored.

export type StoredForecast = { forecast: RefreshForecast; computedAt: Date };

type ForecastRules = Pick<AgencyRules, "leadTimeDays" | "refreshBudgetPerMonth">;

/** Computes the forecast under the agency's rules (or `rules`) and stores it as the one the page shows. */
export async function storeRefreshForecast(
  db: Db,
  options: { rules?: ForecastRules; today?: string; now?: Date } = {},
): Promise<StoredForecast> {
  const rules = options.rules ?? (await getAgencyRules(db));
  const forecast = await getRefreshForecast(db, {
    leadTimeDays: rules.leadTimeDays,
    budget: rules.refreshBudgetPerMonth,
    today: options.today,
  });
  const computedAt = options.now ?? new Date();
  const values = {
    id: 1,
    forecast,
    leadTimeDays: rules.leadTimeDays,
    budget: rules.refreshBudgetPerMonth,
    computedAt,
  };
  await db
    .insert(refreshForecasts)
    .values(values)
    .onConflictDoUpdate({
      target: refreshForecasts.id,
      set: { forecast, leadTimeDays: values.leadTimeDays, budget: values.budget, computedAt },
      // Two passes ending together: the later computation stays.
      setWhere: sql`${refreshForecasts.computedAt} <= ${computedAt.toISOString()}::timestamptz`,
    });
  return { forecast, computedAt };
}

/** The stored forecast if it was computed under `rules`; else computed now, stored, and answered. */
export async function getRefreshForecastAsOf(db: Db, rules: ForecastRules): Promise<StoredForecast> {
  const [row] = await db.select().from(refreshForecasts).limit(1);
  if (row && row.leadTimeDays === rules.leadTimeDays && row.budget === rules.refreshBudgetPerMonth)
    return { forecast: row.forecast as RefreshForecast, computedAt: row.computedAt };
  return storeRefreshForecast(db, { rules });
}
