import "server-only";
import { and, asc, eq, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { policyXDates } from "@/db/schema";
import { getDb } from "@/lib/database";
import { ASSUMED_TERM_MONTHS, isoDay, rolled } from "./derive";
import { backfillXDates } from "./store";
import { backfillHouseholdGaps } from "@/lib/cross-sell/store";

// The daily upkeep: an X-date that has passed is rolled to the next renewal by its term (the
// same rule as at ingest, lib/xdates/derive.ts), so the list never shows a past day as coming.
// It runs in every app process, at start and then hourly (a few hundred rows a day at 100,000
// pulls; an update that finds nothing passed costs one index probe), and is idempotent, so two
// instances running it at once do the same harmless work. Between midnight (UTC) and the next
// run, yesterday's X-dates are simply out of the list's range, not shown wrong.

const CHECK_EVERY_MS = 60 * 60_000;
const BATCH = 1_000;
const globalUpkeep = globalThis as unknown as { __coverdeskXDateTimer?: NodeJS.Timeout };
const log = (line: string) => console.info(`[xdates] ${line}`);

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

/** At start: X-dates for pulls stored before the table existed, then the passed ones rolled; hourly after. */
export function startXDateUpkeep(): void {
  if (globalUpkeep.__coverdeskXDateTimer) return;
  const run = async (first: boolean) => {
    try {
      const db = await getDb();
      if (first) {
        const filled = await backfillXDates(db);
        if (filled > 0) log(`X-dates written for ${filled} pulls stored before them`);
        // The cross-sell rows of households stored before them, in the same first pass.
        const households = await backfillHouseholdGaps(db);
        if (households > 0) log(`cross-sell gaps written for ${households} households stored before them`);
      }
      const moved = await rollPassedXDates(db);
      if (moved > 0) log(`${moved} passed X-dates rolled to the next renewal`);
    } catch (error) {
      log(`upkeep failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  void run(true);
  globalUpkeep.__coverdeskXDateTimer = setInterval(() => void run(false), CHECK_EVERY_MS);
  globalUpkeep.__coverdeskXDateTimer.unref();
}

export function stopXDateUpkeep(): void {
  clearInterval(globalUpkeep.__coverdeskXDateTimer);
  globalUpkeep.__coverdeskXDateTimer = undefined;
}
