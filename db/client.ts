import "server-only";
import { env } from "@/lib/env";
import { openDatabase, type Connection } from "./connect";
import type { Db } from "./types";

// One database per process, cached on globalThis: dev reloads re-evaluate modules, and a
// second PGlite on the same folder would corrupt it, a second pool would leak connections.
type Cache = { connection?: Promise<Connection> };
const globalCache = globalThis as unknown as { __coverdeskDb?: Cache };
const cache: Cache = (globalCache.__coverdeskDb ??= {});

export function getConnection(): Promise<Connection> {
  if (!cache.connection) {
    const { databaseUrl, databaseMigrationUrl, pgliteDir } = env();
    cache.connection = openDatabase(
      databaseUrl ? { kind: "postgres", url: databaseUrl, migrationUrl: databaseMigrationUrl ?? undefined } : { kind: "pglite", dir: pgliteDir },
    ).catch((error: unknown) => {
      cache.connection = undefined; // let the next request try again instead of caching a failure
      throw error;
    });
  }
  return cache.connection;
}

/** The migrated database of this process. */
export async function getDb(): Promise<Db> {
  return (await getConnection()).db;
}

export async function closeDb(): Promise<void> {
  const pending = cache.connection;
  cache.connection = undefined;
  if (pending) await (await pending).close();
}
