import "server-only";
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { primaryOf } from "@/lib/replicas/primary";

// The X-date sums (db/schema/xdate-sums.ts, migration 0052): every write to policy_xdates
// appends its difference to the deltas, in its own transaction, so no writer can forget it and
// none waits on another; these move the deltas into the sums. Readers fold first, then read sums
// and deltas together (lib/xdates/summed.ts), so a fold that was skipped loses nothing.

/**
 * Moves the committed deltas into the sums, on the primary even when the page reads a replica.
 * Answers how many sums rows it wrote, or -1 when another session was folding (it does not wait:
 * the reader reads the deltas beside the sums instead).
 */
export async function foldXDateSums(db: Db): Promise<number> {
  const [row] = await queryRows<{ written: number }>(primaryOf(db), sql`select xdate_sums_fold() as written`);
  return Number(row?.written ?? 0);
}

/** Everything derived again from policy_xdates: after a bulk load that set the triggers aside. */
export async function rebuildXDateSums(db: Db): Promise<void> {
  await db.execute(sql`select xdate_sums_rebuild()`);
}
