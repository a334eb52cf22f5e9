import "server-only";
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

// Outgoing webhooks (Standard Webhooks 1.0): the endpoints other systems register through the
// public API, and the outbox of deliveries, written in the same transaction as the change it
// reports so that a crash between the change and the HTTP call loses nothing.

/** A receiver of events. Its signing secret is kept sealed (lib/security/secret-box.ts), bound to the row's id. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    url: text("url").notNull(),
    /** `pull.stage_changed`, … (lib/webhooks/events.ts). */
    events: text("events").array().notNull(),
    /** The `whsec_…` secret, sealed. */
    secretSealed: text("secret_sealed").notNull(),
    /** The secret before a rotation, sealed; it signs too until `previousSecretExpiresAt`. */
    previousSecretSealed: text("previous_secret_sealed"),
    previousSecretExpiresAt: timestamp("previous_secret_expires_at", { withTimezone: true }),
    /** The API key's name (or the admin) that made it. */
    createdByName: text("created_by_name").notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set when the receiver answered 410 Gone, or an admin turned it off; no more deliveries. */
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    disabledReason: text("disabled_reason"),
    /** Deleted endpoints are gone from the API; their delivery history stays until it ages out. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [index("webhook_endpoints_created_at_idx").on(t.createdAt)],
);

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

/**
 * One message to one endpoint: the outbox row and the record of its attempts. `id` is the
 * Standard Webhooks message id (`msg_…`), the same on every retry so a receiver can de-duplicate.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    /** The whole signed body: `{ type, timestamp, data }`. */
    payload: jsonb("payload").notNull(),
    /** PENDING (waiting for its next attempt), DELIVERED, FAILED (gave up or endpoint disabled). */
    status: text("status", { enum: ["PENDING", "DELIVERED", "FAILED"] })
      .notNull()
      .default("PENDING"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  },
  (t) => [
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'PENDING'`),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
  ],
);

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
