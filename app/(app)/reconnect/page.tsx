import type { Metadata } from "next";
import Link from "next/link";
import { CopyLink, RenewLink } from "@/components/monitoring/reconnect-actions";
import { getDb } from "@/db/client";
import { viewScope } from "@/lib/auth/permissions";
import { requirePermission } from "@/lib/auth/session";
import { formatInstant, humanize } from "@/lib/format";
import { listReconnectWorklist } from "@/lib/monitoring/reconnect";

export const metadata: Metadata = { title: "Reconnect" };

const AUTH_STATUS_WORDS: Record<string, string> = {
  NOT_AUTHENTICATED: "Their login changed: they must sign in again",
  IDENTITY_VERIFICATION_OPTIONS: "They must choose how to receive a code",
  IDENTITY_VERIFICATION: "They must enter the code the carrier sent",
};

function age(since: Date): string {
  const days = Math.floor((Date.now() - since.getTime()) / 86_400_000);
  return days <= 0 ? "today" : days === 1 ? "1 day ago" : `${days} days ago`;
}

export default async function ReconnectPage() {
  const user = await requirePermission("pulls:view");
  const items = await listReconnectWorklist(await getDb(), viewScope(user));
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold text-slate-900">Accounts to reconnect</h1>
      <p className="text-sm text-slate-600">Monitored accounts the service could not refresh on its own. Send the consumer the service&apos;s reconnect page; the account refreshes once they are through.</p>
      {items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600" data-testid="reconnect-empty">Every monitored account is connected.</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white" data-testid="reconnect-list">
          {items.map((item) => (
            <li key={item.monitoringId} className="flex flex-col gap-2 p-4 sm:flex-row sm:items-center sm:justify-between">
              <div>
                {item.pullId ? <Link href={`/pulls/${item.pullId}`} className="font-medium text-brand-700 hover:underline">{item.name}</Link> : <span className="font-medium">{item.name}</span>}
                <p className="text-sm text-slate-700">{AUTH_STATUS_WORDS[item.authStatus ?? ""] ?? humanize(item.authStatus ?? "Reconnect needed")}</p>
                <p className="text-xs text-slate-500">Asked {age(item.requestedAt)} ({formatInstant(item.requestedAt)})</p>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                {item.reconnectUrl ? (
                  <>
                    <CopyLink url={item.reconnectUrl} />
                    {item.email ? (
                      <a href={`mailto:${encodeURIComponent(item.email)}?subject=${encodeURIComponent("Please reconnect your insurance account")}&body=${encodeURIComponent(`Your insurance account needs you to sign in again so we can keep your coverage up to date: ${item.reconnectUrl}`)}`} className="rounded-md border border-slate-300 bg-white px-2 py-1 text-xs hover:bg-slate-100">Email it</a>
                    ) : null}
                  </>
                ) : (
                  <span className="text-xs text-slate-500">No link yet</span>
                )}
                <RenewLink monitoringId={item.monitoringId} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
