import { DataTable } from "@/components/ui/data-table";
import { formatCalendarDate, formatCount } from "@/lib/format";
import type { DisposalCounts } from "@/lib/privacy/disposal";
import {
  RETENTION_KIND_INFO,
  RETENTION_KINDS,
  type RetentionKind,
  type RetentionSchedule,
} from "@/lib/privacy/retention-kinds";

// The dry run: per kind of record, what the disposal run of `runAt` would remove, counted by the
// run's own queries ("412 accounts would be disposed of on 1 March").

type Row = { kind: RetentionKind; count: number; unit: [one: string, many: string]; pulls: number | null };

export function DisposalPreview({
  due,
  schedule,
  runAt,
}: {
  due: DisposalCounts;
  schedule: RetentionSchedule;
  runAt: Date;
}) {
  const rows: Row[] = RETENTION_KINDS.map((kind) => {
    if (kind === "INBOX_BODIES")
      return { kind, count: due.inboxBodies, unit: ["inbox body", "inbox bodies"], pulls: null };
    if (kind === "AUDIT_TRAIL")
      return { kind, count: due.auditRows, unit: ["audit entry", "audit entries"], pulls: null };
    return { kind, count: due.accounts[kind], unit: ["account", "accounts"], pulls: due.pulls[kind] };
  });
  const on = formatCalendarDate(runAt.toISOString());
  return (
    <DataTable
      label="Dry run"
      caption={`The disposal run of ${on} at ${runAt.toISOString().slice(11, 16)} UTC`}
      rows={rows}
      rowKey={(row) => row.kind}
      rowTestId="dry-run-row"
      rowData={(row) => ({ "data-kind": row.kind })}
      columns={[
        { header: "Kind of record", rowHeader: true, cell: (row) => RETENTION_KIND_INFO[row.kind].label },
        {
          header: "Would be disposed of",
          testId: "dry-run-sentence",
          cell: (row) =>
            schedule[row.kind] === null
              ? "Kept: nothing is disposed of"
              : `${formatCount(row.count)} ${row.unit[row.count === 1 ? 0 : 1]} would be disposed of on ${on}`,
        },
        {
          header: "Pulls",
          numeric: true,
          testId: "dry-run-pulls",
          cell: (row) => (row.pulls === null ? "—" : formatCount(row.pulls)),
        },
      ]}
    />
  );
}
