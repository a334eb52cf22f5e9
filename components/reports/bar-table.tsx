import { LINK_CLASS } from "@/components/ui/link-class";
import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import Link from "next/link";
import { formatCents, formatCount } from "@/lib/format";
import type { Row } from "@/lib/reports/queries";
import { DataTable } from "@/components/ui/data-table";

// Won premium per group as a table whose last column is a bar: a chart and its numbers in
// one place, readable without colour, and every row a link to the pulls behind it.

export function BarTable({
  caption,
  rows,
  drill,
  csvHref,
  empty,
}: {
  caption: string;
  rows: Row[];
  drill: (row: Row) => string;
  csvHref: string;
  /** What to say when there are no rows (./empty-message.ts). */
  empty: string;
}) {
  const max = Math.max(1, ...rows.map((r) => r.cents));
  return (
    <figure className={cn(CARD_CLASS, "min-w-0 p-4")}>
      <figcaption className="mb-2 flex items-baseline justify-between gap-2">
        <span className="font-semibold text-slate-900">{caption}</span>
        <a href={csvHref} className={cn(LINK_CLASS, "text-xs")}>
          Download CSV
        </a>
      </figcaption>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">{empty}</p>
      ) : (
        <DataTable
          label={caption}
          caption={caption}
          hideCaption
          rows={rows}
          rowKey={(row) => row.key || row.label}
          columns={[
            {
              header: "Group",
              // A line of business such as "BUSINESS_OWNERS + COMMERCIAL_AUTO" breaks anywhere at a phone's width.
              className: "wrap-anywhere",
              cell: (row) => (
                <Link href={drill(row)} className={LINK_CLASS}>
                  {row.label}
                </Link>
              ),
            },
            { header: "Won", numeric: true, cell: (row) => formatCount(row.count) },
            { header: "Premium", numeric: true, cell: (row) => formatCents(row.cents) },
            {
              header: "Share",
              hideHeader: true,
              className: "w-1/3",
              cell: (row) => (
                <div
                  aria-hidden="true"
                  className="h-3 rounded bg-brand-600"
                  style={{ width: `${Math.max(1, (row.cents / max) * 100)}%` }}
                />
              ),
            },
          ]}
        />
      )}
    </figure>
  );
}
