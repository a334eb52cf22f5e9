import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/db/connect";
import { storePull } from "@/lib/ingest/store-pull";
import { openSensitive } from "@/lib/security/sensitive-fields";
import { generatePulls } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";

// Migration 0025: a pull's payload is compressed with lz4 wherever the server offers it, and
// the migration runs unchanged where it does not (PGlite).

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe("the payload column's compression", () => {
  it("is lz4 where the server has it, the default elsewhere, and a stored payload reads back whole", async () => {
    const [server] = await queryRows<{ lz4: boolean }>(
      database.db,
      sql`select coalesce(bool_or('lz4' = any (enumvals)), false) as lz4 from pg_settings where name = 'default_toast_compression'`,
    );
    const [column] = await queryRows<{ compression: string }>(
      database.db,
      sql`select attcompression::text as compression from pg_attribute where attrelid = 'pulls'::regclass and attname = 'raw'`,
    );
    expect(column?.compression).toBe(server?.lz4 ? "l" : "");

    const [pull] = generatePulls(7, 1, new Date("2026-11-01T00:00:00Z"));
    if (!pull) throw new Error("no sample pull");
    expect(await storePull(database.db, { success: true, pull })).toMatchObject({ outcome: "created" });
    const [stored] = await queryRows<{ raw: unknown; method: string | null }>(
      database.db,
      sql`select raw, pg_column_compression(raw) as method from pulls where pull_id = ${pull.pull_id}`,
    );
    // Read past the column's codec: its drivers' licences and birth dates are sealed.
    expect(openSensitive(stored?.raw)).toMatchObject({ pull_id: pull.pull_id, policies: pull.policies });
    // Big enough to be compressed, and with the column's method.
    if (server?.lz4) expect(stored?.method).toBe("lz4");
  });
});
