import { RelativeTime } from "@/components/ui/relative-time";
import type { AuditEventRow } from "@/db/schema";
import { auditSentence } from "./audit-sentence";

// Who did what to this pull, newest first: assignment, stage, downloads, monitoring.
export function PullHistory({ entries }: { entries: AuditEventRow[] }) {
  if (entries.length === 0)
    return (
      <p className="text-sm text-slate-500">
        Nothing has been done with this pull yet. Assigning it or moving its stage is recorded here, with who and when.
      </p>
    );
  return (
    <ol className="space-y-2 text-sm" data-testid="pull-history">
      {entries.map((entry) => (
        <li key={entry.id} className="flex flex-col gap-0.5 sm:flex-row sm:gap-3">
          <span className="shrink-0 text-slate-500 tabular-nums">
            <RelativeTime iso={entry.at.toISOString()} />
          </span>
          <span className="text-slate-800">{auditSentence(entry)}</span>
        </li>
      ))}
    </ol>
  );
}
