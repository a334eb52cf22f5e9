import { LINK_CLASS } from "@/components/ui/link-class";
import { cn } from "@/components/ui/class-names";
import { EMPTY_STATE_CLASS } from "@/components/ui/empty-state";
import type { Metadata } from "next";
import Link from "next/link";
import { PullFilters } from "@/components/pulls/list/pull-filters";
import { PullTable } from "@/components/pulls/pull-table";
import { Pagination } from "@/components/ui/pagination";
import { getDb } from "@/lib/database";
import { BulkAssignBar } from "@/components/workflow/bulk-assign-bar";
import { requirePermission } from "@/lib/auth/session";
import { pullListHref } from "@/lib/pulls/list-query";
import { loadPullListPage } from "@/lib/loaders/pull-list";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Linked accounts" };

export default async function PullsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [user, params, db] = await Promise.all([requirePermission("pulls:view"), searchParams, getDb()]);
  const list = await loadPullListPage(db, user, params);
  const { query, ignored, rows, total, capped, filtered, options, people, canAssign } = list;

  return (
    <div className="space-y-4">
      <PageHeader title="Linked accounts">
        <div className="flex items-baseline gap-4">
          <a
            href={`/api/pulls/csv${pullListHref(query, { page: undefined }).replace(/^\/pulls/, "")}`}
            className={cn(LINK_CLASS, "text-sm")}
          >
            Download CSV
          </a>
          <p className="text-sm text-slate-600" data-testid="pull-count" aria-live="polite">
            {total === 1 && !capped
              ? "1 linked account"
              : `${total.toLocaleString("en-US")}${capped ? "+" : ""} linked accounts`}
            {filtered ? " match" : ""}
          </p>
        </div>
      </PageHeader>
      <PullFilters query={query} options={options} />
      {ignored.length > 0 ? (
        <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
          Some of the link&apos;s filters could not be read and were left out: {ignored.join(", ")}.
        </p>
      ) : null}
      {rows.length === 0 ? (
        <div className={EMPTY_STATE_CLASS} data-testid="pulls-empty">
          <p className="font-medium">
            {filtered
              ? "No linked accounts match these filters."
              : total === 0
                ? "No linked accounts yet."
                : "Nothing on this page."}
          </p>
          <p className="mt-1 text-sm">
            {filtered ? (
              <Link href="/pulls" className={LINK_CLASS}>
                Clear the filters
              </Link>
            ) : total === 0 ? (
              "Accounts appear here as soon as a consumer links one and the service tells us."
            ) : (
              <Link href={pullListHref(query, { page: undefined })} className={LINK_CLASS}>
                Go to the first page
              </Link>
            )}
          </p>
        </div>
      ) : (
        <>
          {canAssign ? <BulkAssignBar people={people} /> : null}
          <PullTable rows={rows} query={query} selectable={canAssign} />
        </>
      )}
      <Pagination
        page={list.page}
        pageCount={list.pageCount}
        more={list.morePages}
        basePath="/pulls"
        query={list.pageQuery}
      />
    </div>
  );
}
