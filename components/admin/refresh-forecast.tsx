import { LINK_CLASS } from "@/components/ui/link-class";
import Link from "next/link";
import { DataTable, type Column } from "@/components/ui/data-table";
import { formatCount, formatInstant, formatPeriod } from "@/lib/format";
import type { ForecastMonth, RefreshForecast } from "@/lib/monitoring/refresh-forecast";
import { MIN_REFRESH_GAP_DAYS } from "@/lib/monitoring/refresh-plan";
import { Card } from "@/components/ui/card";

// The next year of monitoring refreshes, timed to renewals, beside what the accounts' fixed
// intervals would have cost, and the accounts a monthly budget would not cover.

export function RefreshForecastTable({
  forecast,
  leadTimeDays,
  asOf,
}: {
  forecast: RefreshForecast;
  leadTimeDays: number;
  /** When it was computed: the refresh-timing pass stores it hourly and after a rules change. */
  asOf: Date;
}) {
  const saved = forecast.fixedTotal - forecast.timedTotal;
  const columns: Column<ForecastMonth>[] = [
    { header: "Month", cell: (m) => formatPeriod(`${m.month}-01`, "month") },
    { header: "Timed to renewals", numeric: true, cell: (m) => formatCount(m.timed) },
    { header: "On fixed intervals", numeric: true, cell: (m) => formatCount(m.fixed) },
    { header: "Saved", numeric: true, cell: (m) => formatCount(m.fixed - m.timed) },
    {
      header: "Over budget",
      cell: (m) =>
        m.overBudget.length === 0 ? (
          "—"
        ) : (
          <span data-testid="over-budget">
            {m.overBudget.map((entry, index) => (
              <span key={`${entry.pullId}-${entry.day}`}>
                {index > 0 ? ", " : ""}
                {entry.pullId ? (
                  <Link href={`/pulls/${entry.pullId}`} className={LINK_CLASS}>
                    {entry.name}
                  </Link>
                ) : (
                  entry.name
                )}
              </span>
            ))}
            {m.moreOverBudget > 0 ? ` and ${formatCount(m.moreOverBudget)} more` : ""}
          </span>
        ),
    },
  ];
  return (
    <Card aria-labelledby="forecast-title" className="space-y-3">
      <h2 id="forecast-title" className="text-lg font-semibold text-slate-900">
        Refreshes in the next 12 months
      </h2>
      <p className="text-xs text-slate-600" data-testid="forecast-as-of">
        As of {formatInstant(asOf)}: worked out again every hour and after the rules change.
      </p>
      {forecast.monitored === 0 ? (
        <p className="text-sm text-slate-700">
          No account is monitored yet. Turn monitoring on from a linked account&apos;s page; its refreshes are then
          timed to its renewals and counted here.
        </p>
      ) : (
        <>
          <p className="text-sm text-slate-700" data-testid="forecast-summary">
            {formatCount(forecast.monitored)} monitored accounts, {formatCount(forecast.timedAccounts)} with verified
            X-dates: each is refreshed {leadTimeDays} days before its renewals, {formatCount(forecast.timedTotal)}{" "}
            refreshes in all instead of {formatCount(forecast.fixedTotal)} on their fixed intervals
            {saved > 0 ? `, ${formatCount(saved)} fewer` : ""}. Accounts without X-dates stay on their interval.
            {forecast.heldTotal > 0
              ? ` ${formatCount(forecast.heldTotal)} of the timed refreshes are held to ${MIN_REFRESH_GAP_DAYS} days after the refresh before them.`
              : ""}
            {forecast.budget === null
              ? " No monthly budget is set."
              : ` Budget: ${formatCount(forecast.budget)} refreshes a month; the latest refreshes of a month over it are listed.`}
          </p>
          <DataTable
            label="Refresh forecast"
            columns={columns}
            rows={forecast.months}
            rowKey={(m) => m.month}
            rowTestId="forecast-month"
          />
        </>
      )}
      <p className="text-sm text-slate-700" data-testid="refresh-minimum">
        A refresh is never planned sooner than {MIN_REFRESH_GAP_DAYS} days after the account&apos;s latest pull: the
        service refuses a sooner date, so a renewal that asks for one is refreshed on the first day it allows.
      </p>
    </Card>
  );
}
