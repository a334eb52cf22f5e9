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
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { sealedJsonb } from "../sealed-json";
import { users } from "./users";

// The agency's own workflow around pulls: who did what (append-only), and how new pulls are
// handed out.

/**
 * Append-only: a database trigger (migration 0007) refuses UPDATE and DELETE, so the trail
 * cannot be edited after the fact, even by the app. Pull and user ids are kept as plain
 * values (no foreign keys) so that history outlives what it speaks of.
 *
 * Partitioned by month of `at` (migration 0044, by hand: drizzle cannot say PARTITION BY), so
 * the key includes `at`; `id` alone is still unique, drawn from one sequence. See
 * docs/growth.md.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigserial("id", { mode: "number" }).notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** Null when the system acted (automatic assignment). */
    actorId: uuid("actor_id"),
    actorName: text("actor_name"),
    action: text("action").notNull(),
    pullId: uuid("pull_id"),
    subjectUserId: uuid("subject_user_id"),
    details: sealedJsonb("details").notNull().default({}),
    /**
     * The server-side session (user_sessions.id) and the client's address the actor acted
     * through, when a request carried them: what the incident-scope report filters by. Null
     * for the system, the consumer pages and rows older than migration 0035.
     */
    sessionId: text("session_id"),
    address: text("address"),
    /**
     * The pulls a read of many consumers at once showed (a CSV export of a list): each one is in
     * the incident-scope report. Null when the row names one pull (`pull_id`) or none.
     */
    pullIds: uuid("pull_ids").array(),
  },
  (t) => [
    primaryKey({ name: "audit_events_id_at_pk", columns: [t.id, t.at] }),
    index("audit_events_pull_id_idx").on(t.pullId, t.at),
    index("audit_events_session_id_idx").on(t.sessionId, t.at),
    index("audit_events_address_idx").on(t.address, t.at),
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
  /** RULES: `[{ state?, lineOfBusiness?, assigneeId?, officeId? }]` (a person or an office's queue), first match wins. */
  rules: jsonb("rules").notNull().default([]),
  /** RULES: who gets a pull no rule matches (null: it stays in the queue). */
  fallbackAssigneeId: uuid("fallback_assignee_id").references(() => users.id, { onDelete: "set null" }),
  /** ROUND_ROBIN: the agent who got the last pull, so the next one goes to the one after. */
  lastAssigneeId: uuid("last_assignee_id"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid("updated_by"),
});

/**
 * Deals that came back (lib/workflow/deal-returns.ts): a LOST account whose verified X-date came
 * within the lead time (RECYCLED), or a WON client whose refresh shows the policy cancelled or
 * with another carrier (WIN_BACK). `key` is unique (pull, kind, X-date or policy), so a return is
 * made once however often the job runs. The figures are copied so the card reads the same after
 * the pull changes; `wonAt` is set when the returned deal is won again, for the reports.
 */
export const dealReturns = pgTable(
  "deal_returns",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    key: text("key").notNull(),
    kind: text("kind").notNull(),
    pullId: uuid("pull_id").notNull(),
    accountIdentifier: text("account_identifier"),
    /** The X-date that brought it back (RECYCLED), or the day the refresh showed the loss (WIN_BACK). */
    xDate: date("x_date", { mode: "string" }),
    carrierLabel: text("carrier_label"),
    policyType: text("policy_type"),
    /** Who it went back to; null: the queue (the agent had left). */
    assigneeId: uuid("assignee_id"),
    previousAssigneeId: uuid("previous_assignee_id"),
    /** Why it was lost, as marked then (lost category, carrier, the agent's words). */
    lostCategory: text("lost_category"),
    lostToCarrier: text("lost_to_carrier"),
    lostReason: text("lost_reason"),
    /** The premium a year when it was lost (what the winner charged, else the pull's own). */
    premiumThenCents: bigint("premium_then_cents", { mode: "number" }),
    /** The renewal premium a refresh has seen since, when one has. */
    renewalPremiumCents: bigint("renewal_premium_cents", { mode: "number" }),
    /** What happened, in words, for the worklist and the history. */
    headline: text("headline").notNull(),
    returnedAt: timestamp("returned_at", { withTimezone: true }).notNull().defaultNow(),
    wonAt: timestamp("won_at", { withTimezone: true }),
    wonPremiumCents: bigint("won_premium_cents", { mode: "number" }),
  },
  (t) => [
    uniqueIndex("deal_returns_key_idx").on(t.key),
    index("deal_returns_pull_idx").on(t.pullId),
    index("deal_returns_assignee_idx").on(t.assigneeId, t.returnedAt),
    index("deal_returns_returned_at_idx").on(t.returnedAt),
  ],
);

/**
 * Every LOST decided by hand (lib/workflow/lost-decisions.ts), kept when the deal later comes
 * back (deal_returns, above) or is lost again: the lost-reasons report and the close ratio count a
 * loss here, in the period it was decided, with why and whose it was then. A stage set by hand
 * while the loss is still the pull's own undoes (or corrects) it: `undone_at` is set and it no
 * longer counts. Written by the stage command only; a LOST carried to a refresh of the account
 * is the earlier pull's decision and has no row of its own. No foreign key, like the audit
 * trail: history outlives what it speaks of.
 */
export const lostDecisions = pgTable(
  "lost_decisions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    pullId: uuid("pull_id").notNull(),
    lostAt: timestamp("lost_at", { withTimezone: true }).notNull(),
    /** Whose loss: the pull's assignee when it was lost (null: unassigned). */
    ownerId: uuid("owner_id"),
    lostCategory: text("lost_category"),
    lostToCarrier: text("lost_to_carrier"),
    lostToPremiumCents: bigint("lost_to_premium_cents", { mode: "number" }),
    lostReason: text("lost_reason"),
    /**
     * The pull's lines and link (pulls.policy_types, public_alias), a pull's own facts copied
     * here so the reports filter losses by them without reading the pulls.
     */
    policyTypes: text("policy_types").array().notNull().default([]),
    publicAlias: text("public_alias"),
    /** A person changed the pull's stage while this loss was its own: it no longer counts. */
    undoneAt: timestamp("undone_at", { withTimezone: true }),
  },
  (t) => [
    // The lost-reasons report and the close ratio: the standing losses of a range, with every
    // column they group, filter or sum, index-only (pull_id for the carried-over check).
    index("lost_decisions_report_idx")
      .on(
        t.lostAt,
        t.ownerId,
        t.lostCategory,
        t.lostToCarrier,
        t.lostToPremiumCents,
        t.publicAlias,
        t.policyTypes,
        t.pullId,
      )
      .where(sql`${t.undoneAt} is null`),
    // The pull's standing loss, undone by the stage command.
    index("lost_decisions_pull_idx").on(t.pullId, t.lostAt),
  ],
);

export type DealReturnRow = typeof dealReturns.$inferSelect;
export type LostDecisionRow = typeof lostDecisions.$inferSelect;
export type AuditEventRow = typeof auditEvents.$inferSelect;
export type AssignmentSettingsRow = typeof assignmentSettings.$inferSelect;
export const AUDIT_ACTIONS = [
  /** Someone opened a pull's page (the consumer's data was shown): not listed in the pull's own history. */
  "PULL_VIEWED",
  "PULL_ASSIGNED",
  "PULL_UNASSIGNED",
  /** A refresh or reconnect took its account's owner, stage and credit from the account's earlier pull. */
  "PULL_CARRIED_OVER",
  "STAGE_CHANGED",
  /** A pull was archived or restored in Coverdesk (details: archived); the service is told too. */
  "PULL_ARCHIVED",
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
  /** A calendar app read a user's X-date feed through its secret address (details: address, events served). */
  "CALENDAR_FEED_READ",
  /** The alert rules changed (details: the new thresholds, digest hour, queue recipients); before the rules page joined them. */
  "ALERT_RULES_CHANGED",
  /** The agency's rules changed (details: every rule as saved: thresholds, digest, lead time, budget, speed to lead). */
  "AGENCY_RULES_CHANGED",
  /** A lost deal came back as its X-date neared, or a won client's refresh showed the policy lost (details: kind, headline). */
  "DEAL_RETURNED",
  /** The speed-to-lead rule acted on a pull nobody touched in time (details: minutes, action). */
  "SPEED_TO_LEAD",
  /** A servicing request went to the carrier through the service (details: action, words); the consumer then confirmed or declined it on its page. */
  "SERVICING_REQUESTED",
  "SERVICING_CONFIRMED",
  "SERVICING_DECLINED",
  /** Staff withdrew a link sent to a consumer, a reconnect page or a confirm page (details: kind, the request or monitoring). */
  "CONSUMER_LINK_REVOKED",
  /** A coverage finding was discussed with the client (details: finding, decision, note): the E&O record. */
  "FINDING_DECIDED",
  /** The coverage review's rules changed (details: the rules as saved). */
  "REVIEW_RULES_CHANGED",
  /** A client summary PDF was made (details: findings listed). */
  "CLIENT_SUMMARY_MADE",
  /** An EZLynx applicant file (auto or home) was made from a pull (details: kind, recipient, purpose, drivers, vehicles, dwellings, what it left out). */
  "HANDOFF_EXPORTED",
  /** A pull was sent to the agency's management system as a lead, created or updated (details: target, action, external id, recipient, purpose, drivers, vehicles). */
  "HANDOFF_SENT",
  /** A send to the agency's management system was refused or failed (details: target, code, the field it named). */
  "HANDOFF_FAILED",
  /** An admin saved what AgencyZoom leads assume and who each user is there (details: the settings, users mapped). */
  "AGENCYZOOM_SETTINGS_CHANGED",
  /** A paid enrichment look-up was asked of the service (details: kind, subject, DPPA purpose for drivers, status; never a date of birth). */
  "ENRICHMENT_REQUESTED",
  /** A kept look-up answer was handed to someone who asked again, for this or another account (details: kind, subject, DPPA purpose for drivers, the pull it was kept for). */
  "ENRICHMENT_REUSED",
  /** The service's policy check was run again on a pull (details: status, results). */
  "POLICY_CHECK_RUN",
  /** The team's policy-check rules were saved to the service (details: the rules as saved). */
  "POLICY_CHECK_RULES_CHANGED",
  /** Someone sent the day's digests at once (details: mails, alerts). */
  "DIGEST_SENT",
  /** Sign-ins whose password was checked, with the client's address; throttled tries check none and are not recorded. */
  "SIGNED_IN",
  "SIGN_IN_FAILED",
  "SIGNED_OUT",
  /** A user began setting up an authenticator app (pending until confirmed), confirmed it (ten recovery codes made), or removed it with a current code. */
  "SECOND_FACTOR_STARTED",
  "SECOND_FACTOR_CONFIRMED",
  "SECOND_FACTOR_REMOVED",
  /** A user made new recovery codes (the old ones stop working), given a current code. */
  "RECOVERY_CODES_RENEWED",
  /** A user added or removed a passkey (details: its name). */
  "PASSKEY_ADDED",
  "PASSKEY_REMOVED",
  /** An admin turned the second-factor requirement on or off (details: from, to). */
  "SECOND_FACTOR_REQUIREMENT_CHANGED",
  /** An admin removed a user's second factors (details: what was removed, sessions ended). */
  "SECOND_FACTOR_RESET",
  /** The retention schedule changed (details: every kind's period before and after; null is Keep). */
  "RETENTION_SCHEDULE_CHANGED",
  /** A legal hold was placed on a pull or an account, or lifted (details: hold, scope, reason); held records are never disposed of. */
  "LEGAL_HOLD_PLACED",
  "LEGAL_HOLD_LIFTED",
  /** A disposal run under the retention schedule (details: counts per kind; no consumer content). */
  "RETENTION_DISPOSAL_RUN",
  /** The consumer request desk was searched (details: which fields were given, how many pulls matched; never the values). */
  "CONSUMER_SEARCHED",
  /** A consumer's request was opened on the desk (details: request, kind, received and due days, number of pulls). */
  "PRIVACY_REQUEST_OPENED",
  /** Everything held on a consumer left Coverdesk as JSON or PDF (details: request, format, pulls, recipient, purpose). */
  "CONSUMER_DATA_EXPORTED",
  /** The tombstone of an erasure: the request and what went, by kind of record; no name, email or identifier. */
  "CONSUMER_ERASED",
  /** Someone recorded that the service was asked to delete its copy of an erased consumer (details: request). */
  "PRIVACY_SERVICE_TOLD",
  /** An admin made or revoked a key of the public API (details: name, scopes); the secret is never recorded. */
  "API_KEY_CREATED",
  "API_KEY_REVOKED",
  /** A call to the public API, under the key's name (details: method, route, status, the pulls it read). */
  "API_CALLED",
  /** An admin deleted an outgoing webhook endpoint, or sent one of its deliveries again (details: endpoint, message id). */
  "WEBHOOK_ENDPOINT_DELETED",
  "WEBHOOK_DELIVERY_RESENT",
  /** Development only: the demo agency's history began (details: seed, size, until) or was completed. */
  "DEMO_HISTORY_STARTED",
  "DEMO_HISTORY_FINISHED",
  /** An admin created, renamed or deleted an office (details: name, from); or moved a user to one (details: from, to). */
  "OFFICE_CREATED",
  "OFFICE_RENAMED",
  "OFFICE_DELETED",
  "USER_OFFICE_CHANGED",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
