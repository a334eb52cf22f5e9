import type { Metadata } from "next";
import Link from "next/link";
import { PullFilters } from "@/components/pulls/list/pull-filters";
import { PullTable } from "@/components/pulls/pull-table";
import { Pagination } from "@/components/ui/pagination";
import { getDb } from "@/lib/database";
import { BulkAssignBar } from "@/components/workflow/bulk-assign-bar";
import { can, viewScope } from "@/lib/auth/permissions";
import { requirePermission } from "@/lib/auth/session";
import { parsePullListQuery, pullListHref } from "@/lib/pulls/list-query";
import { listPullFilterOptions, listPulls, PULL_PAGE_SIZE } from "@/lib/pulls/queries";
import { listActiveUsers } from "@/lib/users/queries";

export const metadata: Metadata = { title: "Linked accounts" };

const FILTER_KEYS = ["q", "status", "type", "carrier", "policyType", "stage", "assignee", "monitored", "archived", "from", "to", "expiring", "link", "lines", "wonBy", "wonFrom", "wonTo"] as const;

export default async function PullsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePermission("pulls:view");
  const { query, ignored } = parsePullListQuery(await searchParams);
  const db = await getDb();
  const canAssign = can(user, "pulls:assign");
  const [{ rows, total }, options, people] = await Promise.all([listPulls(db, viewScope(user), query), listPullFilterOptions(db, viewScope(user)), canAssign ? listActiveUsers(db) : []]);
  const page = query.page ?? 1;
  const pageCount = Math.max(1, Math.ceil(total / PULL_PAGE_SIZE));
  const filtered = FILTER_KEYS.some((key) => query[key] !== undefined);
  const pageQuery = Object.fromEntries(Object.entries(query).filter(([key]) => key !== "page").map(([key, value]) => [key, String(value)]));

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold text-slate-900">Linked accounts</h1>
        <div className="flex items-baseline gap-4">
        <a href={`/api/pulls/csv${pullListHref(query, { page: undefined }).replace(/^\/pulls/, "")}`} className="text-sm text-brand-700 hover:underline">Download CSV</a>
        <p className="text-sm text-slate-600" data-testid="pull-count" aria-live="polite">
          {total === 1 ? "1 linked account" : `${total.toLocaleString("en-US")} linked accounts`}
          {filtered ? " match" : ""}
        </p>
        </div>
      </div>
      <PullFilters query={query} options={options} />
      {ignored.length > 0 ? (
        <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
          Some of the link&apos;s filters could not be read and were left out: {ignored.join(", ")}.
        </p>
      ) : null}
      {rows.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white p-10 text-center text-slate-600" data-testid="pulls-empty">
          <p className="font-medium">{filtered ? "No linked accounts match these filters." : total === 0 ? "No linked accounts yet." : "Nothing on this page."}</p>
          <p className="mt-1 text-sm">
            {filtered ? (
              <Link href="/pulls" className="text-brand-700 hover:underline">Clear the filters</Link>
            ) : total === 0 ? (
              "Accounts appear here as soon as a consumer links one and the service tells us."
            ) : (
              <Link href={pullListHref(query, { page: undefined })} className="text-brand-700 hover:underline">Go to the first page</Link>
            )}
          </p>
        </div>
      ) : (
        <>
          {canAssign ? <BulkAssignBar people={people} /> : null}
          <PullTable rows={rows} query={query} selectable={canAssign} />
        </>
      )}
      <Pagination page={page} pageCount={pageCount} basePath="/pulls" query={pageQuery} />
    </div>
  );
}
