import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { openDatabase, type Connection, type DatabaseTarget } from "@/db/connect";
import { readJournal } from "@/db/migration-history";
import { createEmptyTestTarget } from "./database";

// Databases as they were at an earlier point of the migration history, for tests of what the
// next migrations do to them.

const MIGRATIONS = path.join(process.cwd(), "drizzle");

/**
 * A temporary migrations folder with the committed migrations before `upTo` (by index), and,
 * if given, one more entry with its own text and journal time (e.g. an earlier text of a
 * migration that was rewritten). Remove it after use.
 */
export function migrationsFolderAsOf(upTo: number, extra?: { tag: string; when: number; text: string }): string {
  const folder = mkdtempSync(path.join(tmpdir(), "coverdesk-migrations-"));
  mkdirSync(path.join(folder, "meta"));
  const entries: Array<{ idx: number; version: string; when: number; tag: string; breakpoints: boolean }> = readJournal(
    MIGRATIONS,
  )
    .entries.filter((entry) => entry.idx < upTo)
    .map((entry) => ({ idx: entry.idx, version: "7", when: entry.when, tag: entry.tag, breakpoints: true }));
  for (const entry of entries)
    copyFileSync(path.join(MIGRATIONS, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  if (extra) {
    writeFileSync(path.join(folder, `${extra.tag}.sql`), extra.text);
    entries.push({ idx: entries.length, version: "7", when: extra.when, tag: extra.tag, breakpoints: true });
  }
  writeFileSync(
    path.join(folder, "meta", "_journal.json"),
    JSON.stringify({ version: "7", dialect: "postgresql", entries }),
  );
  return folder;
}

/** Applies a migrations folder the way the app did before db/migration-history.ts: drizzle's migrator alone. */
export async function migrateWith(
  target: DatabaseTarget,
  migrationsFolder: string,
  then?: (run: (statement: string) => Promise<unknown>) => Promise<void>,
): Promise<void> {
  if (target.kind === "postgres") {
    const client = postgres(target.url, { max: 1, onnotice: () => {} });
    try {
      await migratePostgres(drizzlePostgres(client), { migrationsFolder });
      if (then) await then((statement) => client.unsafe(statement));
    } finally {
      await client.end({ timeout: 5 });
    }
    return;
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const client = new PGlite(target.dir ?? "memory://", { extensions: { pg_trgm } });
  try {
    await migratePglite(drizzlePglite(client), { migrationsFolder });
    if (then) await then((statement) => client.exec(statement));
  } finally {
    await client.close();
  }
}

/**
 * A database that ran the migrations before `upTo`, then `seed` (rows as they were written
 * then), then every later migration as the app runs them at start: for a migration's backfill
 * of the data already there. `close` ends the connection and drops the database.
 */
export async function upgradedDatabase(
  upTo: number,
  seed: (run: (statement: string) => Promise<unknown>) => Promise<void>,
): Promise<{ connection: Connection; close: () => Promise<void> }> {
  const folder = migrationsFolderAsOf(upTo);
  const { target, drop } = await createEmptyTestTarget();
  try {
    await migrateWith(target, folder, seed);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  const connection = await openDatabase(target);
  return {
    connection,
    close: async () => {
      await connection.close();
      await drop();
    },
  };
}
