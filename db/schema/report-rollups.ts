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
  unique,
  uuid,
} from "drizzle-orm/pg-core";

// The reports' figures kept as the data changes, so the reports page sums a few thousand rows
// instead of reading a million pulls (docs/performance.md, "Report rollups").
//
// - report_dirty: what changed. Triggers of migration 0046 on pulls and lost_decisions add the
//   account and pull of every row a statement inserts, deletes or changes in a column the
//   reports read, in that statement's transaction: no writer can forget it (the stage commands,
//   carry-over, ingest, erasure, disposal, the demo and the bench seed all write those tables).
// - report_facts: what each pull (and each standing loss) adds to the reports, one row per
//   contribution, as the view report_facts_now derives it from the base tables.
// - report_rollups: the facts summed by kind × day × agent × carrier × lines × link (× a loss's
//   reason and the carrier it went to).
//
// report_rollups_refresh() (lib/reports/rollups.ts, run before the reports read the sums and by
// erasure) takes the changed accounts, derives their facts again (a carried decision counts on
// the account's earlier pull, so a pull's facts depend on its account's other pulls) and moves
// the difference into the sums with INSERT … ON CONFLICT DO UPDATE. One refresh at a time (an
// advisory lock), each reading what was committed when it ran: a change committed meanwhile left
// its own mark in report_dirty for the next one, so the sums are exact at every refresh.
// reconcileReportRollups (lib/reports/rollup-reconcile.ts) recomputes everything and lists any
// difference.

/** The columns a contribution is summed by, shared by the facts and their sums. */
const keyColumns = () => ({
  /** won, lost, open (the pipeline, now: no day) or created (new linked accounts and the funnel). */
  kind: text("kind").notNull(),
  /** UTC day of the figure's moment: marked won, lost, or linked. */
  day: date("day", { mode: "string" }),
  /** won: credited to; lost: whose loss; open and created: the assignee. */
  agentId: uuid("agent_id"),
  /** won only: the carrier's name and how the reports label it. */
  carrier: text("carrier"),
  carrierName: text("carrier_name"),
  lines: text("lines").array().notNull(),
  link: text("link"),
  /** lost only: the loss's category and the carrier that won the account. */
  reason: text("reason"),
  lostTo: text("lost_to"),
});

const valueColumns = () => ({
  count: integer("count").notNull().default(0),
  /** created: linked successfully, assigned, worked and won (less carried decisions). */
  successful: integer("successful").notNull().default(0),
  assigned: integer("assigned").notNull().default(0),
  worked: integer("worked").notNull().default(0),
  won: integer("won").notNull().default(0),
  /** won: premium won; lost: premium lost to; open: the premium the service reports. */
  cents: bigint("cents", { mode: "number" }).notNull().default(0),
  /** lost: how many knew the premium they were lost at. */
  priced: integer("priced").notNull().default(0),
});

export const reportFacts = pgTable(
  "report_facts",
  {
    pullId: uuid("pull_id").notNull(),
    ...keyColumns(),
    ...valueColumns(),
  },
  (t) => [index("report_facts_pull_idx").on(t.pullId)],
);

export const reportRollups = pgTable(
  "report_rollups",
  {
    ...keyColumns(),
    ...valueColumns(),
  },
  (t) => [
    // The key, and the reports' range scan (kind, then days).
    unique("report_rollups_key")
      .on(t.kind, t.day, t.agentId, t.carrier, t.carrierName, t.lines, t.link, t.reason, t.lostTo)
      .nullsNotDistinct(),
    // Sums whose last fact went: the refresh deletes them through this.
    index("report_rollups_empty_idx")
      .on(t.kind)
      .where(sql`${t.count} = 0`),
  ],
);

/** Accounts and pulls changed since the last refresh (any account's pull_id: null account). */
export const reportDirty = pgTable("report_dirty", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  accountIdentifier: text("account_identifier"),
  pullId: uuid("pull_id").notNull(),
});

/**
 * One row (id 1): the rules page's refresh forecast (lib/monitoring/refresh-forecast.ts), as
 * computed at the end of the refresh-timing pass and after a rules change. Reading every active
 * monitoring and its renewals took seconds at a million pulls; the page shows this, "as of" it.
 */
export const refreshForecasts = pgTable("refresh_forecasts", {
  id: integer("id").primaryKey().default(1),
  forecast: jsonb("forecast").notNull(),
  leadTimeDays: integer("lead_time_days").notNull(),
  budget: integer("budget"),
  computedAt: timestamp("computed_at", { withTimezone: true }).notNull().defaultNow(),
});
