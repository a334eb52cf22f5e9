import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pullArchiveWrites, pulls } from "@/db/schema";
import { generatePulls } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { PROJECTION_VERSION } from "./projection";
import { reprojectOutdatedPulls } from "./reproject";
import { storePull } from "./store-pull";

// Rows written by older projection code are brought up to date from their raw payload.

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe("re-projection", () => {
  it("recomputes the columns of outdated rows in batches, and leaves the agency's own fields alone", async () => {
    const sample = generatePulls(3, 5, new Date());
    for (const pull of sample) await storePull(database.db, pull);
    const first = sample[0]?.pull_id ?? "";
    await database.db.update(pulls).set({ projectionVersion: 0, searchText: "", sortName: "stale", stage: "WON" });
    expect(await reprojectOutdatedPulls(database.db, 2)).toBe(5);
    const [row] = await database.db.select().from(pulls).where(eq(pulls.pullId, first));
    expect(row?.projectionVersion).toBe(PROJECTION_VERSION);
    expect(row?.searchText).toContain(String(sample[0]?.last_name).toLowerCase());
    expect(row?.sortName).not.toBe("stale");
    expect(row?.stage).toBe("WON");
    expect(await reprojectOutdatedPulls(database.db)).toBe(0);
  });

  it("keeps an archive decision the service has not confirmed yet", async () => {
    const [pending, plain] = generatePulls(5, 12, new Date()).filter((p) => !p.is_archived);
    for (const pull of [pending, plain]) if (pull) await storePull(database.db, pull);
    const pendingId = pending?.pull_id ?? "";
    await database.db.update(pulls).set({ isArchived: true }).where(eq(pulls.pullId, pendingId));
    await database.db.insert(pullArchiveWrites).values({ pullId: pendingId, archived: true });
    await database.db.update(pulls).set({ projectionVersion: 0 });
    await reprojectOutdatedPulls(database.db);
    const archived = async (pullId: string) =>
      (await database.db.select().from(pulls).where(eq(pulls.pullId, pullId)))[0]?.isArchived;
    expect(await archived(pendingId)).toBe(true);
    expect(await archived(plain?.pull_id ?? "")).toBe(false);
  });
});
