import "server-only";
import { sql } from "drizzle-orm";
import { bigint, boolean, date, index, integer, pgTable, text, unique, uuid } from "drizzle-orm/pg-core";
import { pullStage } from "./pull-stage";

// The X-date page's figures kept ahead (migration 0052), so its summary reads a few thousand
// sums instead of every X-date of the window (a quarter of the policies at any size):
//
// - xdate_sums: policy_xdates counted by x-date × (for the rows without one) reason × office ×
//   assigned or not × stage, with the premium at stake and how many state one. The dimensions are
//   what the summary's supported views need: the access rule of admins and office managers
//   (office, assigned), and the filters stage and "unassigned".
// - xdate_option_sums: the lines, carriers and links found on each x-date, by office and
//   assigned, counted (the filters' choices).
//
// Statement triggers on policy_xdates append what each statement changed to the *_deltas
// tables, which have no key: concurrent writers (ingest workers storing pulls side by side)
// only ever append there, so they never wait on each other for a sums row. xdate_sums_fold()
// moves the deltas into the sums, one fold at a time (an advisory lock; a reader that finds a
// fold running skips its own); readers read sums UNION ALL deltas, exact whether or not a fold
// ran. lib/xdates/summed.ts reads them; xdate_sums_rebuild() derives everything again.

const sumKey = () => ({
  xDate: date("x_date", { mode: "string" }),
  /** Why there is no X-date (NO_EXPIRY when unsaid); null on rows with one. */
  reason: text("reason"),
  officeId: uuid("office_id"),
  assigned: boolean("assigned").notNull(),
  stage: pullStage("stage").notNull(),
});

const sumValues = () => ({
  count: integer("count").notNull(),
  /** The sum of annual_premium_cents, and how many rows state one. */
  premiumCents: bigint("premium_cents", { mode: "number" }).notNull(),
  priced: integer("priced").notNull(),
});

export const xdateSums = pgTable("xdate_sums", { ...sumKey(), ...sumValues() }, (t) => [
  // The key, and the readers' range of days (the rows without an X-date: x_date is null).
  unique("xdate_sums_key").on(t.xDate, t.reason, t.officeId, t.assigned, t.stage).nullsNotDistinct(),
  // Sums whose last row went: the fold deletes them through this.
  index("xdate_sums_empty_idx")
    .on(t.xDate)
    .where(sql`${t.count} = 0`),
]);

/** What statements on policy_xdates added (+) and removed (−), not yet folded into xdate_sums. */
export const xdateSumDeltas = pgTable("xdate_sum_deltas", { ...sumKey(), ...sumValues() });

const optionKey = () => ({
  xDate: date("x_date", { mode: "string" }).notNull(),
  officeId: uuid("office_id"),
  assigned: boolean("assigned").notNull(),
  /** line, carrier or link. */
  kind: text("kind").notNull(),
  value: text("value").notNull(),
});

export const xdateOptionSums = pgTable(
  "xdate_option_sums",
  { ...optionKey(), count: integer("count").notNull() },
  (t) => [
    unique("xdate_option_sums_key").on(t.xDate, t.officeId, t.assigned, t.kind, t.value).nullsNotDistinct(),
    index("xdate_option_sums_empty_idx")
      .on(t.xDate)
      .where(sql`${t.count} = 0`),
  ],
);

export const xdateOptionDeltas = pgTable("xdate_option_deltas", { ...optionKey(), count: integer("count").notNull() });
