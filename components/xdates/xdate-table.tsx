import { LINK_CLASS } from "@/components/ui/link-class";
import Link from "next/link";
import { DataTable, type Column } from "@/components/ui/data-table";
import { formatCalendarDate, humanize } from "@/lib/format";
import { BASIS_WORDS, daysAway, type XDateBasis } from "@/lib/xdates/derive";
import type { XDateListRow } from "@/lib/xdates/queries";
import { personName } from "@/lib/xdates/words";
import { dollars } from "./xdate-calendar";

// The X-dates as a list, soonest first: the date as people write it and how far it is, how it
// was derived (an estimate says so), the account, the policy and the premium at stake.

function basisBadge(row: XDateListRow) {
  const words = row.basis ? (BASIS_WORDS[row.basis as XDateBasis] ?? row.basis) : null;
  if (!words) return null;
  const estimated = row.basis === "ESTIMATED";
  return (
    <span
      title={row.note}
      className={`ml-1 rounded px-1 py-0.5 text-xs ${estimated ? "bg-amber-50 text-amber-800" : "bg-slate-100 text-slate-600"}`}
    >
      {words}
    </span>
  );
}

export function XDateTable({ rows, today, empty }: { rows: XDateListRow[]; today: string; empty: React.ReactNode }) {
  const columns: Column<XDateListRow>[] = [
    {
      header: "X-date",
      cell: (r) => (
        <span className="whitespace-nowrap">
          <span className="font-medium text-slate-900">{formatCalendarDate(r.xDate)}</span>
          {basisBadge(r)}
          <span className="block text-xs text-slate-600">{daysAway(r.xDate, today)}</span>
        </span>
      ),
    },
    {
      header: "Account",
      cell: (r) => (
        <Link href={`/pulls/${r.pullId}`} className={LINK_CLASS}>
          {personName(r)}
        </Link>
      ),
    },
    {
      header: "Policy",
      cell: (r) => (
        <span>
          {r.carrierLabel ?? "Unknown carrier"} {humanize(r.policyType).toLowerCase()}
          {r.carrierPolicyNumber ? <span className="block text-xs text-slate-600">{r.carrierPolicyNumber}</span> : null}
        </span>
      ),
    },
    {
      header: "Premium at stake",
      numeric: true,
      cell: (r) =>
        r.annualPremiumCents === null ? (
          <span className="text-slate-600">not stated</span>
        ) : (
          `${dollars(r.annualPremiumCents)}/yr`
        ),
    },
    { header: "Stage", cell: (r) => humanize(r.stage) },
    { header: "Agent", cell: (r) => r.assigneeName ?? <span className="text-slate-600">Unassigned</span> },
    { header: "Link", cell: (r) => r.publicAlias ?? <span className="text-slate-600">—</span> },
  ];
  return (
    <DataTable
      label="X-dates"
      columns={columns}
      rows={rows}
      rowKey={(r) => `${r.pullId}-${r.policyId}`}
      rowTestId="xdate-row"
      testId="xdate-table"
      empty={empty}
    />
  );
}
