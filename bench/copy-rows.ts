// Rows as PostgreSQL's COPY text format, encoded by the drizzle schema's own column mappers
// (jsonb, arrays, timestamps exactly as an INSERT through drizzle would send them), so a COPY
// writes the same values as `db.insert(table).values(rows)`.
import { getTableColumns, getTableName, is, SQL, type Table } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";

/** A value already in the driver's text form (JSON serialized once, for hashing and storing). */
export class DriverText {
  constructor(readonly text: string) {}
}

type AnyColumn = PgColumn & { defaultFn?: () => unknown };

export type CopyPlan = {
  table: string;
  columns: string[];
  keys: string[];
  encoders: Array<(row: Record<string, unknown>) => string>;
};

/**
 * COPY text: backslash, newline, carriage return and tab escaped; null as \N. One pass per
 * character that occurs, with a plain string as the replacement: every pull's payload JSON (some
 * 27 kB) goes through here, and with a function called per match this was 5% of a worker's
 * profile. Backslashes first, so the escapes added after are not doubled.
 */
export function escapeCopy(value: string): string {
  if (!/[\\\n\r\t]/.test(value)) return value;
  let out = value.includes("\\") ? value.replaceAll("\\", "\\\\") : value;
  if (out.includes("\n")) out = out.replaceAll("\n", "\\n");
  if (out.includes("\r")) out = out.replaceAll("\r", "\\r");
  if (out.includes("\t")) out = out.replaceAll("\t", "\\t");
  return out;
}

/** Every column but the serial and generated ones (the database writes those), in the schema's order. */
export function copyPlan(table: Table): CopyPlan {
  const entries = Object.entries(getTableColumns(table) as Record<string, AnyColumn>).filter(
    ([, c]) => !/Serial/.test(c.columnType) && !c.generated,
  );
  const encoders = entries.map(([key, column]) => (row: Record<string, unknown>) => {
    let value = row[key];
    if (value === undefined) {
      // What an INSERT leaving the column out would store.
      if (column.defaultFn) value = column.defaultFn();
      else if (column.default !== undefined && !is(column.default, SQL)) value = column.default;
      else if (column.default !== undefined && column.columnType === "PgTimestamp")
        value = new Date(); // defaultNow()
      else value = null;
    }
    if (value === null) return "\\N";
    if (value instanceof DriverText) return escapeCopy(value.text);
    const driver = column.mapToDriverValue(value);
    return escapeCopy(
      typeof driver === "string" ? driver : driver instanceof Date ? driver.toISOString() : String(driver),
    );
  });
  return {
    table: getTableName(table),
    columns: entries.map(([, c]) => c.name),
    keys: entries.map(([k]) => k),
    encoders,
  };
}

export function copyText(plan: CopyPlan, rows: Array<Record<string, unknown>>): string {
  let out = "";
  for (const row of rows) {
    let line = "";
    for (let i = 0; i < plan.encoders.length; i++)
      line += (i === 0 ? "" : "\t") + (plan.encoders[i] as (r: Record<string, unknown>) => string)(row);
    out += `${line}\n`;
  }
  return out;
}

/** The statement that reads `copyText` output. */
export function copyStatement(plan: CopyPlan): string {
  return `copy "${plan.table}" (${plan.columns.map((c) => `"${c}"`).join(", ")}) from stdin`;
}
