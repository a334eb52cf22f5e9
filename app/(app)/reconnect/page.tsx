import { LINK_CLASS } from "@/components/ui/link-class";
import { EMPTY_STATE_CLASS } from "@/components/ui/empty-state";
import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import type { Metadata } from "next";
import Link from "next/link";
import { CoverdeskPageLink } from "@/components/monitoring/coverdesk-page-link";
import { CopyLink, EmailLink, RenewLink } from "@/components/monitoring/reconnect-actions";
import { getDb } from "@/lib/database";
import { requirePermission } from "@/lib/auth/session";
import { Pagination } from "@/components/ui/pagination";
import { RelativeTime } from "@/components/ui/relative-time";
import { humanize } from "@/lib/format";
import { loadReconnectWorklistPage } from "@/lib/loaders/reconnect-worklist";
import { openReconnectPageAction, renewReconnectLinkAction, revokeReconnectPageAction } from "./actions";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Reconnect" };

const AUTH_STATUS_WORDS: Record<string, string> = {
  NOT_AUTHENTICATED: "Their login changed: they must sign in again",
  IDENTITY_VERIFICATION_OPTIONS: "They must choose how to receive a code",
  IDENTITY_VERIFICATION: "They must enter the code the carrier sent",
};

export default async function ReconnectPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [user, params, db] = await Promise.all([requirePermission("pulls:view"), searchParams, getDb()]);
  const { items, total, page, pageCount, ignored } = await loadReconnectWorklistPage(db, user, params);
  return (
    <div className="space-y-4">
      <PageHeader title="Accounts to reconnect">
        {total > 0 ? (
          <p className="text-sm text-slate-600" data-testid="reconnect-count">
            {total === 1 ? "1 account" : `${total.toLocaleString("en-US")} accounts`}
          </p>
        ) : null}
      </PageHeader>
      <p className="text-sm text-slate-600">
        Monitored accounts the service could not refresh on its own. Send the consumer the service&apos;s reconnect
        page, or a page Coverdesk hosts (it follows their login step by step and expires after 7 days); the account
        refreshes once they are through.
      </p>
      {ignored.length > 0 ? (
        <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
          Some of the link&apos;s parameters could not be read and were left out: {ignored.join(", ")}.
        </p>
      ) : null}
      {total > 0 && items.length === 0 ? (
        <p className={EMPTY_STATE_CLASS} data-testid="reconnect-empty">
          Nothing on this page.{" "}
          <Link href="/reconnect" className={LINK_CLASS}>
            Go to the first page
          </Link>
        </p>
      ) : items.length === 0 ? (
        <p className={EMPTY_STATE_CLASS} data-testid="reconnect-empty">
          Every monitored account is connected. When the service cannot refresh one on its own (a changed password, a
          new security question), it appears here with what to send the consumer.
        </p>
      ) : (
        <ul className={cn(CARD_CLASS, "divide-y divide-slate-100")} data-testid="reconnect-list">
          {items.map((item) => (
            <li
              key={item.monitoringId}
              data-monitoring-id={item.monitoringId}
              className="flex flex-col gap-2 p-4 sm:flex-row sm:items-center sm:justify-between"
            >
              <div>
                {item.pullId ? (
                  <Link href={`/pulls/${item.pullId}`} className={cn(LINK_CLASS, "font-medium")}>
                    {item.name}
                  </Link>
                ) : (
                  <span className="font-medium">{item.name}</span>
                )}
                <p className="text-sm text-slate-700">
                  {AUTH_STATUS_WORDS[item.authStatus ?? ""] ?? humanize(item.authStatus ?? "Reconnect needed")}
                </p>
                <p className="text-xs text-slate-500">
                  Asked <RelativeTime iso={item.requestedAt.toISOString()} />
                </p>
              </div>
              <div className="flex flex-col gap-2 text-xs sm:items-end">
                <div className="flex flex-wrap items-center gap-2" data-testid="service-page">
                  <span className="text-slate-500">Service&apos;s page:</span>
                  {item.reconnectUrl ? (
                    <>
                      <CopyLink url={item.reconnectUrl} />
                      {item.email ? <EmailLink email={item.email} url={item.reconnectUrl} /> : null}
                    </>
                  ) : (
                    <span className="text-slate-500">No link yet</span>
                  )}
                  <RenewLink monitoringId={item.monitoringId} action={renewReconnectLinkAction} />
                </div>
                <div className="flex flex-wrap items-center gap-2" data-testid="coverdesk-page">
                  <span className="text-slate-500">Coverdesk page:</span>
                  <CoverdeskPageLink
                    url={item.coverdeskPageUrl}
                    email={item.email}
                    monitoringId={item.monitoringId}
                    open={openReconnectPageAction}
                    revoke={revokeReconnectPageAction}
                  />
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} pageCount={pageCount} basePath="/reconnect" />
    </div>
  );
}
