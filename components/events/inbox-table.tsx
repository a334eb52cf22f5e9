import Link from "next/link";
import { StatusBadge } from "@/components/pulls/status-badge";
import { formatInstant, humanize } from "@/lib/format";
import type { InboxRow } from "@/lib/ingest/inbox";

// The inbox, newest first. Payloads are shown as text inside <pre>: React escapes them, so a
// hostile body is displayed, never run.

const MAX_PAYLOAD_CHARS = 20_000;

function payloadText(payload: unknown): string {
  const text = JSON.stringify(payload, null, 2) ?? "";
  return text.length > MAX_PAYLOAD_CHARS ? `${text.slice(0, MAX_PAYLOAD_CHARS)}\n… (cut)` : text;
}

/** `retry` is the page's server action for one event (a plain form: it posts `eventId`). */
export function InboxTable({ rows, canRetry, retry }: { rows: InboxRow[]; canRetry: boolean; retry: (formData: FormData) => Promise<void> }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2">Event</th>
            <th scope="col" className="px-3 py-2">Pull</th>
            <th scope="col" className="px-3 py-2">Status</th>
            <th scope="col" className="px-3 py-2 text-right">Attempts</th>
            <th scope="col" className="px-3 py-2">Received</th>
            <th scope="col" className="px-3 py-2">Last error</th>
            <th scope="col" className="px-3 py-2"><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.id} className="align-top" data-testid="inbox-row">
              <td className="px-3 py-2">
                <details>
                  <summary className="cursor-pointer font-medium text-slate-900">{humanize(row.eventType)} <span className="text-xs text-slate-500">#{row.id}</span></summary>
                  <pre className="mt-2 max-h-80 max-w-xl overflow-auto rounded bg-slate-50 p-2 text-xs text-slate-700">{payloadText(row.payload)}</pre>
                </details>
              </td>
              <td className="px-3 py-2 font-mono text-xs">
                {row.pullId ? <Link href={`/pulls/${row.pullId}`} className="text-brand-700 hover:underline">{row.pullId.slice(0, 8)}…</Link> : "—"}
              </td>
              <td className="px-3 py-2"><StatusBadge status={row.status} /></td>
              <td className="px-3 py-2 text-right tabular-nums">{row.attempts}</td>
              <td className="px-3 py-2 whitespace-nowrap text-slate-600">{formatInstant(row.receivedAt)}</td>
              <td className="max-w-xs px-3 py-2 break-words text-red-700">{row.lastError ?? ""}</td>
              <td className="px-3 py-2">
                {canRetry && row.status === "FAILED" ? (
                  <form action={retry}>
                    <input type="hidden" name="eventId" value={row.id} />
                    <button type="submit" className="rounded-md border border-slate-300 px-2 py-1 text-xs hover:bg-slate-100">Retry</button>
                  </form>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
