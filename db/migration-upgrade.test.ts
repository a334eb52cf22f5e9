import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { beforeAll, describe, expect, it } from "vitest";
import { createEmptyTestTarget, createTestDatabase } from "@/test/database";
import { openDatabase, queryRows, type DatabaseTarget } from "./connect";
import { readJournal } from "./migration-history";
import type { Db } from "./types";

// A database that applied an earlier text of 0010_bench_indexes (taken from git history, with
// the journal entry it had then) and is then started with today's migrations ends exactly
// where a fresh database does: the same indexes, definition by definition, and the same
// migration ledger.

const MIGRATIONS = path.join(process.cwd(), "drizzle");
const FIXTURES = path.join(process.cwd(), "test", "fixtures", "migrations");
const EARLIER_0010 = [
  { commit: "0f7dfca", when: 1795441914860 },
  { commit: "28e3c73", when: 1795442422550 },
];

type Snapshot = { indexes: Array<{ indexname: string; indexdef: string }>; ledger: string[] };

async function snapshotOf(db: Db): Promise<Snapshot> {
  const indexes = await queryRows<{ indexname: string; indexdef: string }>(
    db,
    sql`select indexname, indexdef from pg_indexes where schemaname = 'public' order by indexname`,
  );
  const ledger = await queryRows<{ created_at: string | number }>(db, sql`select created_at from drizzle.__drizzle_migrations order by id`);
  return { indexes, ledger: ledger.map((row) => String(row.created_at)) };
}

/** A migrations folder as it was when 0010 had the given text: 0000–0009 and that 0010. */
function folderWithEarlier0010(commit: string, when: number): string {
  const folder = mkdtempSync(path.join(tmpdir(), "coverdesk-0010-"));
  mkdirSync(path.join(folder, "meta"));
  const entries = readJournal(MIGRATIONS).entries.filter((entry) => entry.idx < 10);
  for (const entry of entries) copyFileSync(path.join(MIGRATIONS, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  writeFileSync(path.join(folder, "0010_bench_indexes.sql"), readFileSync(path.join(FIXTURES, `0010_bench_indexes.${commit}.sql`)));
  const journal = { version: "7", dialect: "postgresql", entries: [...entries, { idx: 10, version: "7", when, tag: "0010_bench_indexes", breakpoints: true }] };
  writeFileSync(path.join(folder, "meta", "_journal.json"), JSON.stringify(journal));
  return folder;
}

/** Applies a migrations folder the way the app did at the time: drizzle's migrator, nothing else. */
async function migrateWith(target: DatabaseTarget, migrationsFolder: string): Promise<void> {
  if (target.kind === "postgres") {
    const client = postgres(target.url, { max: 1, onnotice: () => {} });
    try {
      await migratePostgres(drizzlePostgres(client), { migrationsFolder });
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
  } finally {
    await client.close();
  }
}

describe("databases that applied an earlier 0010_bench_indexes", () => {
  let fresh: Snapshot;
  beforeAll(async () => {
    const database = await createTestDatabase();
    try {
      fresh = await snapshotOf(database.db);
    } finally {
      await database.close();
    }
  });

  it("the fixtures are what git history holds, and differ from today's text", () => {
    const today = readFileSync(path.join(MIGRATIONS, "0010_bench_indexes.sql"), "utf8");
    for (const { commit } of EARLIER_0010) {
      const text = readFileSync(path.join(FIXTURES, `0010_bench_indexes.${commit}.sql`), "utf8");
      expect(text, commit).toMatch(/^CREATE INDEX "pulls_list_created_idx"/);
      expect(text, commit).not.toBe(today);
    }
  });

  for (const { commit, when } of EARLIER_0010) {
    it(`0010 as of ${commit}, then today's migrations: the same indexes and ledger as a fresh database`, { timeout: 120_000 }, async () => {
      const folder = folderWithEarlier0010(commit, when);
      const { target, drop } = await createEmptyTestTarget();
      try {
        await migrateWith(target, folder);
        const connection = await openDatabase(target);
        try {
          const upgraded = await snapshotOf(connection.db);
          expect(upgraded.indexes).toEqual(fresh.indexes);
          expect(upgraded.ledger).toEqual(fresh.ledger);
        } finally {
          await connection.close();
        }
        // Starting again changes nothing.
        const again = await openDatabase(target);
        try {
          expect((await snapshotOf(again.db)).indexes).toEqual(fresh.indexes);
        } finally {
          await again.close();
        }
      } finally {
        await drop();
        rmSync(folder, { recursive: true, force: true });
      }
    });
  }

  it("without the ledger fix, today's migrations would stop on the earlier 0010", { timeout: 120_000 }, async () => {
    const [first] = EARLIER_0010;
    if (!first) throw new Error("no fixture");
    const folder = folderWithEarlier0010(first.commit, first.when);
    const { target, drop } = await createEmptyTestTarget();
    try {
      await migrateWith(target, folder);
      const failure: unknown = await migrateWith(target, MIGRATIONS).then(() => null, (error: unknown) => error);
      expect(failure).toBeInstanceOf(Error);
      expect(String((failure as Error).cause)).toMatch(/"pulls_list_created_idx" already exists/);
    } finally {
      await drop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
