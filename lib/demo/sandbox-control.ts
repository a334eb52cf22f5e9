import "server-only";
import { z } from "zod";

// The sandbox's control API (`/_sandbox/…`), which stands in for consumers and time: not part of
// the service, so only the demo history calls it, and only when the service is the local sandbox.

const LOCAL_HOSTS = /^(localhost|\[::1\]|127\.\d+\.\d+\.\d+)$/;

/** The control API's address beside a local sandbox's base URL; null for any other service. */
export function sandboxControlUrl(serviceBaseUrl: string): string | null {
  const url = new URL(serviceBaseUrl);
  return LOCAL_HOSTS.test(url.hostname) ? `${url.origin}/_sandbox` : null;
}

const historySchema = z.object({
  pulls: z.array(z.object({ pull_id: z.uuid(), created_at: z.string(), status: z.string() })),
});
const pullIdSchema = z.object({ pull_id: z.uuid().nullable() });

export type SandboxChange =
  "renewal_increase" | "vehicle_added" | "mortgagee_added" | "claim_opened" | "policy_cancelled";

async function post(controlUrl: string, path: string, body: unknown, method = "POST"): Promise<unknown> {
  const response = await fetch(`${controlUrl}/${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`sandbox ${path} answered ${response.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as unknown;
}

/** The sandbox's book of linked accounts over the `days` before `until`; their webhooks go out if `deliver`. */
export async function requestHistory(
  controlUrl: string,
  input: { seed: number; count: number; days: number; until: Date; deliver: boolean },
) {
  const answer = await post(controlUrl, "history", { ...input, until: input.until.toISOString() });
  return historySchema.parse(answer).pulls;
}

/** COMPLETE webhooks again for these pulls (a resumed history's missing ones). */
export async function redeliver(controlUrl: string, pullIds: string[]): Promise<void> {
  if (pullIds.length > 0) await post(controlUrl, "deliver", { pull_ids: pullIds });
}

/** The service's scheduler refreshes the monitoring now, finding `change` when it fits the account. */
export async function refreshWithChange(controlUrl: string, monitoringId: string, change: SandboxChange) {
  const answer = await post(controlUrl, `monitorings/${encodeURIComponent(monitoringId)}/refresh`, { change });
  return pullIdSchema.parse(answer).pull_id;
}

/** The monitoring's next refresh stops for the consumer (MONITORING_RECONNECT). */
export async function requireReconnect(controlUrl: string, monitoringId: string) {
  const answer = await post(controlUrl, `monitorings/${encodeURIComponent(monitoringId)}/reconnect-needed`, {});
  return pullIdSchema.parse(answer).pull_id;
}

/** A monitoring started on the service's own dashboard, out of Coverdesk's sight (the sync finds it). */
export async function startMonitoringOnDashboard(controlUrl: string, pullId: string, interval: string): Promise<void> {
  await post(controlUrl, "monitorings", { pull_id: pullId, interval });
}

/** Where the sandbox's stand-in for a Zapier hook takes the agency's outgoing webhooks. */
export const demoReceiverUrl = (controlUrl: string): string => `${controlUrl}/receiver`;

/** Tells that receiver the endpoint's signing secret, so it checks every delivery's signature. */
export async function tellReceiverSecret(controlUrl: string, secret: string): Promise<void> {
  await post(controlUrl, "receiver/secret", { secret }, "PUT");
}
