import { formatCents, formatCount } from "@/lib/format";
import type { LostRow } from "@/lib/reports/queries";
import type { ReportFilter } from "@/lib/reports/report-filter";
import { lostCategoryLabel } from "@/lib/workflow/lost-reasons";
import { ChartFigure } from "./chart-figure";
import { emptyMessage } from "./empty-message";

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
    <table className="w-full text-sm" data-testid={`lost-by-${dimension}`}>
      <caption className="sr-only">Lost pulls by {dimension}</caption>
      <thead className="text-left text-xs text-slate-500 uppercase">
        <tr>
          <th scope="col" className="py-1 font-medium">
            {header}
          </th>
          <th scope="col" className="py-1 text-right font-medium">
            Lost
          </th>
          <th scope="col" className="py-1 text-right font-medium">
            Won elsewhere at
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={`${r.key}`} className="border-t border-slate-100">
            <td className="py-1 break-words">{label(r)}</td>
            <td className="py-1 text-right tabular-nums">{formatCount(r.count)}</td>
            <td className="py-1 text-right tabular-nums">
              {r.priced > 0
                ? `${formatCents(Math.round(r.lostToCents / r.priced))} avg (${formatCount(r.priced)})`
                : "—"}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
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
