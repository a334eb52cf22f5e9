import Link from "next/link";
import { formatCents, formatInstant, humanize } from "@/lib/format";
import type { PullListRow } from "@/lib/pulls/queries";
import { StatusBadge } from "./status-badge";

function displayName(row: PullListRow): string {
  const name = [row.firstName, row.lastName].filter(Boolean).join(" ");
  return name || row.email || "Unnamed account";
}

export function PullTable({ rows }: { rows: PullListRow[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="px-4 py-3">Account holder</th>
            <th scope="col" className="px-4 py-3">Provider</th>
            <th scope="col" className="px-4 py-3">Lines</th>
            <th scope="col" className="px-4 py-3 text-right">Total premium</th>
            <th scope="col" className="px-4 py-3">Status</th>
            <th scope="col" className="px-4 py-3">Linked</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.pullId} className="hover:bg-slate-50" data-testid="pull-row">
              <td className="px-4 py-3">
                <Link href={`/pulls/${row.pullId}`} className="font-medium text-brand-700 hover:underline">
                  {displayName(row)}
                </Link>
                {row.email ? <div className="text-xs text-slate-500">{row.email}</div> : null}
              </td>
              <td className="px-4 py-3">{row.providerFriendlyName ?? row.providerName ?? "—"}</td>
              <td className="px-4 py-3 text-slate-700">{row.policyTypes.length > 0 ? row.policyTypes.map(humanize).join(", ") : "—"}</td>
              <td className="px-4 py-3 text-right tabular-nums">{formatCents(row.totalPremiumCents)}</td>
              <td className="px-4 py-3"><StatusBadge status={row.status} /></td>
              <td className="px-4 py-3 whitespace-nowrap text-slate-700">{formatInstant(row.serviceCreatedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
