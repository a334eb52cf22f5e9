import Link from "next/link";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import { LINK_CLASS } from "@/components/ui/link-class";
import type { AttentionRow } from "@/lib/workflow/my-pulls";

// One list of the "My pulls" page: a titled panel with its count, each account a link to its
// pull with what needs doing, or a line saying there is none.

function name(row: AttentionRow): string {
  return [row.firstName, row.lastName].filter(Boolean).join(" ") || row.email || "Unnamed account";
}

export function AttentionList({
  title,
  rows,
  empty,
  detail,
  testId,
}: {
  title: string;
  rows: AttentionRow[];
  empty: string;
  detail: (row: AttentionRow) => React.ReactNode;
  testId: string;
}) {
  return (
    <Card aria-labelledby={`${testId}-title`} data-testid={testId}>
      <h2 id={`${testId}-title`} className="mb-2 font-semibold text-slate-900">
        {title} <span className="ml-1 rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">{rows.length}</span>
      </h2>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-500">{empty}</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm">
          {rows.map((row) => (
            <li key={row.pullId} className="flex flex-wrap items-baseline justify-between gap-2 py-2">
              <Link href={`/pulls/${row.pullId}`} className={cn(LINK_CLASS, "font-medium")}>
                {name(row)}
              </Link>
              <span className="text-slate-600">{detail(row)}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
