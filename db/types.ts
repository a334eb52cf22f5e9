import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema";

export type Schema = typeof schema;

/**
 * The database as our queries see it: PostgreSQL (postgres-js) and PGlite both satisfy it,
 * and so does a transaction, so every `verbNoun(db, …)` can run inside a caller's transaction.
 */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
