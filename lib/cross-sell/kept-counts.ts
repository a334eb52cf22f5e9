import "server-only";
import { and, eq, isNull, not, or, sql, type Column, type SQL } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { crossSellCountDeltas, crossSellCounts } from "@/db/schema";
import { primaryOf } from "@/lib/replicas/primary";
import type { ListViewer } from "@/lib/pulls/visibility";
import type { CrossSellQuery } from "./list-query";

// The cross-sell counts kept ahead (db/schema/cross-sell-counts.ts, migration 0050): an admin's
// or an office manager's counts sum the kept rows (a few thousand however large the book) instead
// of grouping every household they may see. The same groups come out as from the scan
// (lib/cross-sell/queries.ts), by number of policies and gap mask, so countsOf does the rest.

/** One group of the counts: households by number of policies and set of gaps, with their premium in play. */
export type CountGroup = { policyCount: number; gapMask: number; households: number; premium: number };

/** The key columns the views filter on, in the counts or in the deltas. */
type KeyColumns = { officeId: Column; assigned: Column; stage: Column };

/**
 * The kept rows a viewer may see; null when the kept counts cannot say. This is
 * lib/pulls/visibility.ts visibleRowsOf restated on the counts' key, which holds a household's
 * office and whether it is assigned but not who to: "all" sees every row; "office" sees the
 * office's rows and the agency-wide queue, rows of no office that nobody is assigned, which is
 * (office_id, assigned) exactly. An agent's own view also needs the assignee and whether another
 * pull of the account is held, which no count can keep: null, and the page scans.
 * lib/cross-sell/kept-counts.test.ts holds both kinds to the scan's answer.
 */
function keptRowsOf(viewer: ListViewer, t: KeyColumns): SQL | undefined | null {
  switch (viewer.kind) {
    case "all":
      return undefined;
    case "office":
      return or(eq(t.officeId, viewer.officeId), and(isNull(t.officeId), not(t.assigned)));
    case "own-or-unassigned":
      return null;
  }
}

/** The kept rows for the viewer and the agent and stage filters; null when the page must scan instead. */
function keptWhere(viewer: ListViewer, query: CrossSellQuery, t: KeyColumns): SQL | undefined | null {
  const visible = keptRowsOf(viewer, t);
  // An agent filter naming someone needs the assignee, which the key does not hold.
  if (visible === null || (query.agent !== undefined && query.agent !== "unassigned")) return null;
  return and(
    visible,
    query.agent === "unassigned" ? not(t.assigned) : undefined,
    query.stage ? eq(t.stage, query.stage) : undefined,
  );
}

/** Whether the kept counts answer this view (else the page counts by scanning the households). */
export function keptCountsServe(viewer: ListViewer, query: CrossSellQuery): boolean {
  return keptWhere(viewer, query, crossSellCounts) !== null;
}

/**
 * Moves the deltas appended since into the counts. It writes, so it runs on the primary even when
 * the page reads from a replica (the replica then reads counts and deltas as of its replay). When
 * another session is folding it returns at once (-1): the read adds the unfolded deltas anyway.
 * Answers how many count rows changed.
 */
export async function foldCrossSellCounts(db: Db): Promise<number> {
  const [row] = await queryRows<{ changed: number }>(primaryOf(db), sql`select cross_sell_counts_fold() as changed`);
  return Number(row?.changed ?? 0);
}

/**
 * The view's groups from the kept counts and the deltas not yet folded, in one statement (one
 * snapshot: a fold committing meanwhile moves rows from one side to the other, never both or
 * neither); null when the kept counts do not serve the view.
 */
export async function keptCountGroups(db: Db, viewer: ListViewer, query: CrossSellQuery): Promise<CountGroup[] | null> {
  const counts = keptWhere(viewer, query, crossSellCounts);
  const deltas = keptWhere(viewer, query, crossSellCountDeltas);
  if (counts === null || deltas === null) return null;
  await foldCrossSellCounts(db);
  const c = crossSellCounts;
  const d = crossSellCountDeltas;
  const rows = await queryRows<{ policy_count: number; gap_mask: number; households: string; premium: string }>(
    db,
    sql`select policy_count, gap_mask, sum(households) as households, sum(premium) as premium
        from (select ${c.policyCount}, ${c.gapMask}, ${c.households}, ${c.premium} from ${c} ${counts ? sql`where ${counts}` : sql``}
              union all
              select ${d.policyCount}, ${d.gapMask}, ${d.households}, ${d.premium} from ${d} ${deltas ? sql`where ${deltas}` : sql``}) kept
        group by policy_count, gap_mask
        having sum(households) <> 0`,
  );
  return rows.map((r) => ({
    policyCount: Number(r.policy_count),
    gapMask: Number(r.gap_mask),
    households: Number(r.households),
    premium: Number(r.premium),
  }));
}

/** Everything derived again from household_gaps: after a bulk load that set the triggers aside. */
export async function rebuildCrossSellCounts(db: Db): Promise<void> {
  await db.execute(sql`select cross_sell_counts_rebuild()`);
}
