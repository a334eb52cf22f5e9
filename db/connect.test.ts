import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { queryRows } from "./connect";
import { users } from "./schema";

describe("database", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it("applies every committed migration", async () => {
    const tables = await queryRows<{ table_name: string }>(
      database.db,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(["policies", "pulls", "users", "webhook_events"]),
    );
  });

  it("treats emails as case-insensitive and unique", async () => {
    await database.db.insert(users).values({ email: "Ann@Example.com", name: "Ann", role: "AGENT", passwordHash: "x" });
    await expect(
      database.db.insert(users).values({ email: "ann@example.com", name: "Ann 2", role: "AGENT", passwordHash: "x" }),
    ).rejects.toThrow();
    const rows = await database.db.select().from(users).where(eq(users.name, "Ann"));
    expect(rows).toHaveLength(1);
  });
});
