import { LINK_CLASS } from "@/components/ui/link-class";
import Link from "next/link";
import { DataTable, type Column } from "@/components/ui/data-table";
import { formatLimit, humanize } from "@/lib/format";
import { GAP_LABELS, type GapCode } from "@/lib/cross-sell/gaps";
import type { CrossSellRow } from "@/lib/cross-sell/queries";

// The households, the most premium in play first: who they are (linking to their pull), their
// gaps, what they hold and with how many carriers, and the premium a year each gap puts in play.

/** Whole dollars a year: "$1,204/yr". */
const perYear = (cents: number | null) =>
  cents === null ? <span className="text-slate-600">—</span> : `${formatLimit(Math.round(cents / 100) * 100)}/yr`;

export function CrossSellTable({ rows, empty }: { rows: CrossSellRow[]; empty: React.ReactNode }) {
  const columns: Column<CrossSellRow>[] = [
    {
      header: "Household",
      cell: (r) => (
        <Link href={`/pulls/${r.pullId}`} className={LINK_CLASS}>
          {r.holderName || r.email || "Unnamed account"}
        </Link>
      ),
    },
    {
      header: "Gaps",
      cell: (r) =>
        r.gaps.length === 0 ? (
          <span className="text-slate-600">None</span>
        ) : (
          <ul className="flex flex-wrap gap-1">
            {r.gaps.map((code) => (
              <li key={code} className="rounded bg-amber-50 px-1.5 py-0.5 text-xs whitespace-nowrap text-amber-900">
                {GAP_LABELS[code as GapCode] ?? code}
              </li>
            ))}
          </ul>
        ),
    },
    {
      header: "Policies",
      cell: (r) => (
        <span>
          {r.policyCount}
          <span className="block text-xs text-slate-600">{r.lines.map((l) => humanize(l)).join(", ")}</span>
        </span>
      ),
    },
    { header: "Carriers", numeric: true, cell: (r) => r.carrierCount },
    { header: "Premium", numeric: true, cell: (r) => perYear(r.annualPremiumCents) },
    { header: "In play", numeric: true, cell: (r) => perYear(r.premiumInPlayCents) },
    { header: "Stage", cell: (r) => humanize(r.stage) },
    { header: "Agent", cell: (r) => r.assigneeName ?? <span className="text-slate-600">Unassigned</span> },
  ];
  return (
    <DataTable
      label="Households"
      columns={columns}
      rows={rows}
      rowKey={(r) => r.pullId}
      rowTestId="cross-sell-row"
      testId="cross-sell-table"
      empty={empty}
    />
  );
}
