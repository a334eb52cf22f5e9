import "server-only";
import { gt } from "drizzle-orm";
import type { Db } from "@/db/types";
import { policyXDates, pulls } from "@/db/schema";
import { isoDay } from "./derive";
import { xdateRowsOf } from "./rows";
import { backfillDerivedRows, refreshDerivedRows, type DerivedRows, type StoredPull } from "@/lib/pulls/derived-rows";

// Keeps policy_xdates in step with the pulls: called in the transaction that stores a pull
// (lib/ingest/store-pull.ts), so the X-dates change with the data they come from. An account's
// X-dates are those of its newest successful top-level pull: a monitoring refresh replaces the
// rows of the pull before it (nothing counts twice), and a refresh that failed (the consumer
// must reconnect) leaves the last good ones in place.

type XDateInsert = typeof policyXDates.$inferInsert;

/** The pull's assignee, office, stage and link, copied beside each X-date so the list reads this table alone. */
const copied = {
  assigneeId: pulls.assigneeId,
  officeId: pulls.officeId,
  stage: pulls.stage,
  publicAlias: pulls.publicAlias,
};

/** policy_xdates as a table derived per account (lib/pulls/derived-rows.ts): one row a policy. */
const xdates: DerivedRows<XDateInsert, typeof copied> = {
  lock: "xdates",
  table: policyXDates,
  pullId: policyXDates.pullId,
  accountIdentifier: policyXDates.accountIdentifier,
  copied,
  backfillOnly: gt(pulls.policyCount, 0),
  unparsable: "drop",
  rowsOf: ({ pull, raw, pullId, accountIdentifier, assigneeId, officeId, stage, publicAlias }, today) =>
    xdateRowsOf(pull, raw, today).map((row) => ({
      ...row,
      pullId,
      accountIdentifier,
      assigneeId,
      officeId,
      stage,
      publicAlias,
    })),
  write: async (tx, rows) => {
    await tx.insert(policyXDates).values(rows).onConflictDoNothing();
  },
};

/**
 * Rewrites the X-dates of the account `pullId` belongs to. `stored` is the pull just stored,
 * already parsed (saves parsing it again when it is the newest).
 */
export function refreshAccountXDates(
  tx: Db,
  pullId: string,
  stored?: StoredPull,
  today: string = isoDay(),
): Promise<void> {
  return refreshDerivedRows(tx, xdates, pullId, today, stored);
}

/**
 * X-dates for pulls stored before this table existed (or by a bulk load that bypassed
 * storePull, like the benchmark's seed): every account's newest successful pull without rows
 * gets them. Answers how many accounts were written.
 */
export function backfillXDates(db: Db, batchSize = 500, today: string = isoDay()): Promise<number> {
  return backfillDerivedRows(db, xdates, today, batchSize);
}
