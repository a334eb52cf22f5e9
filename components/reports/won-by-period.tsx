import { LINK_CLASS } from "@/components/ui/link-class";
import Link from "next/link";
import { DataTable, type Column as TableColumn } from "@/components/ui/data-table";
import { formatCents, formatLimit, formatPeriod } from "@/lib/format";
import type { Report } from "@/lib/reports/queries";
import type { ReportFilter } from "@/lib/reports/report-filter";
import { csvHref, periodHref } from "@/lib/reports/report-links";
import { periodSlots } from "@/lib/reports/periods";
import { ChartFigure } from "./chart-figure";
import { SERIES_COLOURS, seriesColour } from "./chart-colours";
import { emptyMessage } from "./empty-message";
import { StackedBarChart } from "./stacked-bar-chart";
import { cellOf, chartSeries, OTHERS, stackColumns, type Column } from "./stacked-bars";

// Won premium per period as stacked bars, a segment per agent, with a legend and, beside it,
// the same figures as a table (a period a row, an agent a column), each a link to its pulls.

export function WonByPeriod({ report, filter }: { report: Report; filter: ReportFilter }) {
  const { period } = report;
  const title = `Won premium by ${period}`;
  const rows = report.byPeriodAgent;
  const slots = periodSlots(
    period,
    report.byPeriod.map((r) => r.key),
    filter.from,
    filter.to,
  );
  const { series, keyOf } = chartSeries(rows, SERIES_COLOURS.length);
  const columns = stackColumns(slots, series, rows, keyOf);
  const colours = new Map(series.map((s, i) => [s.key, seriesColour(i)]));
  const names = new Map(series.map((s) => [s.key, s.label]));
  const labels = slots.map((slot) => formatPeriod(slot, period));
  // On the axis a week is its first day ("Aug 3, 2026"): the caption already says "by week".
  const axisLabels = period === "week" ? labels.map((l) => l.replace(/^Week of /, "")) : labels;
  const labelOf = new Map(slots.map((slot, i) => [slot, labels[i] ?? slot]));

  const tableColumns: TableColumn<Column>[] = [
    {
      header: period.charAt(0).toUpperCase() + period.slice(1),
      cell: (c) => (
        <Link href={periodHref(filter, period, c.slot)} className={LINK_CLASS}>
          {labelOf.get(c.slot)}
        </Link>
      ),
    },
    ...series.map((s): TableColumn<Column> => ({
      header: s.label,
      numeric: true,
      cell: (c) => {
        const cents = cellOf(c, s.key);
        // "Other agents" and "No one" are not one agent the pull list can filter by.
        if (cents === 0 || s.key === OTHERS || s.key === "") return formatCents(cents);
        return (
          <Link href={periodHref(filter, period, c.slot, s.key)} className={LINK_CLASS}>
            {formatCents(cents)}
          </Link>
        );
      },
    })),
    { header: "Total", numeric: true, cell: (c) => <span className="font-medium">{formatCents(c.total)}</span> },
  ];

  return (
    <ChartFigure
      title={title}
      wide
      testId="won-by-period"
      downloads={[
        { label: "CSV by agent", href: csvHref("byPeriodAgent", filter) },
        { label: "CSV totals", href: csvHref("byPeriod", filter) },
      ]}
      empty={rows.length === 0 ? emptyMessage("won", filter) : null}
    >
      <div className="grid gap-4 lg:grid-cols-[minmax(0,28rem)_minmax(0,1fr)]">
        <div>
          <StackedBarChart
            summary={summaryOf(title, columns, labelOf, series)}
            columns={columns}
            axisLabels={axisLabels}
            seriesLabel={(key) => names.get(key) ?? key}
            fillOf={(key) => (colours.get(key) ?? seriesColour(0)).fill}
            format={formatCents}
            tick={formatLimit}
            testId="won-by-period-chart"
          />
          <ul aria-label="Agents in the chart" className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700">
            {series.map((s) => (
              <li key={s.key} className="flex items-center gap-1.5">
                <span aria-hidden="true" className={`inline-block size-3 rounded-sm ${colours.get(s.key)?.swatch}`} />
                {s.label}
              </li>
            ))}
          </ul>
        </div>
        <DataTable
          label={`Won premium by ${period} and agent`}
          caption={`Won premium by ${period} and agent`}
          columns={tableColumns}
          rows={columns}
          rowKey={(c) => c.slot}
          rowTestId="won-by-period-row"
        />
      </div>
    </ChartFigure>
  );
}

/** The chart in words: the span, the total, the best period and each agent's share. */
function summaryOf(
  title: string,
  columns: Column[],
  labelOf: Map<string, string>,
  series: Array<{ key: string; label: string }>,
): string {
  const total = columns.reduce((a, c) => a + c.total, 0);
  const best = columns.reduce<Column | null>((a, c) => (a === null || c.total > a.total ? c : a), null);
  const first = columns[0];
  const last = columns[columns.length - 1];
  const span = first && last && first !== last ? `, ${labelOf.get(first.slot)} to ${labelOf.get(last.slot)}` : "";
  const byAgent = series
    .map((s) => `${s.label} ${formatCents(columns.reduce((a, c) => a + cellOf(c, s.key), 0))}`)
    .join(", ");
  return (
    `${title}, stacked by agent${span}: ${formatCents(total)} in all` +
    (best ? `, the most in ${labelOf.get(best.slot)} (${formatCents(best.total)})` : "") +
    `. By agent: ${byAgent}.`
  );
}
