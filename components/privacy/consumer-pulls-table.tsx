import Link from "next/link";
import { DataTable } from "@/components/ui/data-table";
import { LINK_CLASS } from "@/components/ui/link-class";
import { formatInstant, humanize } from "@/lib/format";
import type { ConsumerPull } from "@/lib/privacy/find-consumer";

// A consumer's pulls on the desk: every linked account of theirs, with the service's own.
export function ConsumerPullsTable({ pulls, label }: { pulls: ConsumerPull[]; label: string }) {
  return (
    <DataTable
      label={label}
      testId="consumer-pulls"
      rowTestId="consumer-pull"
      rows={pulls}
      rowKey={(p) => p.pullId}
      empty="No pull matches."
      columns={[
        {
          header: "Account holder",
          rowHeader: true,
          cell: (p) => (
            <Link href={`/pulls/${p.pullId}`} className={LINK_CLASS}>
              {p.name || "(no name)"}
            </Link>
          ),
        },
        { header: "Carrier", cell: (p) => p.carrier ?? "—" },
        { header: "Status", cell: (p) => humanize(p.status) },
        { header: "Linked", cell: (p) => formatInstant(p.serviceCreatedAt) },
        { header: "Kind", cell: (p) => (p.parentPullId ? "the service's own, under another" : humanize(p.type)) },
      ]}
    />
  );
}
