import { formatCents, formatCount } from "@/lib/format";
import type { LostRow } from "@/lib/reports/queries";
import type { ReportFilter } from "@/lib/reports/report-filter";
import { lostCategoryLabel } from "@/lib/workflow/lost-reasons";
import { ChartFigure } from "./chart-figure";
import { emptyMessage } from "./empty-message";
import { DataTable } from "@/components/ui/data-table";

// Why deals were lost, as agents said when marking them LOST: by reason, by the carrier that won
// them (and the premium it won them at, where the agent knew it), and by agent.

const TITLES: Record<LostRow["dimension"], [string, string]> = {
  reason: ["Why", "Not said"],
  carrier: ["Won by", "Unknown"],
  agent: ["Agent", "No one"],
};

function LostTable({ rows, dimension }: { rows: LostRow[]; dimension: LostRow["dimension"] }) {
  const [header, none] = TITLES[dimension];
  const label = (r: LostRow) =>
    dimension === "reason" ? (lostCategoryLabel(r.key) ?? none) : (r.label ?? r.key ?? none);
  return (
    <DataTable
      label={`Lost pulls by ${dimension}`}
      caption={`Lost pulls by ${dimension}`}
      hideCaption
      testId={`lost-by-${dimension}`}
      rows={rows}
      rowKey={(r) => `${r.key}`}
      columns={[
        { header, cell: label },
        { header: "Lost", numeric: true, cell: (r) => formatCount(r.count) },
        {
          header: "Won elsewhere at",
          numeric: true,
          cell: (r) =>
            r.priced > 0 ? `${formatCents(Math.round(r.lostToCents / r.priced))} avg (${formatCount(r.priced)})` : "—",
        },
      ]}
    />
  );
}

export function LostReasons({ rows, filter }: { rows: LostRow[]; filter: ReportFilter }) {
  const of = (dimension: LostRow["dimension"]) => rows.filter((r) => r.dimension === dimension);
  return (
    <ChartFigure
      title="Why deals were lost"
      testId="lost-reasons"
      downloads={[]}
      note="As agents said when marking them lost; a premium only where they knew what the other carrier charged."
      empty={rows.length === 0 ? emptyMessage("lost", filter) : null}
      wide
    >
      <div className="grid gap-4 md:grid-cols-3">
        <LostTable rows={of("reason")} dimension="reason" />
        <LostTable rows={of("carrier")} dimension="carrier" />
        <LostTable rows={of("agent")} dimension="agent" />
      </div>
    </ChartFigure>
  );
}
