import "server-only";
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./users";

// Alerts a refresh raised about an account (lib/alerts/detect.ts): a renewal premium jump, a
// cancellation, a lapse, a coverage cut. Written in the transaction that stores the refresh;
// `key` is unique, so a redelivered or reprocessed refresh raises nothing twice. The agent who
// owns the account gets it; an unassigned account's alert is the queue's (assignee null).
export const alerts = pgTable(
  "alerts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    key: text("key").notNull(),
    kind: text("kind").notNull(),
    /** The refresh that raised it; plain values, so the alert outlives an archived pull. */
    pullId: uuid("pull_id").notNull(),
    accountIdentifier: text("account_identifier"),
    /** The account holder as the list shows them, for the inbox and the digest. */
    holderName: text("holder_name").notNull().default(""),
    headline: text("headline").notNull(),
    /** What else the refresh changed, in words (lib/monitoring/describe-changes.ts). */
    details: jsonb("details").$type<string[]>().notNull().default([]),
    beforeCents: bigint("before_cents", { mode: "number" }),
    afterCents: bigint("after_cents", { mode: "number" }),
    assigneeId: uuid("assignee_id").references(() => users.id, { onDelete: "set null" }),
    /** OPEN, SNOOZED (until `snoozedUntil`) or DONE. */
    status: text("status").notNull().default("OPEN"),
    snoozedUntil: timestamp("snoozed_until", { withTimezone: true }),
    doneAt: timestamp("done_at", { withTimezone: true }),
    doneBy: uuid("done_by"),
    /** When a daily digest carried it, so each alert is mailed once. */
    mailedAt: timestamp("mailed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("alerts_key_idx").on(t.key),
    // The inbox: an agent's open alerts, newest first; and the badge's count.
    index("alerts_inbox_idx").on(t.assigneeId, t.status, t.createdAt.desc()),
    // The digest: what has not been mailed yet.
    index("alerts_unmailed_idx")
      .on(t.createdAt)
      .where(sql`mailed_at is null`),
  ],
);

export type AlertRow = typeof alerts.$inferSelect;
export const ALERT_STATUSES = ["OPEN", "SNOOZED", "DONE"] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/**
 * One row (id 1): the rules the agency sets for its alerts and their digest. The admin page
 * changes them (audited); a missing row reads as the defaults.
 */
export const agencyRules = pgTable("agency_rules", {
  id: integer("id").primaryKey().default(1),
  /** Percent a renewal premium may rise before it alerts: `{ default, AUTO?, HOMEOWNERS?… }`. */
  jumpThresholds: jsonb("jump_thresholds").$type<Record<string, number>>().notNull().default({ default: 10 }),
  /** The hour (0–23, UTC) after which each day's digest goes out. */
  digestHour: integer("digest_hour").notNull().default(7),
  /** Who gets the queue's alerts (unassigned accounts) in their digest: MANAGERS, ADMINS or NOBODY. */
  queueAlertsTo: text("queue_alerts_to").notNull().default("MANAGERS"),
  /** Days before an X-date that a monitored account is refreshed, and a lost deal comes back. */
  leadTimeDays: integer("lead_time_days").notNull().default(45),
  /** Monitoring refreshes the agency means to pay for in a month; null: no budget. */
  refreshBudgetPerMonth: integer("refresh_budget_per_month"),
  /** Minutes a new pull may wait untouched before the speed-to-lead rule acts; null: the rule is off. */
  speedToLeadMinutes: integer("speed_to_lead_minutes"),
  /** What the rule does: REASSIGN (by the automatic assignment rules) or RAISE (an alert to the managers). */
  speedToLeadAction: text("speed_to_lead_action").notNull().default("RAISE"),
  /** The coverage review's rules (lib/review/review-rules.ts): floors, ceilings, which checks run; `{}` reads as the defaults. */
  reviewRules: jsonb("review_rules").notNull().default({}),
  /** When the rule was last switched on: it acts on pulls that arrived after, never on the back catalogue. */
  speedToLeadSince: timestamp("speed_to_lead_since", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid("updated_by"),
});

export type AgencyRulesRow = typeof agencyRules.$inferSelect;

/** One row per day a digest went out: the first instance past the digest hour inserts it and sends; the others see it. */
export const digestRuns = pgTable("digest_runs", {
  day: date("day", { mode: "string" }).primaryKey(),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
  /** Null while sending; then how many mails went out. */
  mails: integer("mails"),
  finishedAt: timestamp("finished_at", { withTimezone: true }),
  /** Who pressed Send now (null: the schedule, or `npm run digest`). */
  requestedBy: uuid("requested_by"),
});
