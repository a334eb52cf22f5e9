import { LINK_CLASS } from "@/components/ui/link-class";
import { cn } from "@/components/ui/class-names";
import Link from "next/link";
import { formatCalendarDate, formatCents } from "@/lib/format";
import type { CameBackRow } from "@/lib/workflow/came-back";
import { dealReturnKindLabel } from "@/lib/workflow/deal-return-words";
import { lostSummary } from "@/lib/workflow/lost-reasons";
import { Card } from "@/components/ui/card";

// "Came back" on My pulls: deals that returned on their own (a lost deal whose X-date nears, a
// won client a refresh shows gone), each with why it was lost and what it cost then and now.

const nameOf = (row: CameBackRow) =>
  [row.firstName, row.lastName].filter(Boolean).join(" ") || row.email || "Unnamed account";

function Fact({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs tracking-wide text-slate-500 uppercase">{term}</dt>
      <dd className="tabular-nums">{children}</dd>
    </div>
  );
}

export function CameBack({ rows }: { rows: CameBackRow[] }) {
  return (
    <Card aria-labelledby="came-back-title" data-testid="came-back">
      <h2 id="came-back-title" className="mb-2 font-semibold text-slate-900">
        Came back{" "}
        <span className="ml-1 rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">{rows.length}</span>
      </h2>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-500" data-testid="came-back-empty">
          Nothing has come back. A lost deal returns here, back to Working, when its X-date comes within the
          agency&apos;s lead time; a won client returns when a refresh shows the policy cancelled or moved to another
          carrier.
        </p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm">
          {rows.map((row) => (
            <li key={row.id} className="space-y-2 py-3" data-testid="came-back-row">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <Link href={`/pulls/${row.pullId}`} className={cn(LINK_CLASS, "font-medium")}>
                  {nameOf(row)}
                </Link>
                <span className="rounded-full bg-amber-50 px-2 py-0.5 text-xs text-amber-800">
                  {dealReturnKindLabel(row.kind)}
                </span>
              </div>
              <p className="text-slate-800">{row.headline}</p>
              <dl className="grid grid-cols-2 gap-2 sm:grid-cols-5">
                <Fact term={row.kind === "WIN_BACK" ? "What happened" : "Why lost"}>
                  {lostSummary({ ...row, lostToPremiumCents: null }) ??
                    (row.kind === "WIN_BACK" ? "Policy gone at a refresh" : "Not said")}
                </Fact>
                <Fact term={row.kind === "WIN_BACK" ? "Won at" : "Premium then"}>
                  {formatCents(row.premiumThenCents)}
                </Fact>
                <Fact term="Renewal premium">
                  {row.renewalPremiumCents === null ? "Not seen yet" : formatCents(row.renewalPremiumCents)}
                </Fact>
                <Fact term={row.kind === "WIN_BACK" ? "Seen on" : "X-date"}>{formatCalendarDate(row.xDate)}</Fact>
                <Fact term="Owner">{row.assigneeName ?? "Unassigned queue"}</Fact>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
