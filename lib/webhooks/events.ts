import "server-only";
import { randomBytes } from "node:crypto";
import { and, arrayContains, isNull } from "drizzle-orm";
import type { Db } from "@/db/types";
import { webhookDeliveries, webhookEndpoints } from "@/db/schema";

// The events other systems may subscribe to, and the outbox they are written to. A command that
// changes something an event reports calls enqueueEvent in its own transaction: the delivery rows
// commit with the change or not at all, so a crash before the HTTP call loses nothing (the
// delivery worker, ./deliver.ts, sends them later) and a change rolled back sends nothing.
//
// Payloads are thin: ids and what changed, never a consumer's name, address or policy. A
// receiver reads the pull through GET /api/v1/pulls/{pull_id} with its key, so every read of
// personal data is on the audit trail.

export const WEBHOOK_EVENTS = ["pull.created", "pull.stage_changed", "pull.assigned", "alert.raised"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  "pull.created": "A consumer linked an account (a new pull arrived)",
  "pull.stage_changed": "A pull moved to WORKING, WON or LOST",
  "pull.assigned": "A pull got a new owner (or none)",
  "alert.raised": "A refresh raised an alert (premium jump, cancellation, …)",
};

export type WebhookEventData = {
  "pull.created": { pull_id: string; status: string | null };
  "pull.stage_changed": { pull_id: string; from_stage: string; to_stage: string; won_premium_cents: number | null };
  "pull.assigned": { pull_id: string; from_assignee_id: string | null; to_assignee_id: string | null };
  "alert.raised": { alert_id: string; pull_id: string; kind: string };
};

/** The body every delivery signs: Standard Webhooks' suggested `{ type, timestamp, data }`. */
export type WebhookPayload<T extends WebhookEventType = WebhookEventType> = {
  type: T;
  timestamp: string;
  data: WebhookEventData[T];
};

/** A Standard Webhooks message id: `msg_` and 24 random bytes, base64url. */
export const newMessageId = (): string => `msg_${randomBytes(18).toString("base64url")}`;

/**
 * Writes one delivery per live endpoint subscribed to `type`, in the caller's transaction.
 * Answers how many were written (0 when no one listens, which costs one indexed read).
 */
export async function enqueueEvent<T extends WebhookEventType>(
  tx: Db,
  type: T,
  data: WebhookEventData[T],
  now: Date = new Date(),
): Promise<number> {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        isNull(webhookEndpoints.deletedAt),
        isNull(webhookEndpoints.disabledAt),
        arrayContains(webhookEndpoints.events, [type]),
      ),
    );
  if (endpoints.length === 0) return 0;
  const payload: WebhookPayload<T> = { type, timestamp: now.toISOString(), data };
  await tx.insert(webhookDeliveries).values(
    endpoints.map((endpoint) => ({
      id: newMessageId(),
      endpointId: endpoint.id,
      eventType: type,
      payload,
      nextAttemptAt: now,
      createdAt: now,
    })),
  );
  return endpoints.length;
}
