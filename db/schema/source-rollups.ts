import "server-only";
import { sql } from "drizzle-orm";
import { bigint, date, index, integer, pgTable, text, unique, uuid } from "drizzle-orm/pg-core";

// The reports' sources tables and medians kept as the data changes (migration 0048, beside the
// rollups of ./report-rollups.ts, marked dirty by the same triggers and brought up to date by the
// same report_rollups_refresh()):
// - report_source_facts: what each pull adds, as the view report_source_facts_now derives it;
// - report_source_rollups: those summed by kind × day × link × agent × lines (× widget) × bucket,
//   and again by month (kind "<kind>:month", day: the month's first), so a long range reads its
//   whole months from the month rows and only its ends from the days.
// A median is no sum, so the durations are kept as histograms: a count per bucket, the bucket
// being the duration as the page shows it (lib/reports/duration-buckets.ts), and the median is
// read from the cumulative counts (lib/reports/sources-from-rollups.ts).

const keyColumns = () => ({
  /**
   * arrived: an arrival (its account's first pull) with its counts; won: an arrival won (not a
   * carried copy), with its time to WON; touch: an arrival touched, with its time to the first
   * touch; won_days: any win the reports count, with its days from the link date to WON (the
   * headline's median).
   */
  kind: text("kind").notNull(),
  /** UTC day of the link date (won_days: of the moment it was marked won). */
  day: date("day", { mode: "string" }),
  link: text("link"),
  /** arrived, touch: the assignee; won, won_days: credited to. */
  agentId: uuid("agent_id"),
  lines: text("lines").array().notNull(),
  /** touch only: the link's widget, which the link's row shows. */
  widgetId: text("widget_id"),
  /** won, touch: seconds as the page shows them; won_days: tenths of a day. */
  bucket: integer("bucket"),
});

const valueColumns = () => ({
  count: integer("count").notNull().default(0),
  /** arrived: linked successfully, assigned (or decided), lost. */
  completed: integer("completed").notNull().default(0),
  assigned: integer("assigned").notNull().default(0),
  lost: integer("lost").notNull().default(0),
  /** won: the premium won. */
  cents: bigint("cents", { mode: "number" }).notNull().default(0),
});

export const reportSourceFacts = pgTable(
  "report_source_facts",
  {
    pullId: uuid("pull_id").notNull(),
    ...keyColumns(),
    ...valueColumns(),
  },
  (t) => [index("report_source_facts_pull_idx").on(t.pullId)],
);

export const reportSourceRollups = pgTable(
  "report_source_rollups",
  {
    ...keyColumns(),
    ...valueColumns(),
  },
  (t) => [
    // The key, and the reports' range scan (kind, then days).
    unique("report_source_rollups_key")
      .on(t.kind, t.day, t.link, t.agentId, t.lines, t.widgetId, t.bucket)
      .nullsNotDistinct(),
    // Sums whose last fact went: the refresh deletes them through this.
    index("report_source_rollups_empty_idx")
      .on(t.kind)
      .where(sql`${t.count} = 0`),
  ],
);
