import { LINK_CLASS } from "@/components/ui/link-class";
import Link from "next/link";
import { StatusBadge } from "@/components/pulls/status-badge";
import { DataTable } from "@/components/ui/data-table";
import { RelativeTime } from "@/components/ui/relative-time";
import { humanize } from "@/lib/format";
import type { InboxRow } from "@/lib/ingest/inbox";
import { Button } from "@/components/ui/button";

// The inbox, newest first. Payloads are shown as text inside <pre>: React escapes them, so a
// hostile body is displayed, never run.

const MAX_PAYLOAD_CHARS = 20_000;

function payloadText(payload: unknown): string {
  const text = JSON.stringify(payload, null, 2) ?? "";
  return text.length > MAX_PAYLOAD_CHARS ? `${text.slice(0, MAX_PAYLOAD_CHARS)}\n… (cut)` : text;
}

/** `retry` is the page's server action for one event (a plain form: it posts `eventId`). */
export function InboxTable({
  rows,
  canRetry,
  retry,
}: {
  rows: InboxRow[];
  canRetry: boolean;
  retry: (formData: FormData) => Promise<void>;
}) {
  return (
    <DataTable
      label="Events"
      rows={rows}
      rowKey={(row) => String(row.id)}
      rowTestId="inbox-row"
      columns={[
        {
          header: "Event",
          cell: (row) => (
            <details>
              <summary className="cursor-pointer font-medium text-slate-900">
                {humanize(row.eventType)} <span className="text-xs text-slate-500">#{row.id}</span>
              </summary>
              <pre className="mt-2 max-h-80 max-w-xl overflow-auto rounded bg-slate-50 p-2 text-xs text-slate-700">
                {payloadText(row.payload)}
              </pre>
            </details>
          ),
        },
        {
          header: "Pull",
          className: "font-mono text-xs",
          cell: (row) =>
            row.pullId ? (
              <Link href={`/pulls/${row.pullId}`} className={LINK_CLASS}>
                {row.pullId.slice(0, 8)}…
              </Link>
            ) : (
              "—"
            ),
        },
        { header: "Status", cell: (row) => <StatusBadge status={row.status} /> },
        { header: "Attempts", numeric: true, cell: (row) => row.attempts },
        {
          header: "Received",
          className: "whitespace-nowrap text-slate-600",
          cell: (row) => <RelativeTime iso={row.receivedAt.toISOString()} />,
        },
        { header: "Last error", className: "max-w-xs text-red-700", cell: (row) => row.lastError ?? "" },
        {
          header: "Actions",
          hideHeader: true,
          cell: (row) =>
            canRetry && row.status === "FAILED" ? (
              <form action={retry}>
                <input type="hidden" name="eventId" value={row.id} />
                <Button type="submit" variant="secondary" size="sm">
                  Retry
                </Button>
              </form>
            ) : null,
        },
      ]}
    />
  );
}
