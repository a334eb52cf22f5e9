import "server-only";
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { sealedJsonb } from "../sealed-json";

// What webhooks tell us about monitored accounts and links in progress. The service is the
// source of truth for a monitoring; these rows mirror what it last said.

export const monitorings = pgTable(
  "monitorings",
  {
    monitoringId: text("monitoring_id").primaryKey(),
    initialPullId: uuid("initial_pull_id"),
    latestPullId: uuid("latest_pull_id"),
    accountIdentifier: text("account_identifier"),
    /** ACTIVE or STOPPED as the service last answered; null until it has. */
    status: text("status"),
    interval: text("interval"),
    nextPullDate: timestamp("next_pull_date", { withTimezone: true }),
    stopAfterDate: timestamp("stop_after_date", { withTimezone: true }),
    /**
     * Who started it: COVERDESK (a manager, on the pull's page) or SERVICE (found in the service's
     * list: started on its dashboard, or team-wide); null when only a webhook has named it so far.
     */
    origin: text("origin"),
    /** Set by MONITORING_RECONNECT: the consumer must log in again. Cleared when that pull succeeds. */
    reconnectRequestedAt: timestamp("reconnect_requested_at", { withTimezone: true }),
    reconnectPullId: uuid("reconnect_pull_id"),
    reconnectAuthStatus: text("reconnect_auth_status"),
    reconnectUrl: text("reconnect_url"),
    reconnectToken: text("reconnect_token"),
    /**
     * The refresh Coverdesk timed to the account's renewal (lib/monitoring/refresh-timing.ts):
     * when, and why in a structured form the pull page words; sent to the service as
     * next_pull_date. `plannedRefreshError` keeps the service's refusal of the last attempt.
     */
    plannedRefreshAt: timestamp("planned_refresh_at", { withTimezone: true }),
    plannedRefreshReason: jsonb("planned_refresh_reason"),
    plannedRefreshSentAt: timestamp("planned_refresh_sent_at", { withTimezone: true }),
    plannedRefreshError: text("planned_refresh_error"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("monitorings_initial_pull_id_idx").on(t.initialPullId),
    index("monitorings_latest_pull_id_idx").on(t.latestPullId),
    index("monitorings_account_identifier_idx").on(t.accountIdentifier),
    index("monitorings_reconnect_requested_at_idx").on(t.reconnectRequestedAt),
  ],
);

/** MONITORING_EVENTS as received: what the service says changed between two pulls. */
/**
 * Partitioned by month of `received_at` (migration 0044, by hand), so the key includes it; one
 * event per inbox row is kept by monitoring_event_keys, as a unique index here would have to
 * hold `received_at` too. See docs/growth.md.
 */
export const monitoringEvents = pgTable(
  "monitoring_events",
  {
    id: bigserial("id", { mode: "number" }).notNull(),
    /** The inbox row it came from: a redelivered webhook adds nothing. */
    inboxEventId: bigint("inbox_event_id", { mode: "number" }).notNull(),
    monitoringId: text("monitoring_id"),
    pullId: uuid("pull_id").notNull(),
    type: text("type"),
    changes: sealedJsonb("changes").notNull().default([]),
    documentIds: text("document_ids").array().notNull().default([]),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "monitoring_events_id_received_at_pk", columns: [t.id, t.receivedAt] }),
    index("monitoring_events_monitoring_id_idx").on(t.monitoringId),
    index("monitoring_events_pull_id_idx").on(t.pullId),
  ],
);

/** The inbox rows already turned into a monitoring event: a redelivered or retried event adds nothing. */
export const monitoringEventKeys = pgTable("monitoring_event_keys", {
  inboxEventId: bigint("inbox_event_id", { mode: "number" }).primaryKey(),
  eventId: bigint("event_id", { mode: "number" }).notNull(),
});

/** The latest AUTH_STATUS of a pull's login, by `sequence`, so late deliveries cannot go back. */
export const pullAuthStates = pgTable("pull_auth_states", {
  pullId: uuid("pull_id").primaryKey(),
  authStatus: text("auth_status"),
  sequence: integer("sequence").notNull().default(0),
  loginErrorMessage: text("login_error_message"),
  /** Identity-verification choices offered to the consumer: `[{ key, label }]`. */
  options: jsonb("options").notNull().default([]),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type MonitoringRow = typeof monitorings.$inferSelect;
export type PullAuthStateRow = typeof pullAuthStates.$inferSelect;
