import "server-only";
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";

// The tables that only grow (the audit trail, the webhook inbox, monitoring events) are
// partitioned by month (migration 0044, docs/growth.md). A month's partition is made ahead of
// it, so rows land in their own month and the retention schedule can drop a whole old month;
// a row whose month has none goes to the table's DEFAULT partition, so no insert ever fails.

/** The tables partitioned by month, with the column each is partitioned by. */
export const MONTHLY_PARTITIONED = {
  audit_events: "at",
  webhook_events: "received_at",
  monitoring_events: "received_at",
} as const;
export type MonthlyPartitioned = keyof typeof MONTHLY_PARTITIONED;

/** How many months past the current one have their partitions ready. */
export const PARTITION_MONTHS_AHEAD = 3;

/**
 * Creates this month's partitions and the next `monthsAhead` months' of every such table (the
 * database's ensure_month_partitions, run as the tables' owner: the app's role may not create
 * tables). Answers how many it made: 0 when they were there.
 */
export async function ensureMonthPartitions(db: Db, monthsAhead: number = PARTITION_MONTHS_AHEAD): Promise<number> {
  const [row] = await queryRows<{ created: number | string }>(
    db,
    sql`select ensure_month_partitions(${monthsAhead}::int) as created`,
  );
  return Number(row?.created ?? 0);
}

export type MonthPartition = { name: string; rows: number; isDefault: boolean; from: Date | null; to: Date | null };

/** A table's partitions, oldest month first and DEFAULT last, with their row counts (exact: for tests and operators). */
export async function listMonthPartitions(db: Db, table: MonthlyPartitioned): Promise<MonthPartition[]> {
  const rows = await queryRows<{ name: string; bound: string }>(
    db,
    sql`select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
        from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = to_regclass(${table})`,
  );
  const partitions = await Promise.all(
    rows.map(async ({ name, bound }) => {
      const [count] = await queryRows<{ n: number | string }>(
        db,
        sql`select count(*) as n from ${sql.identifier(name)}`,
      );
      const range = /FROM \('([^']+)'\) TO \('([^']+)'\)/.exec(bound);
      return {
        name,
        rows: Number(count?.n ?? 0),
        isDefault: bound === "DEFAULT",
        from: range?.[1] ? new Date(range[1]) : null,
        to: range?.[2] ? new Date(range[2]) : null,
      };
    }),
  );
  return partitions.sort(
    (a, b) => Number(a.isDefault) - Number(b.isDefault) || (a.from?.getTime() ?? 0) - (b.from?.getTime() ?? 0),
  );
}
