import "server-only";
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

// The agency's own workflow around pulls: who did what (append-only), and how new pulls are
// handed out.

/**
 * Append-only: a database trigger (migration 0007) refuses UPDATE and DELETE, so the trail
 * cannot be edited after the fact, even by the app. Pull and user ids are kept as plain
 * values (no foreign keys) so that history outlives what it speaks of.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** Null when the system acted (automatic assignment). */
    actorId: uuid("actor_id"),
    actorName: text("actor_name"),
    action: text("action").notNull(),
    pullId: uuid("pull_id"),
    subjectUserId: uuid("subject_user_id"),
    details: jsonb("details").notNull().default({}),
  },
  (t) => [
    index("audit_events_pull_id_idx").on(t.pullId, t.at),
    index("audit_events_actor_id_idx").on(t.actorId),
    index("audit_events_action_idx").on(t.action),
    index("audit_events_at_idx").on(t.at),
    // A user's own recent failed sign-ins, shown to them on every page.
    index("audit_events_subject_action_idx").on(t.subjectUserId, t.action, t.at),
  ],
);

/** One row (id 1): how new pulls are assigned. */
export const assignmentSettings = pgTable("assignment_settings", {
  id: integer("id").primaryKey().default(1),
  /** OFF, ROUND_ROBIN or RULES. */
  mode: text("mode").notNull().default("OFF"),
  /** RULES: `[{ state?, lineOfBusiness?, assigneeId }]`, first match wins. */
  rules: jsonb("rules").notNull().default([]),
  /** RULES: who gets a pull no rule matches (null: it stays in the queue). */
  fallbackAssigneeId: uuid("fallback_assignee_id").references(() => users.id, { onDelete: "set null" }),
  /** ROUND_ROBIN: the agent who got the last pull, so the next one goes to the one after. */
  lastAssigneeId: uuid("last_assignee_id"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid("updated_by"),
});

export type AuditEventRow = typeof auditEvents.$inferSelect;
export type AssignmentSettingsRow = typeof assignmentSettings.$inferSelect;
export const AUDIT_ACTIONS = [
  "PULL_ASSIGNED",
  "PULL_UNASSIGNED",
  /** A refresh or reconnect took its account's owner, stage and credit from the account's earlier pull. */
  "PULL_CARRIED_OVER",
  "STAGE_CHANGED",
  "DOCUMENT_DOWNLOADED",
  "MONITORING_CHANGED",
  "USER_CREATED",
  "USER_CHANGED",
  "USER_DEACTIVATED",
  "PASSWORD_RESET",
  "ASSIGNMENT_SETTINGS_CHANGED",
  "CSV_EXPORTED",
  "SERVICE_CONNECTION_CHANGED",
  /** A user's X-date calendar feed got a new address (the old one stops working), or was turned off. */
  "CALENDAR_FEED_RENEWED",
  "CALENDAR_FEED_TURNED_OFF",
  /** The alert rules changed (details: the new thresholds, digest hour, queue recipients). */
  "ALERT_RULES_CHANGED",
  /** Someone sent the day's digests at once (details: mails, alerts). */
  "DIGEST_SENT",
  /** Sign-ins whose password was checked, with the client's address; throttled tries check none and are not recorded. */
  "SIGNED_IN",
  "SIGN_IN_FAILED",
  "SIGNED_OUT",
  /** Development only: the demo agency's history began (details: seed, size, until) or was completed. */
  "DEMO_HISTORY_STARTED",
  "DEMO_HISTORY_FINISHED",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
