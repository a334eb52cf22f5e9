import "server-only";
import { bigint, boolean, integer, pgTable, unique, uuid } from "drizzle-orm/pg-core";
import { pullStage } from "./pull-stage";

// The cross-sell page's counts kept as household_gaps changes (migration 0050), so an admin's or
// an office manager's counts sum a few thousand kept rows instead of grouping every household
// (docs/performance.md, "Cross-sell counts kept ahead").
//
// - cross_sell_count_deltas: what each statement on household_gaps changed, appended by
//   statement-level triggers (the rows it added counted +1, the rows it removed −1, grouped by
//   the key). No unique key on purpose: concurrent ingest workers each append their own rows and
//   never wait on one another's, as they would on a shared counter row.
// - cross_sell_counts: the deltas folded in, one row per key, by cross_sell_counts_fold()
//   (lib/cross-sell/kept-counts.ts calls it before reading). The fold is one at a time and skips
//   when another is running: readers read the counts and the deltas not yet folded together, which
//   is exact either way.
// Only listed households count (policy_count >= 1, as the list's LISTED). The key holds what the
// supported views filter on: the office viewer's access rule (office, assigned or not), the
// "unassigned" agent filter and the stage; the gap and policies filters are the page's arithmetic
// (lib/cross-sell/queries.ts countsOf) over policy_count and gap_mask.

const keyColumns = () => ({
  officeId: uuid("office_id"),
  /** Whether the household's pull has an assignee (the agent filter "unassigned", the office rule). */
  assigned: boolean("assigned").notNull(),
  stage: pullStage("stage").notNull(),
  policyCount: integer("policy_count").notNull(),
  gapMask: integer("gap_mask").notNull(),
});

const valueColumns = () => ({
  households: integer("households").notNull(),
  /** The sum of premium_in_play_cents (a household without one adds 0). */
  premium: bigint("premium", { mode: "number" }).notNull(),
});

export const crossSellCounts = pgTable("cross_sell_counts", { ...keyColumns(), ...valueColumns() }, (t) => [
  unique("cross_sell_counts_key").on(t.officeId, t.assigned, t.stage, t.policyCount, t.gapMask).nullsNotDistinct(),
]);

/** Appended by the triggers on household_gaps; emptied by the fold. */
export const crossSellCountDeltas = pgTable("cross_sell_count_deltas", { ...keyColumns(), ...valueColumns() });
