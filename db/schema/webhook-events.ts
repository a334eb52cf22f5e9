import "server-only";
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { sealedJsonb } from "../sealed-json";

export const EVENT_STATUSES = ["PENDING", "PROCESSING", "DONE", "FAILED", "IGNORED"] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];
export const eventStatusEnum = pgEnum("webhook_event_status", EVENT_STATUSES);

// The durable inbox: a webhook is acknowledged only once its row is committed here, and the
// worker turns rows into stored pulls. The dedup key makes a redelivered webhook a no-op: it is
// claimed in webhook_event_keys, in the statement that inserts the row.
//
// Partitioned by month of `received_at` (migration 0044, by hand: drizzle cannot say PARTITION
// BY). A unique index of a partitioned table must hold the partition key, and the same body
// redelivered a month later has another `received_at`, so the dedup key's uniqueness lives in
// its own small table. `id` alone is still unique, drawn from one sequence. See docs/growth.md.
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: bigserial("id", { mode: "number" }).notNull(),
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
    primaryKey({ name: "webhook_events_id_received_at_pk", columns: [t.id, t.receivedAt] }),
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

/**
 * The inbox's dedup keys, one a delivered body: what makes a redelivery a no-op across the
 * inbox's monthly partitions. Written in the same statement as the inbox row (receive-webhook.ts),
 * removed with it (privacy/remove-pulls.ts). Holds a hash and a number, nothing of a consumer.
 */
export const webhookEventKeys = pgTable("webhook_event_keys", {
  dedupKey: text("dedup_key").primaryKey(),
  eventId: bigint("event_id", { mode: "number" }).notNull(),
});

export type WebhookEventRow = typeof webhookEvents.$inferSelect;
