import { rmSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmptyTestTarget, createTestDatabase, type TestDatabase } from "@/test/database";
import { migrateWith, migrationsFolderAsOf } from "@/test/migrations";
import { openDatabase, queryRows } from "./connect";
import { PULL_STAGES, pulls } from "./schema";
import type { Db } from "./types";

// pulls.stage is the pull_stage enum, whose values are the list the app uses everywhere.

const indexesOf = (db: Db) =>
  queryRows<{ indexname: string; indexdef: string }>(
    db,
    sql`select indexname, indexdef from pg_indexes where schemaname = 'public' order by indexname`,
  );

describe("the pull stage", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it("is a database enum with the app's values, in the app's order", async () => {
    const [column] = await queryRows<{ udt_name: string; column_default: string }>(
      database.db,
      sql`select udt_name, column_default from information_schema.columns where table_name = 'pulls' and column_name = 'stage'`,
    );
    expect(column?.udt_name).toBe("pull_stage");
    expect(column?.column_default).toMatch(/^'WORKING'::pull_stage$/);
    const labels = await queryRows<{ enumlabel: string }>(
      database.db,
      sql`select enumlabel from pg_enum where enumtypid = 'pull_stage'::regtype order by enumsortorder`,
    );
    expect(labels.map((l) => l.enumlabel)).toEqual([...PULL_STAGES]);
  });

  it("refuses a value outside the list", async () => {
    await expect(
      database.db
        .execute(sql`insert into ${pulls} (${sql.identifier(pulls.pullId.name)}, ${sql.identifier(pulls.status.name)}, ${sql.identifier(pulls.raw.name)}, ${sql.identifier(pulls.contentHash.name)}, ${sql.identifier(pulls.stage.name)})
        values (${randomUUID()}, 'SUCCESS', '{}'::jsonb, 'x', 'MAYBE')`),
    ).rejects.toThrow();
  });

  it("0014 converts the stages a database already holds, with its indexes", { timeout: 120_000 }, async () => {
    const folder = migrationsFolderAsOf(14);
    const { target, drop } = await createEmptyTestTarget();
    const ids = PULL_STAGES.map(() => randomUUID());
    try {
      await migrateWith(target, folder, async (run) => {
        for (const [index, stage] of PULL_STAGES.entries()) {
          await run(
            `insert into pulls (pull_id, status, raw, content_hash, stage) values ('${ids[index]}', 'SUCCESS', '{}', 'x', '${stage}')`,
          );
        }
      });
      const connection = await openDatabase(target);
      try {
        const rows = await connection.db.select({ pullId: pulls.pullId, stage: pulls.stage }).from(pulls);
        expect(new Map(rows.map((r) => [r.pullId, r.stage]))).toEqual(
          new Map(ids.map((id, index) => [id, PULL_STAGES[index]])),
        );
        expect(await indexesOf(connection.db)).toEqual(await indexesOf(database.db));
      } finally {
        await connection.close();
      }
    } finally {
      await drop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
