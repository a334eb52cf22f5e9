import "server-only";
import { and, eq, gte, isNull, lt, or, sql, type Column, type SQL } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { xdateOptionDeltas, xdateOptionSums, xdateSumDeltas, xdateSums } from "@/db/schema";
import type { ListViewer } from "@/lib/pulls/visibility";
import type { XDateQuery } from "./xdates-query";

// The X-date page's figures read from the kept sums (db/schema/xdate-sums.ts) instead of a scan
// of the window, for the views the sums can answer: an admin's or an office manager's, filtered
// by nothing, a stage and/or the unassigned queue. Each read is sums UNION ALL the deltas not
// yet folded, in one statement (one snapshot), so it is exact whether the fold before it ran or
// was skipped. lib/xdates/queries.ts decides which path a view takes; its tests compare the two.

/** The columns every sums and deltas table has, whatever it counts. */
type KeptRows = { officeId: Column; assigned: Column };

/**
 * The access rule (lib/pulls/visibility.ts `visibleRowsOf`) asked of the sums: their condition,
 * undefined for every row, or null when the sums cannot say. Equivalent for the kinds answered:
 * "all" sees every row; "office" sees `office_id = its office OR (office_id IS NULL AND
 * assignee_id IS NULL)`, and the sums keep `assigned` as `assignee_id IS NOT NULL` with the row's
 * office, so the same rows are counted. An agent's queue ("own-or-unassigned") also leaves out the
 * rows of accounts another pull holds, a fact of other rows no sum keeps: the scan answers it.
 */
function keptAccess(viewer: ListViewer, rows: KeptRows): { where: SQL | undefined } | null {
  switch (viewer.kind) {
    case "all":
      return { where: undefined };
    case "office":
      return { where: or(eq(rows.officeId, viewer.officeId), and(isNull(rows.officeId), eq(rows.assigned, false))) };
    case "own-or-unassigned":
      return null;
  }
}

/** Parts of the query that are not filters: the range, the day the list shows, its page. */
const NOT_FILTERS = new Set<string>(["range", "day", "page"]);

/**
 * The query's filters as conditions on the sums (kept by stage and by assigned), or null when it
 * has one they do not keep (an agent, a line, a carrier, a link, or any filter added later).
 */
function keptFilters(query: XDateQuery, rows: KeptRows & { stage: Column }): SQL[] | null {
  const parts: SQL[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || NOT_FILTERS.has(key)) continue;
    if (key === "stage") parts.push(eq(rows.stage, value));
    else if (key === "agent" && value === "unassigned") parts.push(eq(rows.assigned, false));
    else return null;
  }
  return parts;
}

/** Whether the sums answer this view's figures (its days and the policies without an X-date). */
export function sumsAnswer(viewer: ListViewer, query: XDateQuery): boolean {
  return keptAccess(viewer, xdateSums) !== null && keptFilters(query, xdateSums) !== null;
}

/** Whether the sums answer this viewer's filter choices (read unfiltered whatever the query). */
export function sumsAnswerOptions(viewer: ListViewer): boolean {
  return keptAccess(viewer, xdateOptionSums) !== null;
}

type SumsTable = typeof xdateSums | typeof xdateSumDeltas;

/** The sums' rows of this view, in one of its two tables; throws for a view they cannot answer. */
function summedWhere(table: SumsTable, viewer: ListViewer, query: XDateQuery, extra: SQL): SQL {
  const access = keptAccess(viewer, table);
  const filters = keptFilters(query, table);
  if (!access || !filters) throw new Error("the X-date sums cannot answer this view");
  return and(extra, access.where, ...filters) as SQL;
}

type Window = { from: string; to: string };

const inDays = (table: { xDate: Column }, window: Window) =>
  and(gte(table.xDate, window.from), lt(table.xDate, window.to)) as SQL;

export type SummedDay = { day: string; count: number; premiumCents: number; unpriced: number };

/** Each day of the window with X-dates in view: how many, the premium at stake, how many state none. */
export async function readSummedDays(
  db: Db,
  viewer: ListViewer,
  query: XDateQuery,
  window: Window,
): Promise<SummedDay[]> {
  const part = (table: SumsTable) =>
    sql`select ${table.xDate} as x_date, ${table.count} as count, ${table.premiumCents} as premium, ${table.priced} as priced
        from ${table} where ${summedWhere(table, viewer, query, inDays(table, window))}`;
  const rows = await queryRows<{ day: string; count: number; premium: string | number; priced: number }>(
    db,
    sql`select s.x_date::text as day, sum(s.count)::int as count, sum(s.premium)::bigint as premium,
               sum(s.priced)::int as priced
        from (${part(xdateSums)} union all ${part(xdateSumDeltas)}) s
        group by s.x_date
        having sum(s.count) > 0
        order by s.x_date`,
  );
  return rows.map((r) => ({
    day: String(r.day),
    count: Number(r.count),
    premiumCents: Number(r.premium),
    unpriced: Number(r.count) - Number(r.priced),
  }));
}

/** The policies in view without an X-date, by reason, the most first. */
export async function readSummedWithoutXDate(
  db: Db,
  viewer: ListViewer,
  query: XDateQuery,
): Promise<Array<{ reason: string; count: number }>> {
  const part = (table: SumsTable) =>
    sql`select ${table.reason} as reason, ${table.count} as count
        from ${table} where ${summedWhere(table, viewer, query, isNull(table.xDate))}`;
  const rows = await queryRows<{ reason: string; count: number }>(
    db,
    sql`select s.reason, sum(s.count)::int as count
        from (${part(xdateSums)} union all ${part(xdateSumDeltas)}) s
        group by s.reason
        having sum(s.count) > 0
        order by 2 desc, 1`,
  );
  return rows.map((r) => ({ reason: String(r.reason), count: Number(r.count) }));
}

type OptionsTable = typeof xdateOptionSums | typeof xdateOptionDeltas;

/** The lines, carriers and links of the X-dates in view in the window, whatever the filters. */
export async function readSummedOptions(
  db: Db,
  viewer: ListViewer,
  window: Window,
): Promise<{ lines: string[]; carriers: string[]; links: string[] }> {
  const part = (table: OptionsTable) => {
    const access = keptAccess(viewer, table);
    if (!access) throw new Error("the X-date sums cannot answer this view");
    return sql`select ${table.kind} as kind, ${table.value} as value, ${table.count} as count
               from ${table} where ${and(inDays(table, window), access.where)}`;
  };
  const rows = await queryRows<{ kind: string; value: string }>(
    db,
    sql`select o.kind, o.value
        from (${part(xdateOptionSums)} union all ${part(xdateOptionDeltas)}) o
        group by o.kind, o.value
        having sum(o.count) > 0`,
  );
  const of = (kind: string) =>
    rows
      .filter((r) => r.kind === kind && r.value !== "")
      .map((r) => r.value)
      .sort();
  return { lines: of("line"), carriers: of("carrier"), links: of("link") };
}
