import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { primaryOf } from "@/lib/replicas/primary";

// The reports' rollups (db/schema/report-rollups.ts, migration 0046): the database marks what
// each write changed, in the write's own transaction; these bring the sums up to date. Every
// reader of the sums refreshes first, so a report shows every change committed before it.
// The refresh writes, so it runs on the primary even when the report is read from a replica.

/**
 * The sums with every committed change in them: the changed accounts' facts derived again and
 * the difference added. Waits for a refresh running elsewhere; answers how many pulls it redid.
 * Inside a transaction it also takes that transaction's own changes (erasure relies on it).
 */
export async function refreshReportRollups(db: Db): Promise<number> {
  const result: unknown = await primaryOf(db).execute(sql`select report_rollups_refresh() as redone`);
  const rows = Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? []);
  return Number((rows[0] as { redone?: number } | undefined)?.redone ?? 0);
}

/** Everything derived again from the base tables: after a bulk load that set the triggers aside. */
export async function rebuildReportRollups(db: Db): Promise<void> {
  await db.execute(sql`select report_rollups_rebuild()`);
}
