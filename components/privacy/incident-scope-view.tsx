import Link from "next/link";
import type { IncidentConsumer, IncidentScope } from "@/lib/audit/incident-scope";
import { formatCount, formatInstant } from "@/lib/format";
import { buttonClass } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EMPTY_STATE_CLASS } from "@/components/ui/empty-state";
import { LINK_CLASS } from "@/components/ui/link-class";

// The incident-scope report: the counts by state of residence (what a breach notice asks for),
// then each consumer and what was done with their data.

const stateColumns: Column<IncidentScope["states"][number]>[] = [
  { header: "State of residence", cell: (row) => row.state ?? "Unknown", rowHeader: true, testId: "incident-state" },
  { header: "Consumers", cell: (row) => formatCount(row.consumers), numeric: true, testId: "incident-state-count" },
];

const consumerColumns: Column<IncidentConsumer>[] = [
  {
    header: "Consumer",
    cell: (row) => (
      <Link href={`/pulls/${row.pullId}`} className={LINK_CLASS}>
        {row.name ?? row.pullId}
      </Link>
    ),
    rowHeader: true,
  },
  { header: "State", cell: (row) => row.state ?? "Unknown" },
  { header: "What was done", cell: (row) => row.access, testId: "incident-access" },
  { header: "First", cell: (row) => formatInstant(row.firstAt) },
  { header: "Last", cell: (row) => formatInstant(row.lastAt) },
  { header: "Times", cell: (row) => formatCount(row.count), numeric: true, testId: "incident-times" },
  { header: "Pull id", cell: (row) => row.pullId, className: "font-mono text-xs" },
];

export function IncidentScopeView({ scope, csvHref }: { scope: IncidentScope; csvHref: string | null }) {
  if (scope.consumers.length === 0)
    return (
      <p className={EMPTY_STATE_CLASS}>
        No consumer&apos;s data was viewed, downloaded or exported under these filters.
      </p>
    );
  return (
    <div className="space-y-4" data-testid="incident-scope">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-700" data-testid="incident-total">
          {formatCount(scope.total)} consumers in {formatCount(scope.states.length)} states (or unknown).
          {scope.truncated
            ? " The list below stops at its limit (the counts are complete): narrow the window or add a filter to see every line."
            : ""}
        </p>
        {csvHref ? (
          <a href={csvHref} className={buttonClass({ variant: "secondary", size: "sm" })}>
            Download CSV
          </a>
        ) : null}
      </div>
      <DataTable
        label="Consumers by state"
        caption="Consumers by state of residence"
        columns={stateColumns}
        rows={scope.states}
        rowKey={(row) => row.state ?? "unknown"}
        rowTestId="incident-state-row"
      />
      <DataTable
        label="Consumers"
        caption="Each consumer and what was done"
        columns={consumerColumns}
        rows={scope.consumers}
        rowKey={(row) => `${row.pullId}:${row.access}`}
        rowTestId="incident-consumer-row"
      />
    </div>
  );
}
