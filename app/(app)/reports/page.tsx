import type { Metadata } from "next";
import Link from "next/link";
import { BarTable } from "@/components/reports/bar-table";
import { LineChart } from "@/components/reports/line-chart";
import type { Row } from "@/lib/reports/queries";
import { getDb } from "@/lib/database";
import { requirePermission } from "@/lib/auth/session";
import { formatCents, humanize } from "@/lib/format";
import { pullListHref } from "@/lib/pulls/list-query";
import { csvHref, loadReportsPage, percent, periodEnd, periodHref, wonHref } from "@/lib/reports/reports-page";

export const metadata: Metadata = { title: "Reports" };

export default async function ReportsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [, params, db] = await Promise.all([requirePermission("reports:view"), searchParams, getDb()]);
  const { filter, ignored, report, people, lines } = await loadReportsPage(db, params);
  const input = "rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm";
  const periodRow = (row: Row) => periodHref(filter, report.period, row);

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold text-slate-900">Reports</h1>
        <p className="text-sm text-slate-600">
          Won premium counts WON pulls on the day they were won, credited to the agent who had them then.
        </p>
      </div>

      <form
        method="get"
        aria-label="Report filters"
        className="flex flex-wrap items-end gap-2 rounded-lg border border-slate-200 bg-white p-4 text-sm"
      >
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">From</span>
          <input type="date" name="from" defaultValue={filter.from ?? ""} className={input} />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">To</span>
          <input type="date" name="to" defaultValue={filter.to ?? ""} className={input} />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">Agent</span>
          <select name="agent" defaultValue={filter.agent ?? ""} className={input}>
            <option value="">Everyone</option>
            {people.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">Line of business</span>
          <select name="line" defaultValue={filter.line ?? ""} className={input}>
            <option value="">Any</option>
            {lines.map((l) => (
              <option key={l} value={l}>
                {humanize(l)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">Link (public alias)</span>
          <input name="link" defaultValue={filter.link ?? ""} className={input} />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">By</span>
          <select name="period" defaultValue={filter.period ?? "month"} className={input}>
            <option value="month">Month</option>
            <option value="week">Week</option>
          </select>
        </label>
        <button type="submit" className="rounded-md bg-brand-700 px-3 py-1.5 font-medium text-white hover:bg-brand-900">
          Apply
        </button>
        <Link href="/reports" className="px-1 py-1.5 text-brand-700 hover:underline">
          Clear
        </Link>
      </form>
      {ignored.length > 0 ? (
        <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
          Left out filters that could not be read: {ignored.join(", ")}.
        </p>
      ) : null}

      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="report-summary">
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <dt className="text-xs tracking-wide text-slate-500 uppercase">Won premium</dt>
          <dd>
            <Link
              href={wonHref(filter, {})}
              className="text-2xl font-semibold text-slate-900 hover:underline"
              data-testid="won-total"
            >
              {formatCents(report.won.cents)}
            </Link>
          </dd>
          <dd className="text-sm text-slate-600">{report.won.count} won pulls</dd>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <dt className="text-xs tracking-wide text-slate-500 uppercase">Close ratio</dt>
          <dd className="text-2xl font-semibold text-slate-900" data-testid="close-ratio">
            {percent(report.closeRatio.ratio)}
          </dd>
          <dd className="text-sm text-slate-600">
            {report.closeRatio.won} won, {report.closeRatio.lost} lost
          </dd>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <dt className="text-xs tracking-wide text-slate-500 uppercase">Open pipeline</dt>
          <dd>
            <Link
              href={pullListHref({
                stage: "WORKING",
                status: "SUCCESS",
                assignee: filter.agent,
                policyType: filter.line,
                link: filter.link,
              })}
              className="text-2xl font-semibold text-slate-900 hover:underline"
            >
              {report.pipeline.count}
            </Link>
          </dd>
          <dd className="text-sm text-slate-600">{formatCents(report.pipeline.cents)} current premium</dd>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <dt className="text-xs tracking-wide text-slate-500 uppercase">Median days to a win</dt>
          <dd className="text-2xl font-semibold text-slate-900">
            {report.medianDaysToWon === null ? "—" : Math.round(report.medianDaysToWon * 10) / 10}
          </dd>
          <dd className="text-sm text-slate-600">from linking to WON</dd>
        </div>
      </dl>

      <div className="grid gap-4 lg:grid-cols-2">
        <BarTable
          caption="Won premium by agent"
          rows={report.byAgent}
          drill={(r) => wonHref(filter, { wonBy: r.key || undefined })}
          csvHref={csvHref("byAgent", filter)}
        />
        <figure className="rounded-lg border border-slate-200 bg-white p-4">
          <figcaption className="mb-2 flex items-baseline justify-between">
            <span className="font-semibold text-slate-900">Won premium by {report.period}</span>
            <a href={csvHref("byPeriod", filter)} className="text-xs text-brand-700 hover:underline">
              Download CSV
            </a>
          </figcaption>
          <LineChart
            label={`Won premium by ${report.period}`}
            points={report.byPeriod.map((r) => ({ x: r.key, y: r.cents }))}
            format={formatCents}
          />
          <BarTable
            caption={`Each ${report.period}`}
            rows={report.byPeriod}
            drill={periodRow}
            csvHref={csvHref("byPeriod", filter)}
          />
        </figure>
        <BarTable
          caption="Won premium by carrier"
          rows={report.byCarrier}
          drill={(r) => wonHref(filter, { carrier: r.key || undefined })}
          csvHref={csvHref("byCarrier", filter)}
        />
        <BarTable
          caption="Won premium by lines of business"
          rows={report.byLine}
          drill={(r) => wonHref(filter, { lines: r.key })}
          csvHref={csvHref("byLine", filter)}
        />
        <BarTable
          caption="Won premium by link"
          rows={report.byLink}
          drill={(r) => wonHref(filter, { link: r.key || undefined })}
          csvHref={csvHref("byLink", filter)}
        />

        <figure className="rounded-lg border border-slate-200 bg-white p-4">
          <figcaption className="mb-2 flex items-baseline justify-between">
            <span className="font-semibold text-slate-900">Close ratio by agent</span>
            <a href={csvHref("closeRatio", filter)} className="text-xs text-brand-700 hover:underline">
              Download CSV
            </a>
          </figcaption>
          <table className="w-full text-sm" data-testid="close-ratio-table">
            <thead className="text-left text-xs text-slate-500 uppercase">
              <tr>
                <th scope="col" className="py-1 font-medium">
                  Agent
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Won
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Lost
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Ratio
                </th>
              </tr>
            </thead>
            <tbody>
              {report.closeRatio.rows.map((r) => (
                <tr key={r.key || r.label}>
                  <td className="py-1">{r.label}</td>
                  <td className="py-1 text-right tabular-nums">
                    <Link
                      href={wonHref(filter, { wonBy: r.key || undefined })}
                      className="text-brand-700 hover:underline"
                    >
                      {r.won}
                    </Link>
                  </td>
                  <td className="py-1 text-right tabular-nums">
                    <Link
                      href={pullListHref({ stage: "LOST", assignee: r.key || undefined })}
                      className="text-brand-700 hover:underline"
                    >
                      {r.lost}
                    </Link>
                  </td>
                  <td className="py-1 text-right tabular-nums">{percent(r.ratio)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </figure>

        <figure className="rounded-lg border border-slate-200 bg-white p-4 lg:col-span-2">
          <figcaption className="mb-2 flex items-baseline justify-between">
            <span className="font-semibold text-slate-900">New linked accounts by {report.period}</span>
            <a href={csvHref("newPulls", filter)} className="text-xs text-brand-700 hover:underline">
              Download CSV
            </a>
          </figcaption>
          <LineChart
            label={`New linked accounts by ${report.period}`}
            points={report.newPulls.map((r) => ({ x: r.period, y: r.count }))}
            format={(y) => String(y)}
          />
          <table className="w-full text-sm">
            <thead className="text-left text-xs text-slate-500 uppercase">
              <tr>
                <th scope="col" className="py-1 font-medium">
                  {report.period === "week" ? "Week of" : "Month"}
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  New
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Linked successfully
                </th>
              </tr>
            </thead>
            <tbody>
              {report.newPulls.map((r) => (
                <tr key={r.period}>
                  <td className="py-1">{r.period}</td>
                  <td className="py-1 text-right tabular-nums">
                    <Link
                      href={pullListHref({
                        from: r.period,
                        to: periodEnd(report.period, r.period),
                        assignee: filter.agent,
                        policyType: filter.line,
                        link: filter.link,
                        archived: "include",
                      })}
                      className="text-brand-700 hover:underline"
                    >
                      {r.count}
                    </Link>
                  </td>
                  <td className="py-1 text-right tabular-nums">
                    {r.successful} ({percent(r.count > 0 ? r.successful / r.count : null)})
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </figure>
      </div>
    </div>
  );
}
