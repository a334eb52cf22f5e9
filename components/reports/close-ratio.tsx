import { LINK_CLASS } from "@/components/ui/link-class";
import Link from "next/link";
import { formatCount } from "@/lib/format";
import { pullListHref } from "@/lib/pulls/list-query";
import type { Report } from "@/lib/reports/queries";
import type { ReportFilter } from "@/lib/reports/report-filter";
import { csvHref, percent, wonHref } from "@/lib/reports/report-links";
import { ChartFigure } from "./chart-figure";
import { emptyMessage } from "./empty-message";
import { HorizontalBarChart } from "./horizontal-bar-chart";
import { DataTable } from "@/components/ui/data-table";

// The close ratio, WON / (WON + LOST), of each agent: a bar each (out of 100%), and the table
// of wins and losses behind it, each figure a link to its pulls.

export function CloseRatio({ closeRatio, filter }: { closeRatio: Report["closeRatio"]; filter: ReportFilter }) {
  const { rows } = closeRatio;
  const figure = (r: { won: number; lost: number; ratio: number | null }) =>
    `${percent(r.ratio)} (${formatCount(r.won)} of ${formatCount(r.won + r.lost)})`;
  return (
    <ChartFigure
      title="Close ratio by agent"
      testId="close-ratio"
      downloads={[{ label: "Download CSV", href: csvHref("closeRatio", filter) }]}
      empty={rows.length === 0 ? emptyMessage("decided", filter) : null}
    >
      <HorizontalBarChart
        summary={`Close ratio by agent, won of won and lost: ${rows
          .map((r) => `${r.label} ${figure(r)}`)
          .join(", ")}; everyone ${figure(closeRatio)}.`}
        testId="close-ratio-chart"
        bars={rows.map((r) => ({ key: r.key || r.label, label: r.label, share: r.ratio ?? 0, value: figure(r) }))}
      />
      <div className="mt-3">
        <DataTable
          label="Close ratio by agent"
          caption="Close ratio by agent"
          hideCaption
          testId="close-ratio-table"
          rows={rows}
          rowKey={(r) => r.key || r.label}
          columns={[
            { header: "Agent", cell: (r) => r.label },
            {
              header: "Won",
              numeric: true,
              cell: (r) => (
                <Link href={wonHref(filter, { wonBy: r.key || undefined })} className={LINK_CLASS}>
                  {formatCount(r.won)}
                </Link>
              ),
            },
            {
              header: "Lost",
              numeric: true,
              cell: (r) => (
                <Link href={pullListHref({ stage: "LOST", assignee: r.key || undefined })} className={LINK_CLASS}>
                  {formatCount(r.lost)}
                </Link>
              ),
            },
            { header: "Ratio", numeric: true, cell: (r) => percent(r.ratio) },
          ]}
        />
      </div>
    </ChartFigure>
  );
}
