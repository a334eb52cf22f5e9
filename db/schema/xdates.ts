import "server-only";
import { sql } from "drizzle-orm";
import { bigint, date, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { pullStage } from "./pull-stage";
import { pulls } from "./pulls";
import { users } from "./users";

// X-dates: one row per policy of the newest successful pull of each account (a refresh
// replaces its account's rows, so nothing counts twice), written in the transaction that stores
// the pull (lib/xdates/store.ts) and rolled forward daily once passed (lib/xdates/upkeep.ts).
// A policy without an X-date keeps its row, with the reason in words: nothing is dropped.
//
// The pull's assignee, stage and link are copied here so that the X-date list filters and sums
// over this table alone (an index-only range scan at 100,000 pulls); a trigger on pulls keeps
// the copies in step with every assignment and stage change (migration 0019).
export const policyXDates = pgTable(
  "policy_xdates",
  {
    pullId: uuid("pull_id")
      .notNull()
      .references(() => pulls.pullId, { onDelete: "cascade" }),
    policyId: text("policy_id").notNull(),
    /** The account's identifier (null when the service sent none: the pull is its own account). */
    accountIdentifier: text("account_identifier"),
    policyType: text("policy_type"),
    carrierName: text("carrier_name"),
    /** The carrier as people read it: its friendly name, else its identifier. */
    carrierLabel: text("carrier_label"),
    carrierPolicyNumber: text("carrier_policy_number"),
    status: text("status"),
    /** The premium over a year (lib/pulls/household.ts): what is at stake at the X-date. */
    annualPremiumCents: bigint("annual_premium_cents", { mode: "number" }),
    /** The expiry read from the carrier's data, the anchor of every roll forward. */
    expiryDate: date("expiry_date", { mode: "string" }),
    /** The term read from the dates (assumed 12 for ESTIMATED), what the upkeep steps by; null when unknown. */
    termMonths: integer("term_months"),
    xDate: date("x_date", { mode: "string" }),
    /** EXPIRY, RENEWAL, ROLLED or ESTIMATED (lib/xdates/derive.ts); null with a reason. */
    basis: text("basis"),
    /** Why there is no X-date: CANCELLED, RESCINDED, QUOTE, NO_EXPIRY, MALFORMED_EXPIRY. */
    reason: text("reason"),
    /** How the X-date was derived, or why there is none, in words. */
    note: text("note").notNull().default(""),
    assigneeId: uuid("assignee_id"),
    /** The pull's office, copied like its assignee (the trigger of migration 0047). */
    officeId: uuid("office_id"),
    stage: pullStage("stage").notNull().default("WORKING"),
    publicAlias: text("public_alias"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.pullId, t.policyId] }),
    // The list, the calendar and their totals: a range of days with every filtered and summed
    // column at hand (index-only), the biggest premiums of a day first.
    index("policy_xdates_range_idx")
      .on(
        t.xDate,
        t.annualPremiumCents.desc().nullsLast(),
        t.assigneeId,
        t.stage,
        t.policyType,
        t.carrierLabel,
        t.publicAlias,
        t.pullId,
        t.policyId,
      )
      .where(sql`${t.xDate} is not null`),
    // An agent's own X-dates, and a calendar feed (its owner's).
    index("policy_xdates_assignee_idx").on(t.assigneeId, t.xDate),
    // An office's X-dates (a manager or an agent of an office).
    index("policy_xdates_office_idx").on(t.officeId, t.xDate),
    // The policies without one, by reason.
    index("policy_xdates_unknown_idx")
      .on(t.reason, t.assigneeId)
      .where(sql`${t.xDate} is null`),
    // A refresh replaces its account's rows.
    index("policy_xdates_account_idx").on(t.accountIdentifier),
  ],
);

/**
 * A user's calendar feed (GET /api/calendar/<token>.ics): only the SHA-256 of its token is
 * kept, so a copy of the database opens no feed. One per user; renewing replaces it, turning it
 * off deletes it.
 */
export const calendarFeeds = pgTable("calendar_feeds", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  tokenHash: text("token_hash").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  lastReadAt: timestamp("last_read_at", { withTimezone: true }),
});

export type PolicyXDateRow = typeof policyXDates.$inferSelect;
