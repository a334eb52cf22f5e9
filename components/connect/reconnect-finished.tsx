import { HostedReconnect } from "./hosted-reconnect";
import type { ReconnectStep } from "@/lib/monitoring/reconnect-page";

// The reconnect page once there is nothing to enter: reconnected, closed, expired, or on the
// service's own page.

export function ReconnectFinished({
  step,
  carrier,
}: {
  step: Extract<ReconnectStep, { kind: "done" | "closed" | "expired" | "hosted" }>;
  carrier: string;
}) {
  if (step.kind === "hosted") return <HostedReconnect url={step.url} carrier={carrier} />;
  if (step.kind === "done") {
    return (
      <div role="status" data-testid="reconnect-done">
        <p className="text-lg font-medium text-emerald-800">You are reconnected.</p>
        <p className="mt-2 text-slate-700">
          Your agency will see your up-to-date policies shortly. You can close this page.
        </p>
      </div>
    );
  }
  if (step.kind === "expired")
    return (
      <p role="alert" className="text-slate-800">
        This link has expired. Ask your agent for a new one.
      </p>
    );
  return (
    <p role="alert" className="text-slate-800">
      {step.reason}
    </p>
  );
}
