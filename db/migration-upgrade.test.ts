import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createEmptyTestTarget, createTestDatabase } from "@/test/database";
import { migrationsFolderAsOf, migrateWith } from "@/test/migrations";
import { openDatabase, queryRows } from "./connect";
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
  const ledger = await queryRows<{ created_at: string | number }>(
    db,
    sql`select created_at from drizzle.__drizzle_migrations order by id`,
  );
  return { indexes, ledger: ledger.map((row) => String(row.created_at)) };
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
    it(
      `0010 as of ${commit}, then today's migrations: the same indexes and ledger as a fresh database`,
      { timeout: 120_000 },
      async () => {
        const folder = migrationsFolderAsOf(10, {
          tag: "0010_bench_indexes",
          when,
          text: readFileSync(path.join(FIXTURES, `0010_bench_indexes.${commit}.sql`), "utf8"),
        });
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
      },
    );
  }

  it("without the ledger fix, today's migrations would stop on the earlier 0010", { timeout: 120_000 }, async () => {
    const [first] = EARLIER_0010;
    if (!first) throw new Error("no fixture");
    const folder = migrationsFolderAsOf(10, {
      tag: "0010_bench_indexes",
      when: first.when,
      text: readFileSync(path.join(FIXTURES, `0010_bench_indexes.${first.commit}.sql`), "utf8"),
    });
    const { target, drop } = await createEmptyTestTarget();
    try {
      await migrateWith(target, folder);
      const failure: unknown = await migrateWith(target, MIGRATIONS).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(Error);
      expect(String((failure as Error).cause)).toMatch(/"pulls_list_created_idx" already exists/);
    } finally {
      await drop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
