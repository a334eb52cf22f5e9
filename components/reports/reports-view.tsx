import { humanize } from "@/lib/format";
import type { ReportsPage } from "@/lib/loaders/reports";
import { csvHref, wonHref } from "@/lib/reports/report-links";
import { BarTable } from "./bar-table";
import { CloseRatio } from "./close-ratio";
import { emptyMessage } from "./empty-message";
import { LostReasons } from "./lost-reasons";
import { NewPulls } from "./new-pulls";
import { PipelineFunnel } from "./pipeline-funnel";
import { RecycledWins } from "./recycled-wins";
import { ReportFilters } from "./report-filters";
import { ReportSummary } from "./report-summary";
import { Sources } from "./sources-table";
import { WonByPeriod } from "./won-by-period";
import { PageHeader } from "@/components/ui/page-header";

// The reports page (app/(app)/reports/page.tsx renders it): filters, headline figures, then
// each figure as a chart beside its table. Server components only: the charts are SVG drawn
// here, so the page ships no script of its own.

export function ReportsView({ page }: { page: ReportsPage }) {
  const { filter, ignored, report } = page;
  const noWins = emptyMessage("won", filter);
  return (
    <div className="space-y-5">
      <PageHeader title="Reports">
        <p className="text-sm text-slate-600">
          Won premium counts WON pulls on the day they were won, credited to the agent who had them then.
        </p>
      </PageHeader>

      <ReportFilters
        filter={filter}
        people={page.people}
        offices={page.offices}
        lines={page.lines}
        ranges={page.ranges}
      />
      {ignored.length > 0 ? (
        <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
          Left out filters that could not be read: {ignored.join(", ")}.
        </p>
      ) : null}

      <ReportSummary report={report} filter={filter} />

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <WonByPeriod report={report} filter={filter} />
        <PipelineFunnel steps={report.funnel} filter={filter} />
        <CloseRatio closeRatio={report.closeRatio} filter={filter} />
        <BarTable
          caption="Won premium by agent"
          rows={report.byAgent}
          drill={(r) => wonHref(filter, { wonBy: r.key || undefined })}
          csvHref={csvHref("byAgent", filter)}
          empty={noWins}
        />
        <BarTable
          caption="Won premium by carrier"
          rows={report.byCarrier}
          drill={(r) => wonHref(filter, { carrier: r.key || undefined })}
          csvHref={csvHref("byCarrier", filter)}
          empty={noWins}
        />
        <BarTable
          caption="Won premium by lines of business"
          // "AUTO + HOMEOWNERS" reads "Auto + Homeowners"; the key (and the CSV) keep the codes.
          rows={report.byLine.map((r) => ({ ...r, label: r.label.split(" + ").map(humanize).join(" + ") }))}
          drill={(r) => wonHref(filter, { lines: r.key })}
          csvHref={csvHref("byLine", filter)}
          empty={noWins}
        />
        <BarTable
          caption="Won premium by link"
          rows={report.byLink}
          drill={(r) => wonHref(filter, { link: r.key || undefined })}
          csvHref={csvHref("byLink", filter)}
          empty={noWins}
        />
        <NewPulls report={report} filter={filter} />
        <LostReasons rows={page.lostReasons} filter={filter} />
        <RecycledWins rows={report.recycledWins} filter={filter} />
        <Sources
          byLink={report.sourcesByLink}
          byAgent={report.sourcesByAgent}
          filter={filter}
          namesAnswered={page.linkNamesAnswered !== false}
        />
      </div>
    </div>
  );
}
