import { LINK_CLASS } from "@/components/ui/link-class";
import { EMPTY_STATE_CLASS } from "@/components/ui/empty-state";
import type { Metadata } from "next";
import Link from "next/link";
import { InboxTable } from "@/components/events/inbox-table";
import { SyncPanel } from "@/components/events/sync-panel";
import { QueryProvider } from "@/components/providers/query-provider";
import { Pagination } from "@/components/ui/pagination";
import { getDb } from "@/lib/database";
import { requirePermission } from "@/lib/auth/session";
import { formatInstant, humanize } from "@/lib/format";
import { loadEventsPage } from "@/lib/loaders/events";
import { retryAllFailedAction, retryEventAction, startSyncAction } from "./actions";
import { Button } from "@/components/ui/button";
import { FilterField, FilterForm } from "@/components/ui/filter-form";
import { FilterSelect } from "@/components/ui/filter-select";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Events" };

export default async function EventsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePermission("events:view");
  const {
    filter,
    badPull,
    rows,
    total,
    pageCount,
    query,
    statuses,
    counts,
    types,
    run,
    rateLimited,
    canRetry,
    canSync,
    unsigned,
  } = await loadEventsPage(await getDb(), user, await searchParams);

  return (
    <div className="space-y-4">
      <PageHeader title="Events">
        <p className="text-sm text-slate-600">Webhooks received from the service, and what became of them.</p>
      </PageHeader>

      {unsigned ? (
        <p
          role="alert"
          data-testid="unsigned-webhooks-warning"
          className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          <strong>Webhooks are not checked.</strong> This is not production and no <code>SERVICE_WEBHOOK_SECRET</code>{" "}
          is set, so this instance accepts deliveries without checking their signature: anyone who finds the webhook
          address could post events. Fine for the local sandbox; production checks every signature against the secrets
          the service lists for the team&apos;s webhooks.
        </p>
      ) : null}

      {rateLimited ? (
        <p
          role="status"
          data-testid="rate-limited-notice"
          className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          <strong>The service is rate-limiting Coverdesk:</strong> {rateLimited.waiting.toLocaleString("en-US")}{" "}
          {rateLimited.waiting === 1 ? "event waits" : "events wait"} until{" "}
          <time dateTime={rateLimited.until}>{formatInstant(rateLimited.until, "en-US", "UTC")} UTC</time>. Nothing is
          lost: they are fetched once the limit ends, and none is failed for it.
        </p>
      ) : null}

      <ul className="flex flex-wrap gap-2 text-sm" aria-label="Events by status" data-testid="inbox-counts">
        {statuses.map((status) => (
          <li key={status}>
            <Link
              href={filter.status === status ? "/events" : `/events?status=${status}`}
              aria-current={filter.status === status ? "true" : undefined}
              className={`inline-flex items-center gap-2 rounded-md border px-3 py-1.5 ${filter.status === status ? "border-brand-600 bg-brand-50" : "border-slate-200 bg-white hover:bg-slate-50"} ${status === "FAILED" && counts.FAILED > 0 ? "text-red-700" : "text-slate-700"}`}
            >
              {humanize(status)}{" "}
              <span className="font-semibold tabular-nums" data-testid={`count-${status}`}>
                {counts[status].toLocaleString("en-US")}
              </span>
            </Link>
          </li>
        ))}
      </ul>

      <QueryProvider>
        <SyncPanel initialRun={run} canRun={canSync} startSync={startSyncAction} />
      </QueryProvider>

      <div className="flex flex-wrap items-end justify-between gap-3">
        <FilterForm label="Filter events" clearHref={filter.status || filter.type || filter.pull ? "/events" : null}>
          <FilterSelect
            name="status"
            label="Status"
            value={filter.status}
            options={statuses.map((s) => ({ value: s, label: humanize(s) }))}
          />
          <FilterSelect
            name="type"
            label="Type"
            value={filter.type}
            options={types.map((t) => ({ value: t, label: humanize(t) }))}
          />
          <FilterField label="Pull id">
            <Input
              name="pull"
              defaultValue={filter.pull ?? ""}
              placeholder="00000000-0000-…"
              className="w-72 font-mono"
            />
          </FilterField>
        </FilterForm>
        {canRetry && counts.FAILED > 0 ? (
          <form action={retryAllFailedAction}>
            <Button type="submit" variant="danger">
              Retry all {counts.FAILED} failed
            </Button>
          </form>
        ) : null}
      </div>

      {badPull ? (
        <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
          “{badPull.slice(0, 80)}” is not a pull id (they look like 5f0c3c55-6d2a-4c8e-9a55-2d8f1b7c9e01), so it was
          left out of the filter.
        </p>
      ) : null}

      {rows.length === 0 ? (
        <div className={EMPTY_STATE_CLASS}>
          {total === 0 && !filter.status && !filter.type && !filter.pull ? (
            <>
              <p className="font-medium">No webhooks have arrived yet.</p>
              <p className="mt-1 text-sm">
                The service sends one each time a consumer links an account through one of the agency&apos;s links. If
                accounts are linked but nothing arrives, check the webhook on the{" "}
                <Link href="/admin/service" className={LINK_CLASS}>
                  service connection
                </Link>{" "}
                page.
              </p>
            </>
          ) : (
            <>
              <p className="font-medium">No events match these filters.</p>
              <p className="mt-1 text-sm">
                <Link href="/events" className={LINK_CLASS}>
                  Clear the filters
                </Link>
              </p>
            </>
          )}
        </div>
      ) : (
        <InboxTable rows={rows} canRetry={canRetry} retry={retryEventAction} />
      )}
      <Pagination page={filter.page} pageCount={pageCount} basePath="/events" query={query} />
    </div>
  );
}
