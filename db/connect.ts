import "server-only";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { sql, type SQL } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { forwardRewrittenMigrations } from "./migration-history";
import * as schema from "./schema";
import type { Db } from "./types";

// Opening and migrating a database, for either driver. Its settings come as arguments, not from
// the env module, so that tests, scripts and benchmarks open databases the same way the app
// does; they load it under the react-server condition (vitest through its server-only stub).

export type DatabaseTarget =
  | {
      kind: "postgres";
      url: string;
      maxConnections?: number;
      /** The tables' owner, to migrate with; `url` is then a role that may only use them (see grantAppRole). */
      migrationUrl?: string;
    }
  | { kind: "pglite"; dir: string | null /* null: in memory */ };

export type Connection = {
  db: Db;
  close: () => Promise<void>;
  kind: DatabaseTarget["kind"];
  /**
   * What the job runner (lib/jobs/runner.ts) connects through: the same PGlite (a second one on
   * the folder would corrupt it), or the PostgreSQL addresses (the owner's creates its schema).
   */
  driver: { kind: "pglite"; client: PGliteClient } | { kind: "postgres"; url: string; ownerUrl: string };
};

/** The embedded database's client, as the job runner uses it. */
export type PGliteClient = import("@electric-sql/pglite").PGlite;

const MIGRATIONS_FOLDER = path.join(process.cwd(), "drizzle");
// Any constant works; it only has to be the same for every instance of the app.
const MIGRATION_LOCK_KEY = 7_348_220_119;

export async function openDatabase(target: DatabaseTarget): Promise<Connection> {
  if (target.kind === "postgres") {
    const client = postgres(target.url, {
      max: target.maxConnections ?? 10,
      onnotice: () => {},
      // Reconnect within a second of the server coming back. The default backoff grows with
      // every failed attempt of the whole pool (3^n/100 s, up to 20 s), so a few seconds of
      // outage kept queries waiting up to 20 s after PostgreSQL was reachable again.
      backoff: reconnectDelaySeconds,
      // No JIT compilation: the app's statements are short, and on the larger ones (an agent's
      // view of 100,000 pulls) compiling took 13–16 ms of a query's time and saved none of it.
      connection: { jit: "off" },
    });
    const db = drizzlePostgres(client, { schema, casing: "snake_case" }) as unknown as Db;
    try {
      await migratePostgresLocked(target.migrationUrl ?? target.url, target.migrationUrl ? roleOf(target.url) : null);
    } catch (error) {
      await client.end({ timeout: 1 });
      throw error;
    }
    return {
      db,
      kind: "postgres",
      close: () => client.end({ timeout: 5 }),
      driver: { kind: "postgres", url: target.url, ownerUrl: target.migrationUrl ?? target.url },
    };
  }

  const { PGlite } = await import("@electric-sql/pglite");
  // Trigram indexes make the pull list's "contains" search fast; PostgreSQL ships the same extension.
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  if (target.dir) mkdirSync(target.dir, { recursive: true }); // PGlite does not create parents.
  const client = new PGlite(target.dir ?? "memory://", { extensions: { pg_trgm } });
  await client.waitReady;
  const db = drizzlePglite(client, { schema, casing: "snake_case" }) as unknown as Db;
  try {
    const migrator = drizzlePglite(client);
    await forwardRewrittenMigrationsIn(migrator as unknown as Db);
    await migratePglite(migrator, { migrationsFolder: MIGRATIONS_FOLDER });
  } catch (error) {
    await client.close();
    throw error;
  }
  return { db, kind: "pglite", close: () => client.close(), driver: { kind: "pglite", client } };
}

/** Jittered, doubling from 50 ms, capped at 1 s (postgres-js takes seconds). */
export function reconnectDelaySeconds(retries: number): number {
  return (0.5 + Math.random() / 2) * Math.min(0.05 * 2 ** retries, 1);
}

// Several app instances may start at once against one database: one migrates, the others
// wait on a session-level advisory lock held on a connection of its own.
async function migratePostgresLocked(url: string, appRole: string | null): Promise<void> {
  const lockClient = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await lockClient`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    const migrator = drizzlePostgres(lockClient);
    await forwardRewrittenMigrationsIn(migrator as unknown as Db);
    await migratePostgres(migrator, { migrationsFolder: MIGRATIONS_FOLDER });
    if (appRole && appRole !== roleOf(url)) await grantAppRole(lockClient, appRole);
    await lockClient`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
  } finally {
    await lockClient.end({ timeout: 5 });
  }
}

/** See db/migration-history.ts: a database that ran a landed migration's earlier text. */
async function forwardRewrittenMigrationsIn(db: Db): Promise<void> {
  const [ledger] = await queryRows<{ present: boolean }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  );
  if (!ledger?.present) return; // a new database
  for (const statement of forwardRewrittenMigrations(MIGRATIONS_FOLDER)) await db.execute(statement);
}

/**
 * What the app's own role may do, granted by the owner after every migration (so new tables are
 * covered): read and write the tables, but only read and append to the audit trail. Owning
 * nothing, it can neither TRUNCATE the trail nor drop the trigger that keeps it append-only. The
 * redisclosure log is kept the same way.
 */
async function grantAppRole(owner: postgres.Sql, role: string): Promise<void> {
  await owner.begin(async (tx) => {
    await tx`grant usage on schema public to ${tx(role)}`;
    await tx`grant select, insert, update, delete on all tables in schema public to ${tx(role)}`;
    await tx`revoke update, delete, truncate on audit_events from ${tx(role)}`;
    // The trail is partitioned by month (0044): "all tables" above named each partition too, and
    // a partition written to directly is guarded by its own privileges, not the parent's.
    const partitions = await tx<{ name: string }[]>`select c.relname as name from pg_inherits i
      join pg_class c on c.oid = i.inhrelid where i.inhparent = 'audit_events'::regclass`;
    for (const { name } of partitions) await tx`revoke all on ${tx(name)} from ${tx(role)}`;
    // The DPPA redisclosure log is kept five years: appended to, never edited nor removed.
    await tx`revoke update, delete, truncate on redisclosures from ${tx(role)}`;
    await tx`grant usage, select on all sequences in schema public to ${tx(role)}`;
  });
}

/** The tables of history that must outlive the app: nothing it runs may edit or remove their rows. */
export const HISTORY_TABLES = ["audit_events", "redisclosures"] as const;

/**
 * The tables of history this connection's role could rewrite: it owns one (and so could drop
 * its trigger or truncate it), or may UPDATE, DELETE or TRUNCATE it. Empty for the app's own
 * role as grantAppRole leaves it; every table for the owner or a superuser. PostgreSQL only:
 * the embedded database has one role, which owns everything.
 */
export async function rewritableHistoryTables(db: Db): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select distinct t.name from unnest(${sql.raw(`array[${HISTORY_TABLES.map((name) => `'${name}'`).join(", ")}]`)}) as t(name)
        join pg_class c on c.oid = to_regclass(t.name)
           or c.oid in (select i.inhrelid from pg_inherits i where i.inhparent = to_regclass(t.name))
        where pg_has_role(current_user, c.relowner, 'MEMBER')
           or has_table_privilege(current_user, c.oid, 'UPDATE')
           or has_table_privilege(current_user, c.oid, 'DELETE')
           or has_table_privilege(current_user, c.oid, 'TRUNCATE')
        order by t.name`,
  );
  return rows.map((row) => row.name);
}

function roleOf(url: string): string {
  return decodeURIComponent(new URL(url).username);
}

/** Rows of a raw query: PGlite answers `{rows}`, postgres-js an array. */
export async function queryRows<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
