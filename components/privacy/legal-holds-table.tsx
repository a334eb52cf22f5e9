import Link from "next/link";
import { DataTable } from "@/components/ui/data-table";
import { EMPTY_STATE_CLASS } from "@/components/ui/empty-state";
import { LINK_CLASS } from "@/components/ui/link-class";
import { formatInstant } from "@/lib/format";
import type { HeldItem } from "@/lib/privacy/legal-holds";

// The standing legal holds: what each keeps, why, who placed it. A hold is placed and lifted on
// the pull's page, where its account is in view.

export function LegalHoldsTable({ holds }: { holds: HeldItem[] }) {
  return (
    <DataTable
      label="Legal holds"
      rows={holds}
      rowKey={(hold) => String(hold.id)}
      rowTestId="legal-hold-row"
      empty={
        <p className={EMPTY_STATE_CLASS}>
          Nothing is on legal hold. Place a hold from a linked account&apos;s page (Legal hold, under the pipeline).
        </p>
      }
      columns={[
        {
          header: "Held",
          cell: (hold) =>
            hold.openPullId ? (
              <Link href={`/pulls/${hold.openPullId}`} className={LINK_CLASS}>
                {hold.name ?? "Linked account"}
              </Link>
            ) : (
              (hold.name ?? "No pull stored")
            ),
        },
        {
          header: "Scope",
          cell: (hold) => (hold.scope === "ACCOUNT" ? "The whole account" : "One pull (and its account)"),
        },
        { header: "Reason", cell: (hold) => hold.reason },
        {
          header: "Placed",
          cell: (hold) => `${formatInstant(hold.placedAt, "en-US", "UTC")} UTC by ${hold.placedByName ?? "someone"}`,
        },
      ]}
    />
  );
}
