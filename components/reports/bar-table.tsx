import Link from "next/link";
import { formatCents, formatCount } from "@/lib/format";
import type { Row } from "@/lib/reports/queries";

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
    <figure className="min-w-0 rounded-lg border border-slate-200 bg-white p-4">
      <figcaption className="mb-2 flex items-baseline justify-between gap-2">
        <span className="font-semibold text-slate-900">{caption}</span>
        <a href={csvHref} className="text-xs text-brand-700 hover:underline">
          Download CSV
        </a>
      </figcaption>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">{empty}</p>
      ) : (
        <table className="w-full text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="text-left text-xs text-slate-500 uppercase">
            <tr>
              <th scope="col" className="py-1 pr-2 font-medium">
                Group
              </th>
              <th scope="col" className="py-1 pr-2 text-right font-medium">
                Won
              </th>
              <th scope="col" className="py-1 pr-2 text-right font-medium">
                Premium
              </th>
              <th scope="col" className="w-1/3 py-1 font-medium">
                <span className="sr-only">Share</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key || row.label}>
                {/* A line of business such as "BUSINESS_OWNERS + COMMERCIAL_AUTO" breaks anywhere at a phone's width. */}
                <td className="py-1 pr-2 wrap-anywhere">
                  <Link href={drill(row)} className="text-brand-700 hover:underline">
                    {row.label}
                  </Link>
                </td>
                <td className="py-1 pr-2 text-right tabular-nums">{formatCount(row.count)}</td>
                <td className="py-1 pr-2 text-right tabular-nums">{formatCents(row.cents)}</td>
                <td className="py-1" aria-hidden="true">
                  <div
                    className="h-3 rounded bg-brand-600"
                    style={{ width: `${Math.max(1, (row.cents / max) * 100)}%` }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </figure>
  );
}
