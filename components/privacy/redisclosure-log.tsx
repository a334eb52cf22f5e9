import type { RedisclosureRow } from "@/db/schema";
import { formatCount, formatInstant } from "@/lib/format";
import { purposeWords } from "@/lib/enrichment/purposes";
import { buttonClass } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EMPTY_STATE_CLASS } from "@/components/ui/empty-state";

// The DPPA redisclosure log: each disclosure of driver data, to whom and why; ids only.

const columns: Column<RedisclosureRow>[] = [
  { header: "When", cell: (row) => formatInstant(row.at) },
  { header: "Data", cell: (row) => row.dataKinds.join(", ") },
  { header: "How", cell: (row) => row.channel },
  { header: "Recipient", cell: (row) => row.recipient, testId: "redisclosure-recipient" },
  { header: "Purpose", cell: (row) => purposeWords(row.purpose), testId: "redisclosure-purpose" },
  { header: "By", cell: (row) => row.actorName ?? "Coverdesk" },
  {
    header: "Pulls",
    cell: (row) => (row.pullCount === 1 ? row.pullIds[0] : `${formatCount(row.pullCount)} pulls`),
    className: "font-mono text-xs",
  },
];

export function RedisclosureLog({ rows, csvHref }: { rows: RedisclosureRow[]; csvHref: string }) {
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-700">
          Every licence or driving-record answer, export or hand-off of driver data, kept five years. The latest{" "}
          {formatCount(rows.length)} are shown; the CSV holds them all.
        </p>
        <a href={csvHref} className={buttonClass({ variant: "secondary", size: "sm" })}>
          Download CSV
        </a>
      </div>
      <DataTable
        label="Redisclosure log"
        caption="Redisclosures of driver data"
        hideCaption
        columns={columns}
        rows={rows}
        rowKey={(row) => String(row.id)}
        rowTestId="redisclosure-row"
        empty={<p className={EMPTY_STATE_CLASS}>No driver data has been disclosed yet.</p>}
      />
    </div>
  );
}
