import "server-only";
import { sql } from "drizzle-orm";
import { closeDb, getConnection as sharedConnection } from "@/db/client";
import { openDatabase, type Connection, type DatabaseTarget } from "@/db/connect";
import type { Db } from "@/db/types";
import { env, type Env } from "@/lib/env";
import { installSealedJsonCodec } from "@/lib/security/sealed-json-codec";
import { ownWriteOffset, rememberOwnWrite } from "@/lib/replicas/own-writes";
import { chooseRead, readFrom } from "@/lib/replicas/read-routing";
import { openReplicaSet, reasonOf, type ReplicaSet } from "@/lib/replicas/replica-set";

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

// The replicas (DATABASE_REPLICA_URLS), one set per process like the primary's pool, cached on
// globalThis for the same reason (dev reloads would leak pools).
type ReplicaCache = { key?: string; set?: ReplicaSet };
const replicaCache: ReplicaCache = ((
  globalThis as unknown as { __coverdeskReplicas?: ReplicaCache }
).__coverdeskReplicas ??= {});

/** The configured replicas, or null when there are none. */
export function getReplicaSet(): ReplicaSet | null {
  const urls = env().databaseReplicaUrls;
  if (urls.length === 0) return null;
  const key = urls.join(",");
  if (replicaCache.key !== key || !replicaCache.set) {
    installSealedJsonCodec();
    void replicaCache.set?.close();
    replicaCache.set = openReplicaSet(urls);
    replicaCache.key = key;
  }
  return replicaCache.set;
}

export async function closeReplicaSet(): Promise<void> {
  const set = replicaCache.set;
  replicaCache.set = undefined;
  replicaCache.key = undefined;
  await set?.close();
}

/**
 * A heavy read (a report, a CSV export, the X-date and cross-sell lists, the refresh forecast):
 * on a replica that has replayed this browser's last write, else on the primary. Other reads call
 * getDb(): the pages where a user acts on what they see read the primary.
 */
export async function withReadDb<T>(run: (db: Db) => Promise<T>): Promise<T> {
  const primary = await getDb();
  const replicas = getReplicaSet();
  if (!replicas) return run(primary);
  return readFrom(primary, replicas, await ownWriteOffset(), run);
}

/**
 * The database a streamed read (a list's CSV) holds a cursor on: the replica's own connection
 * when one has replayed this browser's last write, else the primary. A stream cannot be run again
 * on the primary once bytes have left, so unlike withReadDb a failure is the caller's.
 */
export async function streamReadDb(): Promise<Db> {
  const primary = await getDb();
  const replicas = getReplicaSet();
  if (!replicas) return primary;
  const choice = await chooseRead(primary, replicas, await ownWriteOffset());
  return choice.served === "replica" ? choice.replica.db : primary;
}

/**
 * After a user's write (the action and route guards call it): this browser's heavy reads wait for
 * a replica that has replayed it. Nothing without replicas; a failure here is logged, never the
 * user's (their write is done; at worst a report shows it a few milliseconds late).
 */
export async function rememberWrite(): Promise<void> {
  const config = env();
  if (config.databaseReplicaUrls.length === 0) return;
  try {
    await rememberOwnWrite(await getDb(), { secure: config.auth.url.startsWith("https://") });
  } catch (error) {
    console.warn(`[replicas] the position of a write was not remembered: ${reasonOf(error)}`);
  }
}
