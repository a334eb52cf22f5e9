import { DataTable } from "@/components/ui/data-table";
import { formatCount } from "@/lib/format";
import type { FunnelStep } from "@/lib/reports/funnel-steps";
import type { ReportFilter } from "@/lib/reports/report-filter";
import { csvHref, percent } from "@/lib/reports/report-links";
import { ChartFigure } from "./chart-figure";
import { emptyMessage } from "./empty-message";
import { HorizontalBarChart } from "./horizontal-bar-chart";

// The pipeline as a funnel: the accounts linked in the range, and how many of them got to each
// next step, with the share of the step before. The bars narrow from the first step's width.

const stepValue = (step: FunnelStep) =>
  step.ofPrevious === null ? formatCount(step.count) : `${formatCount(step.count)} · ${percent(step.ofPrevious)}`;

export function PipelineFunnel({ steps, filter }: { steps: FunnelStep[]; filter: ReportFilter }) {
  const linked = steps[0]?.count ?? 0;
  const summary =
    "Pipeline funnel of the accounts linked in this range: " +
    steps
      .map((s) =>
        s.ofPrevious === null
          ? `${s.label} ${formatCount(s.count)}`
          : `${s.label} ${formatCount(s.count)} (${percent(s.ofPrevious)} of the step before)`,
      )
      .join(", ") +
    ".";
  return (
    <ChartFigure
      title="Pipeline funnel"
      testId="funnel"
      note="Accounts linked in this range, and how far each has got since. A decision carried over to a refreshed account counts once, on its first pull."
      downloads={[{ label: "Download CSV", href: csvHref("funnel", filter) }]}
      empty={linked === 0 ? emptyMessage("linked", filter) : null}
    >
      <HorizontalBarChart
        summary={summary}
        centred
        testId="funnel-chart"
        bars={steps.map((s) => ({ key: s.key, label: s.label, share: s.count / linked, value: stepValue(s) }))}
      />
      <div className="mt-3">
        <DataTable
          label="Pipeline funnel"
          columns={[
            { header: "Step", cell: (s: FunnelStep) => s.label },
            { header: "Pulls", numeric: true, cell: (s: FunnelStep) => formatCount(s.count) },
            { header: "% of previous", numeric: true, cell: (s: FunnelStep) => percent(s.ofPrevious) },
          ]}
          rows={steps}
          rowKey={(s) => s.key}
          rowTestId="funnel-row"
          testId="funnel-table"
        />
      </div>
    </ChartFigure>
  );
}
