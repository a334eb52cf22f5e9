import "server-only";
import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

// Reconciliation runs: paging through the service's pull list for pulls whose webhooks never
// came. One row per run, updated as it goes, so the admin page can show its progress.
export const syncRuns = pgTable(
  "sync_runs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** SCHEDULE or MANUAL. */
    trigger: text("trigger").notNull(),
    requestedBy: uuid("requested_by"),
    /** RUNNING, DONE or FAILED. */
    status: text("status").notNull().default("RUNNING"),
    /** Pulls created since this instant were asked for; null means all of them. */
    since: timestamp("since", { withTimezone: true }),
    total: integer("total"),
    listed: integer("listed").notNull().default(0),
    created: integer("created").notNull().default(0),
    updated: integer("updated").notNull().default(0),
    unchanged: integer("unchanged").notNull().default(0),
    invalid: integer("invalid").notNull().default(0),
    /** What the run is doing: PULLS (the list), STATUSES (pulls not final, re-read), MONITORINGS. */
    phase: text("phase"),
    /** Pulls not final re-read one by one, and how many of them the service now calls final. */
    rechecked: integer("rechecked").notNull().default(0),
    settled: integer("settled").notNull().default(0),
    /** Pulls still not final past the age after which they are no longer re-read. */
    gaveUp: integer("gave_up").notNull().default(0),
    /** The team's monitorings listed, those Coverdesk did not know, and those whose state moved. */
    monitorings: integer("monitorings").notNull().default(0),
    monitoringsFound: integer("monitorings_found").notNull().default(0),
    monitoringsChanged: integer("monitorings_changed").notNull().default(0),
    /** What the run skipped and why (an odd answer, a pull that could not be read), in words. */
    problems: jsonb("problems").$type<string[]>().notNull().default([]),
    error: text("error"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    // At most one run at a time, across every app instance sharing the database.
    uniqueIndex("sync_runs_one_running")
      .on(t.status)
      .where(sql`${t.status} = 'RUNNING'`),
    index("sync_runs_started_at_idx").on(t.startedAt),
  ],
);

export type SyncRunRow = typeof syncRuns.$inferSelect;

/**
 * When the sync last re-read a pull that is not final, and what went wrong if it could not:
 * the oldest check goes first, so a pull the service will not answer for does not hold up the rest.
 */
export const pullStatusChecks = pgTable("pull_status_checks", {
  pullId: uuid("pull_id").primaryKey(),
  checkedAt: timestamp("checked_at", { withTimezone: true }).notNull().defaultNow(),
  error: text("error"),
});
