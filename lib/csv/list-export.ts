import "server-only";
import type { Db } from "@/db/types";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { toCsv, type Cell } from "./to-csv";

// A list downloaded as CSV (the pull list, the cross-sell list, the X-dates): the rows the viewer
// sees with the page's filters, each column named beside the cell it writes, and the export on
// the audit trail, since it is personal data leaving the app.

/** One file at most this long; a larger book is exported by narrowing the filters. */
export const MAX_EXPORT_ROWS = 50_000;

/** A column of the file: its header, and its cell of a row. */
export type CsvColumn<Row> = readonly [header: string, cell: (row: Row) => Cell];

/**
 * A small list's CSV built whole in memory. The list routes stream theirs (stream-export.ts); this
 * builder stays as the reference their bytes are tested against.
 */
export async function exportListCsv<Row extends { pullId: string }>(
  db: Db,
  actor: Actor,
  list: {
    /** What the audit trail names the export. */
    name: string;
    /** The filters it was taken with (the page number is not one). */
    filters: Record<string, unknown>;
    columns: ReadonlyArray<CsvColumn<Row>>;
    rows: Row[];
  },
): Promise<string> {
  const body = toCsv(
    list.columns.map(([header]) => header),
    list.rows.map((row) => list.columns.map(([, cell]) => cell(row))),
  );
  // Who took which slice of the book, and how much of it.
  // Each consumer in the file, for the incident-scope report.
  await recordAudit(db, actor, "CSV_EXPORTED", {
    pullIds: [...new Set(list.rows.map((row) => row.pullId))],
    details: { export: list.name, filters: { ...list.filters, page: undefined }, rows: list.rows.length },
  });
  return body;
}
