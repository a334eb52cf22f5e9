import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { hitRateLimit, isRateLimited } from "./rate-limit";

// The limiter counts in the database, per key and window, and refuses past the limit.

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe("hitRateLimit", () => {
  it("allows up to the limit in a window, then refuses with a retry time", async () => {
    const rule = { limit: 3, windowSeconds: 600 };
    const decisions = [];
    for (let i = 0; i < 5; i++) decisions.push(await hitRateLimit(database.db, "test:a", rule));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    expect(decisions[4]?.hits).toBe(5);
    expect(decisions[4]?.retryAfterSeconds).toBeGreaterThan(0);
    expect(decisions[4]?.retryAfterSeconds).toBeLessThanOrEqual(600);
    expect(await isRateLimited(database.db, "test:a", rule)).toBe(true);
  });

  it("keeps keys apart", async () => {
    const rule = { limit: 1, windowSeconds: 600 };
    expect((await hitRateLimit(database.db, "test:b", rule)).allowed).toBe(true);
    expect((await hitRateLimit(database.db, "test:c", rule)).allowed).toBe(true);
    expect((await hitRateLimit(database.db, "test:b", rule)).allowed).toBe(false);
    expect(await isRateLimited(database.db, "test:never", rule)).toBe(false);
  });

  it("counts concurrent attempts exactly once each", async () => {
    const rule = { limit: 10, windowSeconds: 600 };
    const decisions = await Promise.all(
      Array.from({ length: 25 }, () => hitRateLimit(database.db, "test:burst", rule)),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    expect(new Set(decisions.map((d) => d.hits)).size).toBe(25);
  });
});
