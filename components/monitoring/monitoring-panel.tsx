import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import { RelativeTime } from "@/components/ui/relative-time";
import { formatInterval, humanize } from "@/lib/format";
import type { PullMonitoring } from "@/lib/monitoring/pull-monitoring";
import { ActiveMonitoringForms, EnableMonitoringForm } from "./monitoring-forms";

// Monitoring of this pull's account, for managers and admins: status, next refresh, controls,
// and the warning that matters to the agency's bill.

export function MonitoringPanel({ pullId, monitoring }: { pullId: string; monitoring: PullMonitoring | null }) {
  const active = monitoring?.status === "ACTIVE";
  return (
    <section aria-labelledby="monitoring-title" className={cn(CARD_CLASS, "p-5")} data-testid="monitoring-panel">
      <h2 id="monitoring-title" className="text-lg font-semibold text-slate-900">
        Monitoring
      </h2>
      <p className="mb-3 text-sm text-amber-800">The service bills each refresh like a new pull.</p>
      <p className="mb-3 text-sm text-slate-700" data-testid="monitoring-status">
        {monitoring ? (
          <>
            {humanize(monitoring.status ?? "UNKNOWN")}
            {monitoring.interval ? `, every ${formatInterval(monitoring.interval)}` : ""}
            {active && monitoring.nextPullDate ? (
              <>
                ; next refresh <RelativeTime iso={monitoring.nextPullDate.toISOString()} />. {monitoring.nextRefreshWhy}
              </>
            ) : null}
          </>
        ) : (
          "Not monitored."
        )}
      </p>
      {monitoring?.startedOutside ? (
        <p className="mb-3 text-sm text-slate-600" data-testid="monitoring-origin">
          Started outside Coverdesk, on the service&apos;s dashboard or for the whole team.
        </p>
      ) : null}
      {active && monitoring ? (
        <ActiveMonitoringForms pullId={pullId} monitoringId={monitoring.monitoringId} />
      ) : (
        <EnableMonitoringForm pullId={pullId} />
      )}
    </section>
  );
}
