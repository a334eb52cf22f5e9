import "server-only";
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { sealedJsonb } from "../sealed-json";
import { FINAL_PULL_STATUSES_SQL } from "./pull-final-statuses";
import { pullStage } from "./pull-stage";
import { stageInOf, stageIsOf } from "./pull-stage-sql";
import { users } from "./users";

// One row per pull_id: the raw payload exactly as the service sent it (nothing is lost, even
// fields we do not understand yet) plus the columns that lists, filters and reports need.
export const pulls = pgTable(
  "pulls",
  {
    pullId: uuid("pull_id").primaryKey(),
    status: text("status").notNull(),
    type: text("type"),
    parentPullId: uuid("parent_pull_id"),
    accountIdentifier: text("account_identifier"),
    firstName: text("first_name"),
    lastName: text("last_name"),
    /** "Last, First" or the best name we have: what lists sort by. */
    sortName: text("sort_name").notNull().default(""),
    email: text("email"),
    phone: text("phone"),
    providerName: text("provider_name"),
    providerFriendlyName: text("provider_friendly_name"),
    isArchived: boolean("is_archived").notNull().default(false),
    /**
     * An active monitoring (status not STOPPED) names this pull as its initial or latest pull,
     * or names its account. Kept by the database (triggers of migration 0026, rule in
     * pull_is_monitored()), never written by the app: the list filters a million pulls by it.
     */
    monitored: boolean("monitored").notNull().default(false),
    /** When the service marked the pull deleted (its `deleted_at`): kept, but no longer listed. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    /**
     * Whether the pull is a row of the list: top-level (a child pull is the service's internal
     * work), not deleted at the service, and not a SERVICING pull (shown under its servicing
     * request instead). Computed by the database, so bulk loads and old rows agree; the list's
     * partial indexes are over these rows.
     */
    listed: boolean("listed").generatedAlwaysAs(
      sql`parent_pull_id is null and deleted_at is null and type is distinct from 'SERVICING'`,
    ),
    serviceCreatedAt: timestamp("service_created_at", { withTimezone: true }),
    policyCount: integer("policy_count").notNull().default(0),
    totalPremiumCents: bigint("total_premium_cents", { mode: "number" }),
    nextExpiryDate: date("next_expiry_date", { mode: "string" }),
    policyTypes: text("policy_types").array().notNull().default([]),
    raw: sealedJsonb("raw").notNull(),
    /** Fields the app could not read as the spec describes: shown to admins, never fatal. */
    payloadProblems: sealedJsonb("payload_problems").notNull().default([]),
    contentHash: text("content_hash").notNull(),
    /**
     * Lower-cased words an agent may search by: names, emails, phones, account identifier,
     * carriers, policy numbers, VINs, addresses. Trigram-indexed for "contains" search.
     */
    searchText: text("search_text").notNull().default(""),
    /** Which version of the projection code filled these columns; older rows are redone at start. */
    projectionVersion: integer("projection_version").notNull().default(0),
    /** The agency's own funnel and assignment, never overwritten by the service's data. */
    stage: pullStage("stage").notNull().default("WORKING"),
    assigneeId: uuid("assignee_id").references(() => users.id, { onDelete: "set null" }),
    assignedAt: timestamp("assigned_at", { withTimezone: true }),
    /** Null until the assignee opens the pull: what makes a new assignment stand out. */
    assigneeSeenAt: timestamp("assignee_seen_at", { withTimezone: true }),
    /** WON: the premium the agency won, in cents (greater than zero). */
    wonPremiumCents: bigint("won_premium_cents", { mode: "number" }),
    /**
     * Who a WON pull is credited to in the reports: its assignee when it was marked won (or,
     * if unassigned, whoever marked it). Reassigning it afterwards does not move the credit.
     */
    wonCreditedTo: uuid("won_credited_to").references(() => users.id, { onDelete: "set null" }),
    /** The link (widget and public alias) the consumer came through, for reports by link. */
    widgetId: text("widget_id"),
    publicAlias: text("public_alias"),
    /** LOST: the agent's words. */
    lostReason: text("lost_reason"),
    /** LOST: why, as one of lib/workflow/lost-reasons.ts (PRICE, COVERAGE, SERVICE, NO_CONTACT, OTHER). */
    lostCategory: text("lost_category"),
    /** LOST: the carrier that won the account, and at what premium a year, when known. */
    lostToCarrier: text("lost_to_carrier"),
    lostToPremiumCents: bigint("lost_to_premium_cents", { mode: "number" }),
    stageChangedAt: timestamp("stage_changed_at", { withTimezone: true }),
    /**
     * The stage and its moment were carried over from an earlier pull of the account
     * (lib/workflow/carry-over.ts), not decided on this pull: the reports look for the earlier
     * decision only on these rows (a carried WON or LOST counts once, on the earlier pull).
     * Cleared when the stage is set by hand.
     */
    decisionCarried: boolean("decision_carried").notNull().default(false),
    /**
     * The first time someone worked the pull after it arrived (its assignee opened it, or its
     * stage, owner or premium changed by hand): the reports' time to first touch.
     */
    firstTouchedAt: timestamp("first_touched_at", { withTimezone: true }),
    /** When the speed-to-lead rule acted on this untouched pull (reassigned or raised), so it acts once. */
    speedToLeadAt: timestamp("speed_to_lead_at", { withTimezone: true }),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * When the pull last changed: new data from the service, or the agency's stage, owner or
     * premium (a trigger of migration 0036 keeps it for every writer). The API's `updated_since`.
     */
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("pulls_service_created_at_idx").on(t.serviceCreatedAt),
    index("pulls_sort_name_idx").on(t.sortName),
    index("pulls_status_idx").on(t.status),
    index("pulls_account_identifier_idx").on(t.accountIdentifier),
    index("pulls_parent_pull_id_idx").on(t.parentPullId),
    index("pulls_search_text_trgm_idx").using("gin", sql`${t.searchText} gin_trgm_ops`),
    index("pulls_total_premium_cents_idx").on(t.totalPremiumCents),
    index("pulls_next_expiry_date_idx").on(t.nextExpiryDate),
    index("pulls_provider_name_idx").on(t.providerName),
    index("pulls_type_idx").on(t.type),
    index("pulls_stage_idx").on(t.stage),
    index("pulls_assignee_id_idx").on(t.assigneeId),
    index("pulls_won_credited_to_idx").on(t.wonCreditedTo),
    index("pulls_stage_changed_at_idx").on(t.stage, t.stageChangedAt),
    index("pulls_policy_types_idx").using("gin", t.policyTypes),
    // The speed-to-lead rule's scan: new pulls nobody has worked and the rule has not acted on.
    index("pulls_untouched_idx")
      .on(t.createdAt)
      .where(sql`${t.firstTouchedAt} is null and ${t.speedToLeadAt} is null and ${t.listed}`),
    // The pull list's sorts (lib/pulls/queries.ts ordering()): each a partial index over listed
    // pulls (the `listed` column) in exactly the list's order, ties broken by pull id, so a page is read in order
    // and stops after 50 rows instead of sorting the whole book.
    index("pulls_list_created_idx")
      .on(t.serviceCreatedAt.desc().nullsLast(), t.pullId)
      .where(sql`${t.listed}`),
    index("pulls_list_name_idx")
      .on(t.sortName, t.pullId)
      .where(sql`${t.listed}`),
    index("pulls_list_premium_idx")
      .on(t.totalPremiumCents.desc().nullsLast(), t.pullId)
      .where(sql`${t.listed}`),
    index("pulls_list_expiry_idx")
      .on(t.nextExpiryDate, t.pullId)
      .where(sql`${t.listed}`),
    // The filters' choices (listPullFilterOptions): loose index scans, one probe per value.
    index("pulls_top_status_idx")
      .on(t.status)
      .where(sql`${t.listed}`),
    index("pulls_top_type_idx")
      .on(t.type)
      .where(sql`${t.listed}`),
    index("pulls_top_carrier_idx")
      .on(t.providerName, sql`coalesce(${t.providerFriendlyName}, ${t.providerName})`)
      .where(sql`${t.listed} and ${t.providerName} is not null`),
    // Also a report's drill-down to one combination of lines (lib/pulls/queries.ts ofLines):
    // its count, by stage, index-only.
    index("pulls_top_lines_idx")
      .on(t.policyTypes, t.stage, t.isArchived)
      .where(sql`${t.listed}`),
    // Counting the whole list, or the list without monitored pulls: a narrow index-only scan.
    index("pulls_list_count_idx")
      .on(t.isArchived, t.pullId)
      .where(sql`${t.listed}`),
    // The list's monitored filter (a few percent of pulls): its default order and its count,
    // archived or not, read from this small index alone instead of from the whole book.
    index("pulls_list_monitored_idx")
      .on(t.isArchived, t.serviceCreatedAt.desc().nullsLast(), t.pullId)
      .where(sql`${t.monitored} and ${t.listed}`),
    // The pulls the sync re-reads until the service calls them final (lib/ingest/pull-recheck.ts):
    // a handful, whatever the size of the book.
    index("pulls_not_final_idx")
      .on(t.fetchedAt)
      .where(sql`${t.status} not in (${sql.raw(FINAL_PULL_STATUSES_SQL)})`),
    // An account's pulls by id, index-only (account history).
    index("pulls_account_pull_idx").on(t.accountIdentifier, t.pullId),
    // Counting a filtered list (the "N linked accounts" beside every page): an index-only scan
    // of the listed pulls with every filtered column at hand, instead of reading the table.
    index("pulls_list_filter_idx")
      .on(
        t.isArchived,
        t.stage,
        t.status,
        t.assigneeId,
        t.type,
        t.providerName,
        t.serviceCreatedAt,
        t.nextExpiryDate,
        t.publicAlias,
        t.wonCreditedTo,
        t.stageChangedAt,
        t.accountIdentifier,
        t.pullId,
        t.policyTypes,
        t.totalPremiumCents,
      )
      .where(sql`${t.listed}`),
    // The reports' won premium by agent, period, carrier, line and link, and the median days to
    // win (lib/reports/queries.ts, one statement): an index-only scan of the WON pulls with every
    // column they group, filter or sum. decision_carried leads, so the pulls counted as they are
    // and the few carried decisions (compared with their account's earlier pulls) are two ranges.
    index("pulls_report_won_once_idx")
      .on(
        t.decisionCarried,
        t.stageChangedAt,
        t.wonCreditedTo,
        t.wonPremiumCents,
        t.providerName,
        t.providerFriendlyName,
        t.publicAlias,
        t.serviceCreatedAt,
        t.policyTypes,
      )
      .where(sql`${stageIsOf(t.stage, "WON")} and ${t.listed}`),
    // The close ratio: pulls decided (WON or LOST) in a range, by owner; the same two ranges.
    index("pulls_report_decided_once_idx")
      .on(t.decisionCarried, t.stageChangedAt, t.stage, t.wonCreditedTo, t.assigneeId, t.publicAlias, t.policyTypes)
      .where(sql`${stageInOf(t.stage, ["WON", "LOST"])} and ${t.listed}`),
    // The open pipeline (WORKING pulls of successful links, not archived): an index-only scan of
    // those pulls alone, by assignee, with the premium it sums and the columns it filters,
    // rather than a range of the wide pulls_list_filter_idx.
    index("pulls_report_open_idx")
      .on(t.assigneeId, t.totalPremiumCents, t.publicAlias, t.policyTypes)
      .where(sql`${stageIsOf(t.stage, "WORKING")} and ${t.status} = 'SUCCESS' and not ${t.isArchived} and ${t.listed}`),
    // A decision carried over to a refresh of its account (the reports count it once): the
    // earlier decision of the same account, stage and moment, found index-only.
    index("pulls_account_decision_idx")
      .on(t.accountIdentifier, t.stage, t.stageChangedAt, t.createdAt, t.pullId)
      .where(sql`${stageInOf(t.stage, ["WON", "LOST"])} and ${t.listed}`),
    // New linked accounts per period and the funnel of those pulls (lib/reports/queries.ts):
    // every listed pull's link date, status, assignee and stage, index-only.
    index("pulls_report_created_idx")
      .on(t.serviceCreatedAt, t.status, t.assigneeId, t.stage, t.publicAlias, t.policyTypes)
      .where(sql`${t.listed}`),
    // The reports' time to first touch by link and agent (lib/reports/sources.ts): the touched
    // arrivals of a range with every column the median reads, index-only.
    index("pulls_report_touch_idx")
      .on(t.serviceCreatedAt, t.publicAlias, t.assigneeId, t.firstTouchedAt, t.widgetId, t.pullId)
      .where(sql`${t.listed} and ${t.firstTouchedAt} is not null`),
    // My pulls (lib/workflow/my-pulls.ts) and the pull list filtered to one agent: the agent's own
    // listed pulls in the list's default order, their counts by stage and expiring policies
    // (index-only), and the new assignments the header counts on every page.
    index("pulls_mine_created_idx")
      .on(t.assigneeId, t.serviceCreatedAt.desc().nullsLast(), t.pullId)
      .where(sql`${t.listed}`),
    index("pulls_mine_stage_idx")
      .on(t.assigneeId, t.stage, t.nextExpiryDate, t.isArchived, t.pullId)
      .where(sql`${t.listed}`),
    index("pulls_mine_new_idx")
      .on(t.assigneeId, t.assignedAt)
      .where(sql`${t.listed} and ${t.assigneeSeenAt} is null`),
    // The access rule's "held" check (lib/pulls/visibility.ts): whether another top-level pull of
    // an account is assigned, asked of every unassigned row an agent's view reads; an index-only
    // probe into the assigned pulls alone.
    index("pulls_held_account_idx")
      .on(t.accountIdentifier, t.pullId)
      .where(sql`${t.parentPullId} is null and ${t.assigneeId} is not null`),
    // The public API's pull list (lib/api/pulls.ts): listed pulls by last change, keyset-paged.
    index("pulls_api_updated_idx")
      .on(t.updatedAt, t.pullId)
      .where(sql`${t.listed}`),
    check("pulls_won_premium_positive", sql`${t.wonPremiumCents} is null or ${t.wonPremiumCents} > 0`),
  ],
);

// Policies get their own projection so "expiring in 30 days" or "premium by line" are
// indexed queries rather than scans of the JSON snapshot.
export const policies = pgTable(
  "policies",
  {
    pullId: uuid("pull_id")
      .notNull()
      .references(() => pulls.pullId, { onDelete: "cascade" }),
    policyId: text("policy_id").notNull(),
    policyType: text("policy_type"),
    status: text("status"),
    carrierName: text("carrier_name"),
    carrierFriendlyName: text("carrier_friendly_name"),
    carrierPolicyNumber: text("carrier_policy_number"),
    totalPremiumCents: bigint("total_premium_cents", { mode: "number" }),
    effectiveDate: date("effective_date", { mode: "string" }),
    expiryDate: date("expiry_date", { mode: "string" }),
  },
  (t) => [
    primaryKey({ columns: [t.pullId, t.policyId] }),
    index("policies_expiry_date_idx").on(t.expiryDate),
    index("policies_policy_type_idx").on(t.policyType),
    index("policies_carrier_name_idx").on(t.carrierName),
  ],
);

// Earlier versions of a pull, kept when a fetch brings different content: the history behind
// "what changed" and a way back from a bad payload.
export const pullVersions = pgTable(
  "pull_versions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    pullId: uuid("pull_id")
      .notNull()
      .references(() => pulls.pullId, { onDelete: "cascade" }),
    contentHash: text("content_hash").notNull(),
    raw: sealedJsonb("raw").notNull(),
    /** When this version was fetched, and when a newer one replaced it. */
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull(),
    replacedAt: timestamp("replaced_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("pull_versions_pull_id_idx").on(t.pullId, t.replacedAt)],
);

export type PullRow = typeof pulls.$inferSelect;
export type PolicyRow = typeof policies.$inferSelect;
