"use client";

import { LINK_CLASS } from "@/components/ui/link-class";
import { cn } from "@/components/ui/class-names";
import Link from "next/link";
import { RelativeTime } from "@/components/ui/relative-time";
import { BULK_FORM_ID, SelectAllRows } from "@/components/workflow/bulk-assign-bar";
import { StatusBadge } from "./status-badge";
import { Card } from "@/components/ui/card";

// The list's table, drawn from rows the server has already formatted (components/pulls/pull-table.tsx).
// It is a client component for the size of the page, not for interactivity: React's server
// renderer splits an element tree larger than about 3 kB into separate chunks that the HTML
// renderer must wait for one by one, so fifty rows of server-rendered cells became some sixty
// out-of-order segments, each with its own script. Plain strings cross that boundary as one
// small chunk, and this component draws the same markup from them.

/** One row, every value already in words: nothing here formats, so server and browser agree. */
export type PullTableRow = {
  pullId: string;
  name: string;
  email: string | null;
  /** Shown for a contact request (a new lead) only. */
  phone: string | null;
  /** The pull's type in words when it is not a linked account's reading ("Contact request (new lead)"). */
  kind: string | null;
  provider: string;
  lines: string;
  premium: string;
  expiry: string;
  status: string;
  stage: string;
  stageLabel: string;
  assignee: string | null;
  /** When the consumer linked the account (ISO), shown as how long ago. */
  linkedAt: string | null;
};

/** A column header: sortable ones carry the link that sorts by them and the current direction. */
export type PullTableHeader = {
  label: string;
  align?: "right";
  sort?: { href: string; dir: "asc" | "desc" | null };
};

const STAGE_TONES: Record<string, string> = {
  WORKING: "bg-slate-100 text-slate-700",
  WON: "bg-emerald-50 text-emerald-800",
  LOST: "bg-rose-50 text-rose-800",
};

function HeaderCell({ header }: { header: PullTableHeader }) {
  const { label, align, sort } = header;
  const className = `px-4 py-3 ${align === "right" ? "text-right" : ""}`;
  if (!sort)
    return (
      <th scope="col" className={className}>
        {label}
      </th>
    );
  return (
    <th
      scope="col"
      className={className}
      aria-sort={sort.dir ? (sort.dir === "asc" ? "ascending" : "descending") : undefined}
    >
      <Link href={sort.href} className="inline-flex items-center gap-1 hover:text-brand-700">
        {label}
        <span aria-hidden="true">{sort.dir === "asc" ? "▲" : sort.dir === "desc" ? "▼" : ""}</span>
      </Link>
    </th>
  );
}

/** `selectable`: rows get a checkbox for the bulk-assign form (for those allowed to assign). */
export function PullTableView({
  headers,
  rows,
  selectable,
}: {
  headers: PullTableHeader[];
  rows: PullTableRow[];
  selectable: boolean;
}) {
  return (
    <Card as="div" padded={false} className="overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
          <tr>
            {selectable ? (
              <th scope="col" className="w-8 px-3 py-3">
                <SelectAllRows />
              </th>
            ) : null}
            {headers.map((header) => (
              <HeaderCell key={header.label} header={header} />
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.pullId} className="hover:bg-slate-50" data-testid="pull-row">
              {selectable ? (
                <td className="px-3 py-3">
                  <input
                    type="checkbox"
                    name="pullIds"
                    value={row.pullId}
                    form={BULK_FORM_ID}
                    aria-label={`Select ${row.name}`}
                  />
                </td>
              ) : null}
              <td className="px-4 py-3">
                <Link href={`/pulls/${row.pullId}`} className={cn(LINK_CLASS, "font-medium")}>
                  {row.name}
                </Link>
                {row.kind ? (
                  <div className="text-xs font-medium text-sky-800" data-testid="pull-kind">
                    {row.kind}
                  </div>
                ) : null}
                {row.email ? <div className="text-xs text-slate-500">{row.email}</div> : null}
                {row.phone ? <div className="text-xs text-slate-500">{row.phone}</div> : null}
              </td>
              <td className="px-4 py-3">{row.provider}</td>
              <td className="px-4 py-3 text-slate-700">{row.lines}</td>
              <td className="px-4 py-3 text-right tabular-nums">{row.premium}</td>
              <td className="px-4 py-3 whitespace-nowrap text-slate-700">{row.expiry}</td>
              <td className="px-4 py-3">
                <StatusBadge status={row.status} />
              </td>
              <td className="px-4 py-3">
                <span
                  className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${STAGE_TONES[row.stage] ?? STAGE_TONES.WORKING}`}
                >
                  {row.stageLabel}
                </span>
              </td>
              <td className="px-4 py-3 text-slate-700">
                {row.assignee ?? <span className="text-slate-500">Unassigned</span>}
              </td>
              <td className="px-4 py-3 whitespace-nowrap text-slate-700">
                <RelativeTime iso={row.linkedAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
