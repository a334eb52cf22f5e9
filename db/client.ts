import "server-only";
import { openDatabase, type Connection, type DatabaseTarget } from "./connect";
import type { Db } from "./types";

// One database per process, cached on globalThis: dev reloads re-evaluate modules, and a
// second PGlite on the same folder would corrupt it, a second pool would leak connections.
// Which database is the caller's to say (lib/database.ts reads it from the environment); the
// first target opened stays the process's database.
type Cache = { connection?: Promise<Connection> };
const globalCache = globalThis as unknown as { __coverdeskDb?: Cache };
const cache: Cache = (globalCache.__coverdeskDb ??= {});

export function getConnection(target: DatabaseTarget): Promise<Connection> {
  if (!cache.connection) {
    cache.connection = openDatabase(target).catch((error: unknown) => {
      cache.connection = undefined; // let the next request try again instead of caching a failure
      throw error;
    });
  }
  return cache.connection;
}

/** The migrated database of this process. */
export async function getDb(target: DatabaseTarget): Promise<Db> {
  return (await getConnection(target)).db;
}

export async function closeDb(): Promise<void> {
  const pending = cache.connection;
  cache.connection = undefined;
  if (pending) await (await pending).close();
}
