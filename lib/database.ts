import "server-only";
import { sql } from "drizzle-orm";
import { closeDb, getConnection as sharedConnection } from "@/db/client";
import { openDatabase, type Connection, type DatabaseTarget } from "@/db/connect";
import type { Db } from "@/db/types";
import { env, type Env } from "@/lib/env";
import { installSealedJsonCodec } from "@/lib/security/sealed-json-codec";

// The app's database, as the environment names it: PostgreSQL at DATABASE_URL, else the
// embedded PGlite in PGLITE_DIR. db/ takes its settings as arguments; this is where they come
// from, so pages, actions and the worker just ask for `getDb()`.

export { closeDb };

/** Where the configured database lives. */
export function databaseTarget(
  config: Pick<Env, "databaseUrl" | "databaseMigrationUrl" | "pgliteDir"> = env(),
): DatabaseTarget {
  const { databaseUrl, databaseMigrationUrl, pgliteDir } = config;
  return databaseUrl
    ? { kind: "postgres", url: databaseUrl, migrationUrl: databaseMigrationUrl ?? undefined }
    : { kind: "pglite", dir: pgliteDir };
}

export function getConnection(): Promise<Connection> {
  installSealedJsonCodec();
  return sharedConnection(databaseTarget());
}

/**
 * A connection of its own to the configured database, for a command line (`npm run user:save`,
 * `digest`, `privacy`): migrated, and with the key ring installed so sealed columns open.
 */
export async function openConfiguredDatabase(
  config: Parameters<typeof databaseTarget>[0] = env(),
): Promise<Connection> {
  installSealedJsonCodec();
  return openDatabase(databaseTarget(config));
}

/** The migrated database of this process. */
export async function getDb(): Promise<Db> {
  return (await getConnection()).db;
}

/**
 * What the liveness probe (GET /api/health) asks: can this process reach its database? Opening
 * the database (first start: migrations) counts; a failure is a plain no, its reason stays here.
 */
export async function databaseReachable(): Promise<boolean> {
  try {
    await (await getDb()).execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
