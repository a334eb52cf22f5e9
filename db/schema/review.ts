import "server-only";
import { sql } from "drizzle-orm";
import { bigint, bigserial, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { pullStage } from "./pull-stage";
import { pulls } from "./pulls";

// The household review (lib/review): what an agent decided about each coverage finding (the
// errors-and-omissions record), and each household's cross-sell gaps for the book-level list.

/**
 * The current decision on one finding of one account (a finding's key is stable across
 * refreshes: rule and policy/vehicle/dwelling). Who and when also go to the audit trail, which
 * keeps every earlier decision; this row is the one the page and the client summary read.
 */
export const findingDecisions = pgTable(
  "finding_decisions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** The account identifier, else the pull id: a refresh keeps the decisions of its account. */
    accountKey: text("account_key").notNull(),
    pullId: uuid("pull_id").notNull(),
    findingKey: text("finding_key").notNull(),
    /** ACCEPTED (the client takes the advice), DECLINED (by the client), NOT_APPLICABLE. */
    decision: text("decision").notNull(),
    note: text("note").notNull().default(""),
    decidedBy: uuid("decided_by"),
    decidedByName: text("decided_by_name"),
    decidedAt: timestamp("decided_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("finding_decisions_account_finding_idx").on(t.accountKey, t.findingKey)],
);

/**
 * One row per household (the newest successful pull of each account, like policy_xdates),
 * written in the transaction that stores the pull: its lines, carriers and cross-sell gaps, so
 * the managers' book-level list filters and counts over this table alone.
 */
export const householdGaps = pgTable(
  "household_gaps",
  {
    pullId: uuid("pull_id")
      .primaryKey()
      .references(() => pulls.pullId, { onDelete: "cascade" }),
    accountIdentifier: text("account_identifier"),
    holderName: text("holder_name").notNull().default(""),
    /** Policies in force, and the carriers they are spread across. */
    policyCount: integer("policy_count").notNull().default(0),
    carrierCount: integer("carrier_count").notNull().default(0),
    lines: text("lines")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Cross-sell gap codes (lib/cross-sell/gaps.ts). */
    gaps: text("gaps")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The same gaps as bits (lib/cross-sell/gaps.ts gapMaskOf): what the book-level counts group by. */
    gapMask: integer("gap_mask").notNull().default(0),
    /** The household's premium a year, and the part of it a gap puts in play (a bundle, a new line). */
    annualPremiumCents: bigint("annual_premium_cents", { mode: "number" }),
    premiumInPlayCents: bigint("premium_in_play_cents", { mode: "number" }),
    /**
     * The pull's assignee, office and stage, copied like policy_xdates' (a trigger on pulls keeps
     * them in step, migration 0049): the list filters, counts and applies the access rule
     * (lib/pulls/visibility.ts) over this table without joining the pulls.
     */
    assigneeId: uuid("assignee_id"),
    officeId: uuid("office_id"),
    stage: pullStage("stage").notNull().default("WORKING"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("household_gaps_gaps_idx").using("gin", t.gaps),
    index("household_gaps_office_idx").on(t.officeId, t.policyCount),
    // The admin's and an office's page of 50: each walk (one number of policies) in the page's
    // order, with the gap mask, so a gap filter is checked on the index entry (an index-only walk)
    // rather than on each household's row: a gap few households of that size have walked the
    // whole size's rows (837 ms at a million pulls for one that none had, migration 0051).
    index("household_gaps_page_idx").on(
      t.policyCount,
      t.premiumInPlayCents.desc().nullsLast(),
      t.annualPremiumCents.desc().nullsLast(),
      t.pullId,
      t.gapMask,
    ),
    // An agent's households (their own view, and the agent and stage filters): each walk of the
    // page (one number of policies) in the page's order, and the counts' columns at hand.
    index("household_gaps_assignee_idx").on(
      t.assigneeId,
      t.stage,
      t.policyCount,
      t.premiumInPlayCents.desc().nullsLast(),
      t.annualPremiumCents.desc().nullsLast(),
      t.pullId,
      t.gapMask,
    ),
  ],
);

export type FindingDecisionRow = typeof findingDecisions.$inferSelect;
export type HouseholdGapsRow = typeof householdGaps.$inferSelect;
