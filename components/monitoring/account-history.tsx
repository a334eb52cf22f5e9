import { LINK_CLASS } from "@/components/ui/link-class";
import { cn } from "@/components/ui/class-names";
import Link from "next/link";
import { RelativeTime } from "@/components/ui/relative-time";
import { formatInstant, humanize } from "@/lib/format";
import type { HistoryEntry } from "@/lib/monitoring/history";

// The account's pulls over time, and what changed at each one.
export function AccountHistory({ entries, currentPullId }: { entries: HistoryEntry[]; currentPullId: string }) {
  return (
    <ol className="space-y-3 text-sm" data-testid="account-history">
      {entries.map((entry, index) => (
        <li key={entry.pullId} className="border-l-2 border-slate-200 pl-3">
          <div className="flex flex-wrap items-baseline gap-2">
            {entry.pullId === currentPullId ? (
              <span className="font-medium">This pull</span>
            ) : (
              <Link href={`/pulls/${entry.pullId}`} className={cn(LINK_CLASS, "font-medium")}>
                Pull of {formatInstant(entry.createdAt)}
              </Link>
            )}
            <span className="text-slate-500">
              <RelativeTime iso={entry.createdAt?.toISOString()} /> · {humanize(entry.status)}
            </span>
            {entry.serviceEvents.map((type) => (
              <span key={type} className="rounded bg-slate-100 px-1.5 text-xs text-slate-700">
                {humanize(type)}
              </span>
            ))}
          </div>
          {index === 0 ? (
            <p className="text-slate-500">First pull of this account.</p>
          ) : entry.changes.length === 0 ? (
            <p className="text-slate-500">No change found since the pull before.</p>
          ) : (
            <ul className="mt-1 list-disc pl-5 text-slate-800">
              {entry.changes.map((change) => (
                <li key={change}>{change}</li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}
