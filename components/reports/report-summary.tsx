import Link from "next/link";
import { formatCents, formatCount } from "@/lib/format";
import { pullListHref } from "@/lib/pulls/list-query";
import type { Report } from "@/lib/reports/queries";
import type { ReportFilter } from "@/lib/reports/report-filter";
import { percent, wonHref } from "@/lib/reports/report-links";
import { Card } from "@/components/ui/card";

// The four headline figures of the reports page, each a link to the pulls behind it.

export function ReportSummary({ report, filter }: { report: Report; filter: ReportFilter }) {
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="report-summary">
      <Card as="div">
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
        <dd className="text-sm text-slate-600">{formatCount(report.won.count)} won pulls</dd>
      </Card>
      <Card as="div">
        <dt className="text-xs tracking-wide text-slate-500 uppercase">Close ratio</dt>
        <dd className="text-2xl font-semibold text-slate-900" data-testid="close-ratio">
          {percent(report.closeRatio.ratio)}
        </dd>
        <dd className="text-sm text-slate-600">
          {formatCount(report.closeRatio.won)} won, {formatCount(report.closeRatio.lost)} lost
        </dd>
      </Card>
      <Card as="div">
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
            {formatCount(report.pipeline.count)}
          </Link>
        </dd>
        <dd className="text-sm text-slate-600">{formatCents(report.pipeline.cents)} current premium</dd>
      </Card>
      <Card as="div">
        <dt className="text-xs tracking-wide text-slate-500 uppercase">Median days to a win</dt>
        <dd className="text-2xl font-semibold text-slate-900">
          {report.medianDaysToWon === null ? "—" : Math.round(report.medianDaysToWon * 10) / 10}
        </dd>
        <dd className="text-sm text-slate-600">from linking to WON</dd>
      </Card>
    </dl>
  );
}
