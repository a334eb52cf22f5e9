import "server-only";
import { and, asc, eq, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { policyXDates } from "@/db/schema";
import { ASSUMED_TERM_MONTHS, isoDay, rolled } from "./derive";

// The daily upkeep: an X-date that has passed is rolled to the next renewal by its term (the
// same rule as at ingest, lib/xdates/derive.ts), so the list never shows a past day as coming.
// It is a job (lib/jobs/catalog.ts), at start and then hourly (a few hundred rows a day at 100,000
// pulls; an update that finds nothing passed costs one index probe), and is idempotent, so a
// retried run does the same harmless work. Between midnight (UTC) and the next
// run, yesterday's X-dates are simply out of the list's range, not shown wrong.

const BATCH = 1_000;

/** Rolls every passed X-date forward; answers how many rows moved. */
export async function rollPassedXDates(db: Db, today: string = isoDay()): Promise<number> {
  let moved = 0;
  for (;;) {
    const rows = await db
      .select({
        pullId: policyXDates.pullId,
        policyId: policyXDates.policyId,
        expiryDate: policyXDates.expiryDate,
        xDate: policyXDates.xDate,
        termMonths: policyXDates.termMonths,
        basis: policyXDates.basis,
      })
      .from(policyXDates)
      .where(and(isNotNull(policyXDates.xDate), lt(policyXDates.xDate, today)))
      .orderBy(asc(policyXDates.xDate))
      .limit(BATCH);
    if (rows.length === 0) return moved;
    await db.transaction(async (tx) => {
      for (const row of rows) {
        const anchor = row.expiryDate ?? row.xDate ?? today;
        // The term read at ingest; without one, the usual twelve months, said to be estimated.
        const next = rolled(anchor, row.basis === "ESTIMATED" ? null : row.termMonths, today);
        await tx
          .update(policyXDates)
          .set({
            xDate: next.xDate,
            basis: next.basis,
            termMonths: next.termMonths ?? ASSUMED_TERM_MONTHS,
            note: next.note,
            updatedAt: sql`now()`,
          })
          .where(and(eq(policyXDates.pullId, row.pullId), eq(policyXDates.policyId, row.policyId)));
      }
    });
    moved += rows.length;
  }
}
