import "server-only";
import { asc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { pullArchiveWrites, pulls } from "@/db/schema";
import { parsePull } from "@/lib/service/schemas";
import { PROJECTION_VERSION, projectPull } from "@/lib/pulls/projection";
import { isReadingType } from "@/lib/pulls/pull-types";
import { refreshAccountXDates } from "@/lib/xdates/store";
import { refreshHouseholdGaps } from "@/lib/cross-sell/store";

// When the projection code learns something new (a search column, a fixed premium rule), the
// rows stored by older code are recomputed from their raw payload, in batches, at start-up.
// The raw payload is the source of truth, so nothing needs to be fetched again.

export async function reprojectOutdatedPulls(db: Db, batchSize = 500): Promise<number> {
  let done = 0;
  for (;;) {
    const rows = await db
      .select({ pullId: pulls.pullId, raw: pulls.raw })
      .from(pulls)
      .where(lt(pulls.projectionVersion, PROJECTION_VERSION))
      .orderBy(asc(pulls.pullId))
      .limit(batchSize);
    if (rows.length === 0) return done;
    await db.transaction(async (tx) => {
      for (const row of rows) {
        const parsed = parsePull(row.raw);
        // A raw payload that no longer parses keeps its columns; it is only marked as visited.
        // The account a reading was joined to through its webhooks (lib/pulls/account-key.ts)
        // is not in its payload: kept, unless the payload names one.
        const set = parsed.ok
          ? {
              ...projectPull(parsed.pull),
              accountIdentifier: isReadingType(parsed.pull.type)
                ? sql`coalesce(${parsed.pull.account_identifier}::text, ${pulls.accountIdentifier})`
                : null,
            }
          : { projectionVersion: PROJECTION_VERSION };
        // An archive decision the service has not confirmed yet outranks the stored payload's flag.
        const archived =
          "isArchived" in set
            ? {
                isArchived: sql<boolean>`coalesce((select ${pullArchiveWrites.archived} from ${pullArchiveWrites} where ${pullArchiveWrites.pullId} = ${row.pullId}), ${set.isArchived})`,
              }
            : {};
        await tx
          .update(pulls)
          .set({ ...set, ...archived })
          .where(eq(pulls.pullId, row.pullId));
        // A pull found deleted at the service gives its account's X-dates and cross-sell row
        // back to the account's previous reading, as storePull does when it learns it.
        if (parsed.ok && parsed.pull.deleted_at !== null) {
          await refreshAccountXDates(tx, row.pullId);
          await refreshHouseholdGaps(tx, row.pullId);
        }
      }
    });
    done += rows.length;
  }
}
