import Link from "next/link";
import { DataTable } from "@/components/ui/data-table";
import { LINK_CLASS } from "@/components/ui/link-class";
import { formatCalendarDate } from "@/lib/format";
import type { RequestWithClock } from "@/lib/loaders/privacy";
import { RequestClock } from "./request-clock";

const KIND_WORDS = { ACCESS: "Access (a copy)", ERASURE: "Erasure" } as Record<string, string>;

// The desk's requests: open ones first, the nearest due day first, each with its clock.
export function PrivacyRequestsTable({ requests }: { requests: RequestWithClock[] }) {
  return (
    <DataTable
      label="Consumer requests"
      testId="privacy-requests"
      rowTestId="privacy-request"
      rows={requests}
      rowKey={(r) => r.id}
      rowData={(r) => ({ "data-kind": r.kind, "data-status": r.status })}
      empty="No requests yet. Search for a consumer above to open one."
      columns={[
        {
          header: "Request",
          rowHeader: true,
          cell: (r) => (
            <Link href={`/admin/privacy/${r.id}`} className={LINK_CLASS}>
              {KIND_WORDS[r.kind] ?? r.kind}
              {r.reference ? ` · ${r.reference}` : ""}
            </Link>
          ),
        },
        { header: "Received", cell: (r) => formatCalendarDate(r.receivedOn) },
        { header: "Due", cell: (r) => formatCalendarDate(r.dueOn) },
        { header: "Clock", cell: (r) => <RequestClock daysLeft={r.daysLeft} />, testId: "request-clock" },
        {
          header: "The service",
          cell: (r) =>
            r.kind !== "ERASURE" || r.status !== "DONE" ? "—" : r.serviceToldAt ? "Told" : "Still to be told",
        },
      ]}
    />
  );
}
