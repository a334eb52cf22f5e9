import "server-only";
import { sql } from "drizzle-orm";
import { bigserial, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { pulls } from "./pulls";

// What the household review asks of the service on an agent's request (service-notes, "Other
// team routes"): its policy check run again, paid enrichment look-ups, and servicing requests
// that change a WON client's policy at the carrier.

/**
 * The service's policy check run on demand on one pull ("Run the check again"). The pull's own
 * results (checked at submission) stay in its payload; the newest run here supersedes them on
 * the page. Who ran it also goes to the audit trail.
 */
export const policyCheckRuns = pgTable(
  "policy_check_runs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    pullId: uuid("pull_id")
      .notNull()
      .references(() => pulls.pullId, { onDelete: "cascade" }),
    /** COMPLIANT, NOT_COMPLIANT, REVIEW_REQUIRED as the service answered; null when no rule applied. */
    status: text("status"),
    /** `policy_check_results` of the pull the service answered, as received (a list, or an object). */
    results: jsonb("results"),
    /** The team's rules the run was sent with. */
    settings: jsonb("settings").notNull(),
    ranBy: uuid("ran_by"),
    ranByName: text("ran_by_name"),
    ranAt: timestamp("ran_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("policy_check_runs_pull_idx").on(t.pullId, t.ranAt.desc())],
);

/**
 * One paid enrichment question and its answer (property data, driver licence, driving record).
 * A question is keyed by its kind and a hash of its normalized parameters: the row is claimed
 * (status ASKING) before the service is called, so two clicks, two agents or two instances never
 * pay twice for the same question; an answer is kept and shown again instead of asking anew.
 */
export const enrichmentAnswers = pgTable(
  "enrichment_answers",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** PROPERTY_DATA, DRIVER_LICENSE, DRIVING_RECORD. */
    kind: text("kind").notNull(),
    /** sha256 of the normalized question: what makes two asks "the same question". */
    questionKey: text("question_key").notNull(),
    /** The account identifier, else the pull id: a refresh of the account finds its answers. */
    accountKey: text("account_key").notNull(),
    pullId: uuid("pull_id").references(() => pulls.pullId, { onDelete: "set null" }),
    /** What on the pull it is about: "dwelling:<id>", "driver:<id>". */
    subjectKey: text("subject_key").notNull(),
    /** The parameters sent (server-side only; the page shows what it needs). */
    question: jsonb("question").notNull(),
    /** The DPPA permissible purpose given for driver look-ups; null for property data. */
    purpose: text("purpose"),
    /** ASKING (claimed, the call under way), ANSWERED, NO_DATA (the service had none), FAILED (may be asked again). */
    status: text("status").notNull().default("ASKING"),
    answer: jsonb("answer"),
    error: text("error"),
    askedBy: uuid("asked_by"),
    askedByName: text("asked_by_name"),
    askedAt: timestamp("asked_at", { withTimezone: true }).notNull().defaultNow(),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("enrichment_answers_question_idx").on(t.kind, t.questionKey),
    index("enrichment_answers_account_idx").on(t.accountKey),
    index("enrichment_answers_pull_idx").on(t.pullId),
  ],
);

/**
 * A servicing request for a WON client: the carrier asked, through the service, to add, change
 * or remove a mortgagee or add a vehicle. The consumer confirms it on a page Coverdesk hosts,
 * whose address carries the id and an HMAC of it (like reconnect pages); the service's pull
 * session (the SERVICING pull's id and JWT) stays here, on the server. Progress arrives by
 * webhook and by reading GET /servicings/{id}.
 */
export const servicingRequests = pgTable(
  "servicing_requests",
  {
    id: text("id").primaryKey(),
    /** The client's pull the request was made from. */
    pullId: uuid("pull_id")
      .notNull()
      .references(() => pulls.pullId, { onDelete: "cascade" }),
    accountKey: text("account_key").notNull(),
    /** ADD_MORTGAGEE, EDIT_MORTGAGEE, REMOVE_MORTGAGEE, ADD_VEHICLE. */
    actionType: text("action_type").notNull(),
    payload: jsonb("payload").notNull(),
    /** The SERVICING pull the service opened, its JWT (server only) and the action's id. */
    servicingPullId: uuid("servicing_pull_id"),
    sessionJwt: text("session_jwt"),
    servicingActionId: text("servicing_action_id"),
    /** The service's status of the action (QUEUED … SUCCESS); null until it has answered. */
    status: text("status"),
    validationErrorType: text("validation_error_type"),
    confirmationData: jsonb("confirmation_data"),
    /** The consumer's answer on the confirm page: CONFIRMED or DECLINED. */
    consumerAnswer: text("consumer_answer"),
    consumerAnsweredAt: timestamp("consumer_answered_at", { withTimezone: true }),
    /** Where the answer came from: the client's address and browser (user agent), as evidence. */
    consumerAnsweredIp: text("consumer_answered_ip"),
    consumerAnsweredUserAgent: text("consumer_answered_user_agent"),
    /** A refusal or failure in words (the service's code kept). */
    error: text("error"),
    /** Staff withdrew the confirm link (sent to the wrong address, say): it stops working at once. */
    linkRevokedAt: timestamp("link_revoked_at", { withTimezone: true }),
    linkRevokedBy: uuid("link_revoked_by"),
    requestedBy: uuid("requested_by"),
    requestedByName: text("requested_by_name"),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("servicing_requests_pull_idx").on(t.pullId, t.requestedAt.desc()),
    index("servicing_requests_account_idx").on(t.accountKey),
    uniqueIndex("servicing_requests_action_idx")
      .on(t.servicingActionId)
      .where(sql`${t.servicingActionId} is not null`),
    index("servicing_requests_servicing_pull_idx").on(t.servicingPullId),
  ],
);

export type PolicyCheckRunRow = typeof policyCheckRuns.$inferSelect;
export type EnrichmentAnswerRow = typeof enrichmentAnswers.$inferSelect;
export type ServicingRequestRow = typeof servicingRequests.$inferSelect;
