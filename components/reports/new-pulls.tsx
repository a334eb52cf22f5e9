import { LINK_CLASS } from "@/components/ui/link-class";
import Link from "next/link";
import { formatCount, formatPeriod } from "@/lib/format";
import { pullListHref } from "@/lib/pulls/list-query";
import { periodEnd, periodSlots } from "@/lib/reports/periods";
import type { Report } from "@/lib/reports/queries";
import type { ReportFilter } from "@/lib/reports/report-filter";
import { csvHref, percent } from "@/lib/reports/report-links";
import { ChartFigure } from "./chart-figure";
import { emptyMessage } from "./empty-message";
import { LineChart } from "./line-chart";
import { DataTable } from "@/components/ui/data-table";

// New linked accounts per period, as a line and as a table with the share that linked
// successfully; each count a link to those accounts in the pull list. A period without any is
// drawn and listed as zero, not skipped, so the line does not hide a quiet month.

export function NewPulls({ report, filter }: { report: Report; filter: ReportFilter }) {
  const { period, newPulls } = report;
  const title = `New linked accounts by ${period}`;
  const counted = new Map(newPulls.map((r) => [r.period, r]));
  const rows = periodSlots(
    period,
    newPulls.map((r) => r.period),
    filter.from,
    filter.to,
  ).map((slot) => counted.get(slot) ?? { period: slot, count: 0, successful: 0 });
  const points = rows.map((r) => ({ x: formatPeriod(r.period, period), y: r.count }));
  const total = newPulls.reduce((a, r) => a + r.count, 0);
  return (
    <ChartFigure
      title={title}
      wide
      testId="new-pulls"
      downloads={[{ label: "Download CSV", href: csvHref("newPulls", filter) }]}
      empty={newPulls.length === 0 ? emptyMessage("linked", filter) : null}
    >
      <div className="grid gap-4 lg:grid-cols-[minmax(0,28rem)_minmax(0,1fr)]">
        <LineChart
          summary={`${title}: ${formatCount(total)} in all, ${points.map((p) => `${p.x} ${formatCount(p.y)}`).join(", ")}.`}
          points={points}
          format={formatCount}
          testId="new-pulls-chart"
        />
        <DataTable
          label={title}
          caption={title}
          hideCaption
          rows={rows.map((r, i) => ({ ...r, label: points[i]?.x ?? "" }))}
          rowKey={(r) => r.period}
          columns={[
            { header: period.charAt(0).toUpperCase() + period.slice(1), cell: (r) => r.label },
            {
              header: "New",
              numeric: true,
              cell: (r) =>
                r.count === 0 ? (
                  "0"
                ) : (
                  <Link
                    href={pullListHref({
                      from: r.period,
                      to: periodEnd(period, r.period),
                      assignee: filter.agent,
                      policyType: filter.line,
                      link: filter.link,
                      archived: "include",
                    })}
                    className={LINK_CLASS}
                  >
                    {formatCount(r.count)}
                  </Link>
                ),
            },
            {
              header: "Linked successfully",
              numeric: true,
              cell: (r) => `${formatCount(r.successful)} (${percent(r.count > 0 ? r.successful / r.count : null)})`,
            },
          ]}
        />
      </div>
    </ChartFigure>
  );
}
