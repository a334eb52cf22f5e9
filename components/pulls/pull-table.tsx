import { DASH, formatCalendarDate, formatCents, humanize } from "@/lib/format";
import { pullListHref, type PullListQuery, type PullSort } from "@/lib/pulls/list-query";
import type { PullListRow } from "@/lib/pulls/queries";
import { CONTACT_ME_TYPE, isReadingType, pullTypeLabel } from "@/lib/pulls/pull-types";
import { PullTableView, type PullTableHeader, type PullTableRow } from "./pull-table-view";

// The list of linked accounts: who, which provider and lines, premium, status, stage and
// assignee at a glance. Every value is put into words here, on the server; the table itself
// (pull-table-view.tsx) only lays them out. Sortable headers are links, so a sorted view is a
// URL like any other.

function displayName(row: PullListRow): string {
  const name = [row.firstName, row.lastName].filter(Boolean).join(" ");
  return name || row.email || "Unnamed account";
}

export function toPullTableRow(row: PullListRow): PullTableRow {
  return {
    pullId: row.pullId,
    name: displayName(row),
    email: row.email,
    // A lead who asked to be contacted is reached by phone as often as by email.
    phone: row.type === CONTACT_ME_TYPE ? row.phone : null,
    kind: isReadingType(row.type) ? null : pullTypeLabel(row.type),
    provider: row.providerFriendlyName ?? row.providerName ?? DASH,
    lines: row.policyTypes.length > 0 ? row.policyTypes.map(humanize).join(", ") : DASH,
    premium: formatCents(row.totalPremiumCents),
    expiry: formatCalendarDate(row.nextExpiryDate),
    status: row.status,
    stage: row.stage,
    stageLabel: humanize(row.stage),
    assignee: row.assigneeName,
    linkedAt: row.serviceCreatedAt?.toISOString() ?? null,
  };
}

function sortHeader(label: string, sort: PullSort, query: PullListQuery, align?: "right"): PullTableHeader {
  const current = (query.sort ?? "created") === sort;
  const defaultDir = sort === "name" || sort === "expiry" ? "asc" : "desc";
  const dir = current ? (query.dir ?? defaultDir) : null;
  const next = current ? (dir === "asc" ? "desc" : "asc") : defaultDir;
  return { label, align, sort: { href: pullListHref(query, { sort, dir: next, page: undefined }), dir } };
}

export function pullTableHeaders(query: PullListQuery): PullTableHeader[] {
  return [
    sortHeader("Account holder", "name", query),
    { label: "Provider" },
    { label: "Lines" },
    sortHeader("Total premium", "premium", query, "right"),
    sortHeader("Next expiry", "expiry", query),
    { label: "Status" },
    { label: "Stage" },
    { label: "Assignee" },
    sortHeader("Linked", "created", query),
  ];
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
  return <PullTableView headers={pullTableHeaders(query)} rows={rows.map(toPullTableRow)} selectable={selectable} />;
}
