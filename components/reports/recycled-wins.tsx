import { formatCents, formatCount } from "@/lib/format";
import type { RecycledRow } from "@/lib/reports/recycled-wins";
import type { ReportFilter } from "@/lib/reports/report-filter";
import { csvHref } from "@/lib/reports/report-links";
import { ChartFigure } from "./chart-figure";
import { DataTable } from "@/components/ui/data-table";

// Recycled wins: deals that came back on their own (a lost deal at its X-date, a won client a
// refresh showed gone) and the premium won back, by agent and by kind, with the page's filter.

const EMPTY_NOTE =
  "No deal has come back yet. A lost deal comes back when its X-date is within the agency's lead time, a won client when a refresh shows the policy cancelled or moved; wins of those deals count here.";

function RecycledTable({ rows, header }: { rows: RecycledRow[]; header: string }) {
  return (
    <DataTable
      label={`Recycled wins by ${header.toLowerCase()}`}
      caption={`Recycled wins by ${header.toLowerCase()}`}
      hideCaption
      testId={`recycled-by-${rows[0]?.dimension ?? "none"}`}
      rows={rows}
      rowKey={(r) => r.key || r.label}
      columns={[
        { header, cell: (r) => r.label },
        { header: "Came back", numeric: true, cell: (r) => formatCount(r.returned) },
        { header: "Won back", numeric: true, cell: (r) => formatCount(r.won) },
        { header: "Premium", numeric: true, cell: (r) => formatCents(r.cents) },
      ]}
    />
  );
}

export function RecycledWins({ rows, filter }: { rows: RecycledRow[]; filter: ReportFilter }) {
  const byAgent = rows.filter((r) => r.dimension === "agent");
  const byKind = rows.filter((r) => r.dimension === "kind");
  const won = byKind.reduce((a, r) => a + r.won, 0);
  const cents = byKind.reduce((a, r) => a + r.cents, 0);
  const filtered = Boolean(filter.from || filter.to || filter.agent || filter.line || filter.link);
  return (
    <ChartFigure
      title="Recycled wins"
      testId="recycled-wins"
      downloads={[{ label: "Download CSV", href: csvHref("recycledWins", filter) }]}
      note="Deals that came back on their own, by whom they went back to, and those won again with the premium, credited like every win."
      empty={
        rows.length === 0
          ? filtered
            ? "No deal came back or was won back with these filters. Widen the dates or clear a filter."
            : EMPTY_NOTE
          : null
      }
      wide
    >
      <p className="mb-3 text-sm text-slate-700" data-testid="recycled-wins-total">
        {formatCount(won)} won back for {formatCents(cents)}
      </p>
      <div className="grid gap-4 md:grid-cols-2">
        <RecycledTable rows={byAgent} header="Agent" />
        <RecycledTable rows={byKind} header="How it came back" />
      </div>
    </ChartFigure>
  );
}
