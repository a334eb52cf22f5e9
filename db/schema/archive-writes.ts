import "server-only";
import { boolean, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { pulls } from "./pulls";

// Archive decisions made in Coverdesk that the service has not confirmed yet (its
// `PATCH /pulls/{id} {is_archived}`): one row per pull, written with the local archive in one
// transaction, deleted once the service has it. While a row is here, a fetched pull keeps the
// agency's decision instead of the service's older flag (lib/pulls/archive.ts).
export const pullArchiveWrites = pgTable(
  "pull_archive_writes",
  {
    pullId: uuid("pull_id")
      .primaryKey()
      .references(() => pulls.pullId, { onDelete: "cascade" }),
    archived: boolean("archived").notNull(),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    /** Null: parked (the service refused it for good); it waits for the next decision on the pull. */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).defaultNow(),
    lastError: text("last_error"),
  },
  (t) => [index("pull_archive_writes_due_idx").on(t.nextAttemptAt)],
);

export type PullArchiveWriteRow = typeof pullArchiveWrites.$inferSelect;
