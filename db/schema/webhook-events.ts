import "server-only";
import { sql } from "drizzle-orm";
import { bigserial, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { sealedJsonb } from "../sealed-json";

export const EVENT_STATUSES = ["PENDING", "PROCESSING", "DONE", "FAILED", "IGNORED"] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];
export const eventStatusEnum = pgEnum("webhook_event_status", EVENT_STATUSES);

// The durable inbox: a webhook is acknowledged only once its row is committed here, and the
// worker turns rows into stored pulls. The dedup key makes a redelivered webhook a no-op.
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    dedupKey: text("dedup_key").notNull(),
    eventType: text("event_type").notNull(),
    pullId: uuid("pull_id"),
    status: eventStatusEnum("status").notNull().default("PENDING"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lockedAt: timestamp("locked_at", { withTimezone: true }),
    lockedBy: text("locked_by"),
    lastError: text("last_error"),
    payload: sealedJsonb("payload").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("webhook_events_dedup_key_unique").on(t.dedupKey),
    // The worker's claim query: due PENDING rows, oldest first.
    index("webhook_events_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'PENDING'`),
    index("webhook_events_status_idx").on(t.status),
    index("webhook_events_pull_id_idx").on(t.pullId),
    // The Service connection page: when each event type was last received, one index probe a type.
    index("webhook_events_type_received_idx").on(t.eventType, t.receivedAt),
  ],
);

export type WebhookEventRow = typeof webhookEvents.$inferSelect;
