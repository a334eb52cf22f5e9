import "server-only";
import { Column, is, sql, SQL } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";

// A long read taken in batches through a server-side cursor: the query runs once, in the order
// and with the rows the page's own query has, and the app holds one batch at a time. Keyset pages
// would need an "after this row" condition per sort (several columns, nulls last, both
// directions) that the list indexes could not all bound; the cursor reads the plan's index once.
// The cursor lives in a transaction: it holds one pooled connection and one snapshot for as long
// as the download takes.

/** Rows a batch fetches: about 1 MB of CSV for the widest list. */
export const EXPORT_BATCH_ROWS = 1_000;

/** Selected columns, each as the name its key has, so a raw row is read by key and not by position. */
export type Fields = Record<string, Column | SQL>;

export function aliased<F extends Fields>(fields: F): Record<keyof F, SQL.Aliased> {
  return Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, sql`${field}`.as(key)])) as Record<
    keyof F,
    SQL.Aliased
  >;
}

/** A raw row as the query builder would have returned it: each column mapped as its type maps it. */
export function decoded<Row>(fields: Fields, raw: Record<string, unknown>): Row {
  const row: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(fields)) {
    const value = raw[key];
    if (value === null || value === undefined) row[key] = null;
    else if (is(field, Column)) row[key] = field.mapFromDriverValue(value);
    else
      row[key] = (
        field as unknown as { decoder: { mapFromDriverValue(v: unknown): unknown } }
      ).decoder.mapFromDriverValue(value);
  }
  return row as Row;
}

/**
 * Runs `query` once and hands its rows to `each` in order, `batchRows` at a time; the next batch
 * is fetched only when `each` has resolved (the reader has taken the last one). `each` throwing
 * (the download was cancelled) closes the cursor and its transaction.
 */
export async function readInBatches(
  db: Db,
  query: SQL,
  each: (rows: Record<string, unknown>[]) => Promise<void>,
  batchRows = EXPORT_BATCH_ROWS,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`declare export_rows no scroll cursor for ${query}`);
    const fetch = sql.raw(`fetch ${Math.max(1, Math.trunc(batchRows))} from export_rows`);
    for (;;) {
      const rows = await queryRows(tx as unknown as Db, fetch);
      if (rows.length > 0) await each(rows);
      if (rows.length < batchRows) return;
    }
  });
}
