import type { ReplicaLag } from "@/lib/replicas/replica-lag";
import { DataTable } from "@/components/ui/data-table";

// The Service connection page's database replicas: how far each is behind the primary, or why
// it cannot be reached (reads then go to the primary).

const bytes = (n: number | null) =>
  n === null
    ? "—"
    : n < 1024
      ? `${n} B`
      : n < 1024 ** 2
        ? `${(n / 1024).toFixed(1)} kB`
        : `${(n / 1024 ** 2).toFixed(1)} MB`;
const seconds = (s: number | null) => (s === null ? "—" : s < 10 ? `${s.toFixed(2)} s` : `${Math.round(s)} s`);

export function ReplicaLagTable({ replicas }: { replicas: ReplicaLag[] }) {
  if (replicas.length === 0)
    return (
      <p className="text-sm text-slate-600" data-testid="replica-lag-none">
        No replicas (DATABASE_REPLICA_URLS is unset): every read goes to the primary.
      </p>
    );
  return (
    <DataTable
      label="Database replicas"
      testId="replica-lag"
      rows={replicas}
      rowKey={(replica) => replica.label}
      columns={[
        { header: "Replica", className: "break-all", cell: (replica) => replica.label },
        {
          header: "State",
          cell: (replica) =>
            !replica.reachable ? (
              <span className="text-red-700">Unreachable: reads go to the primary ({replica.reason})</span>
            ) : replica.inRecovery ? (
              "Replaying the primary's log"
            ) : (
              <span className="text-red-700">Not a replica (promoted?): not read from</span>
            ),
        },
        {
          header: "Behind (bytes)",
          numeric: true,
          cell: (replica) => (replica.reachable ? bytes(replica.lagBytes) : "—"),
        },
        {
          header: "Behind (time)",
          numeric: true,
          cell: (replica) => (replica.reachable ? seconds(replica.lagSeconds) : "—"),
        },
      ]}
    />
  );
}
