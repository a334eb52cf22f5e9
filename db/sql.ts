import { getTableColumns, getTableName, sql, type Column, type SQL, type Table } from "drizzle-orm";

// Raw SQL names tables and columns through the schema, never as literals, so that a rename
// reaches every query and a typo does not type-check.

/**
 * A column named with its table, or with an alias of that table, in any query. Needed where
 * `${table.column}` is not enough: drizzle writes the columns of a one-table select list
 * unqualified, which inside a subquery over the same table would name the subquery's row.
 */
export function qualified(table: Table | string, column: Column): SQL {
  return sql`${sql.identifier(typeof table === "string" ? table : getTableName(table))}.${sql.identifier(column.name)}`;
}

/** A bare column name, for the targets of a raw UPDATE's SET or an INSERT's column list. */
export function columnName(column: Column): SQL {
  return sql`${sql.identifier(column.name)}`;
}

/**
 * `set` of an upsert that takes each named column from the row it tried to insert
 * (`excluded.<column>`), instead of sending every value a second time as parameters: a pull's
 * payload is tens of kilobytes, and repeating it doubled what each store wrote to the socket.
 */
export function fromExcluded<T extends Table, K extends keyof T["_"]["columns"] & string>(
  table: T,
  keys: readonly K[],
): Record<K, SQL> {
  const columns = getTableColumns(table);
  return Object.fromEntries(
    keys.map((key) => {
      const column = columns[key];
      if (!column) throw new Error(`${getTableName(table)} has no column ${key}.`);
      return [key, sql`excluded.${sql.identifier(column.name)}`];
    }),
  ) as Record<K, SQL>;
}
