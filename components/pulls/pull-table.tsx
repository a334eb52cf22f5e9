import Link from "next/link";
import { formatCalendarDate, formatCents, formatInstant, humanize } from "@/lib/format";
import { pullListHref, type PullListQuery, type PullSort } from "@/lib/pulls/list-query";
import type { PullListRow } from "@/lib/pulls/queries";
import { BULK_FORM_ID, SelectAllRows } from "@/components/workflow/bulk-assign-bar";
import { StatusBadge } from "./status-badge";

// The list of linked accounts: who, which provider and lines, premium, status, stage and
// assignee at a glance. Sortable headers are links, so a sorted view is a URL like any other.

function displayName(row: PullListRow): string {
  const name = [row.firstName, row.lastName].filter(Boolean).join(" ");
  return name || row.email || "Unnamed account";
}

const STAGE_TONES: Record<string, string> = {
  WORKING: "bg-slate-100 text-slate-700",
  WON: "bg-emerald-50 text-emerald-800",
  LOST: "bg-rose-50 text-rose-800",
};

function SortHeader({
  label,
  sort,
  query,
  align = "left",
}: {
  label: string;
  sort: PullSort;
  query: PullListQuery;
  align?: "left" | "right";
}) {
  const current = (query.sort ?? "created") === sort;
  const defaultDir = sort === "name" || sort === "expiry" ? "asc" : "desc";
  const dir = current ? (query.dir ?? defaultDir) : null;
  const next = current ? (dir === "asc" ? "desc" : "asc") : defaultDir;
  return (
    <th
      scope="col"
      className={`px-4 py-3 ${align === "right" ? "text-right" : ""}`}
      aria-sort={dir ? (dir === "asc" ? "ascending" : "descending") : undefined}
    >
      <Link
        href={pullListHref(query, { sort, dir: next, page: undefined })}
        className="inline-flex items-center gap-1 hover:text-brand-700"
      >
        {label}
        <span aria-hidden="true">{dir === "asc" ? "▲" : dir === "desc" ? "▼" : ""}</span>
      </Link>
    </th>
  );
}

/** `selectable`: rows get a checkbox for the bulk-assign form (for those allowed to assign). */
export function PullTable({
  rows,
  query,
  selectable = false,
}: {
  rows: PullListRow[];
  query: PullListQuery;
  selectable?: boolean;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
          <tr>
            {selectable ? (
              <th scope="col" className="w-8 px-3 py-3">
                <SelectAllRows />
              </th>
            ) : null}
            <SortHeader label="Account holder" sort="name" query={query} />
            <th scope="col" className="px-4 py-3">
              Provider
            </th>
            <th scope="col" className="px-4 py-3">
              Lines
            </th>
            <SortHeader label="Total premium" sort="premium" query={query} align="right" />
            <SortHeader label="Next expiry" sort="expiry" query={query} />
            <th scope="col" className="px-4 py-3">
              Status
            </th>
            <th scope="col" className="px-4 py-3">
              Stage
            </th>
            <th scope="col" className="px-4 py-3">
              Assignee
            </th>
            <SortHeader label="Linked" sort="created" query={query} />
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
                    aria-label={`Select ${displayName(row)}`}
                  />
                </td>
              ) : null}
              <td className="px-4 py-3">
                <Link href={`/pulls/${row.pullId}`} className="font-medium text-brand-700 hover:underline">
                  {displayName(row)}
                </Link>
                {row.email ? <div className="text-xs text-slate-500">{row.email}</div> : null}
              </td>
              <td className="px-4 py-3">{row.providerFriendlyName ?? row.providerName ?? "—"}</td>
              <td className="px-4 py-3 text-slate-700">
                {row.policyTypes.length > 0 ? row.policyTypes.map(humanize).join(", ") : "—"}
              </td>
              <td className="px-4 py-3 text-right tabular-nums">{formatCents(row.totalPremiumCents)}</td>
              <td className="px-4 py-3 whitespace-nowrap text-slate-700">{formatCalendarDate(row.nextExpiryDate)}</td>
              <td className="px-4 py-3">
                <StatusBadge status={row.status} />
              </td>
              <td className="px-4 py-3">
                <span
                  className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${STAGE_TONES[row.stage] ?? STAGE_TONES.WORKING}`}
                >
                  {humanize(row.stage)}
                </span>
              </td>
              <td className="px-4 py-3 text-slate-700">
                {row.assigneeName ?? <span className="text-slate-500">Unassigned</span>}
              </td>
              <td className="px-4 py-3 whitespace-nowrap text-slate-700">{formatInstant(row.serviceCreatedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
