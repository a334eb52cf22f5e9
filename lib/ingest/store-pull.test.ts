import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { policies, pulls, pullVersions } from "@/db/schema";
import { generatePulls } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { storePull } from "./store-pull";

// Storing a fetched pull: one row per pull_id, projections in step, earlier versions kept.

let database: TestDatabase;
const [sample] = generatePulls(5, 1, new Date("2026-11-01T00:00:00Z"));

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe("storing a pull", () => {
  it("keeps one row per pull, and the previous content as a version when it changes", async () => {
    if (!sample) throw new Error("no sample pull");
    const id = sample.pull_id;
    expect(await storePull(database.db, { success: true, pull: sample })).toMatchObject({
      outcome: "created",
      pullId: id,
    });
    expect(await storePull(database.db, sample)).toMatchObject({ outcome: "unchanged" });

    const renewed = {
      ...sample,
      first_name: "Renamed",
      policies: (sample.policies as Array<Record<string, unknown>>).slice(0, 1),
    };
    expect(await storePull(database.db, renewed)).toMatchObject({ outcome: "updated" });

    const rows = await database.db
      .select({ firstName: pulls.firstName, policyCount: pulls.policyCount })
      .from(pulls)
      .where(eq(pulls.pullId, id));
    expect(rows).toEqual([{ firstName: "Renamed", policyCount: 1 }]);
    expect(await database.db.select().from(policies).where(eq(policies.pullId, id))).toHaveLength(1);
    const versions = await database.db
      .select({ raw: pullVersions.raw })
      .from(pullVersions)
      .where(eq(pullVersions.pullId, id));
    expect(versions).toHaveLength(1);
    expect((versions[0]?.raw as { first_name: string }).first_name).toBe(sample.first_name);
  });

  it("refuses a payload that is not a pull, and stores nothing", async () => {
    expect(await storePull(database.db, { success: true, pull: { status: "SUCCESS" } })).toMatchObject({
      outcome: "invalid",
    });
    expect(await storePull(database.db, "not json")).toMatchObject({ outcome: "invalid" });
    expect(await database.db.select().from(pulls)).toHaveLength(1);
  });
});
