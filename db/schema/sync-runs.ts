import "server-only";
import { sql } from "drizzle-orm";
import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

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
