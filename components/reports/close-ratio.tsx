import Link from "next/link";
import { formatCount } from "@/lib/format";
import { pullListHref } from "@/lib/pulls/list-query";
import type { Report } from "@/lib/reports/queries";
import type { ReportFilter } from "@/lib/reports/report-filter";
import { csvHref, percent, wonHref } from "@/lib/reports/report-links";
import { ChartFigure } from "./chart-figure";
import { emptyMessage } from "./empty-message";
import { HorizontalBarChart } from "./horizontal-bar-chart";

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
      <table className="mt-3 w-full text-sm" data-testid="close-ratio-table">
        <caption className="sr-only">Close ratio by agent</caption>
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
          {rows.map((r) => (
            <tr key={r.key || r.label}>
              <td className="py-1">{r.label}</td>
              <td className="py-1 text-right tabular-nums">
                <Link href={wonHref(filter, { wonBy: r.key || undefined })} className="text-brand-700 hover:underline">
                  {formatCount(r.won)}
                </Link>
              </td>
              <td className="py-1 text-right tabular-nums">
                <Link
                  href={pullListHref({ stage: "LOST", assignee: r.key || undefined })}
                  className="text-brand-700 hover:underline"
                >
                  {formatCount(r.lost)}
                </Link>
              </td>
              <td className="py-1 text-right tabular-nums">{percent(r.ratio)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ChartFigure>
  );
}
