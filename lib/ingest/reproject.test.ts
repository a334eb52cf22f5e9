import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { householdGaps, pullArchiveWrites, pulls } from "@/db/schema";
import { generatePulls } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { PROJECTION_VERSION } from "@/lib/pulls/projection";
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

  it("keeps the account a webhook joined, drops it from other types, and hands a deleted pull's household back", async () => {
    await database.db.delete(pulls);
    await database.db.delete(householdGaps);
    const [older, newer, servicing] = generatePulls(4, 3, new Date()).map((pull, index) => ({
      ...pull,
      account_identifier: null,
      created_at: `2026-0${index + 1}-01T00:00:00.000Z`,
      type: index === 2 ? "SERVICING" : "PULLING_DATA",
      status: "SUCCESS",
      parent_pull_id: null,
    }));
    if (!older || !newer || !servicing) throw new Error("no sample pulls");
    for (const pull of [older, newer]) await storePull(database.db, pull, { webhookAccountIdentifier: "acct-joined" });
    expect(
      (await database.db.select({ pullId: householdGaps.pullId }).from(householdGaps)).map((r) => r.pullId),
    ).toEqual([newer.pull_id]);
    // Stored by older code: the SERVICING pull under the account, and the newer pull (now
    // deleted at the service, as its stored payload says) still the account's household.
    await storePull(database.db, servicing);
    await database.db
      .update(pulls)
      .set({ accountIdentifier: "acct-joined" })
      .where(eq(pulls.pullId, servicing.pull_id));
    await database.db
      .update(pulls)
      .set({ raw: { ...newer, deleted_at: "2026-05-01T00:00:00.000Z" } })
      .where(eq(pulls.pullId, newer.pull_id));
    await database.db.update(pulls).set({ projectionVersion: 0 });

    expect(await reprojectOutdatedPulls(database.db)).toBe(3);
    const accounts = await database.db
      .select({ pullId: pulls.pullId, account: pulls.accountIdentifier, deletedAt: pulls.deletedAt })
      .from(pulls);
    const byId = new Map(accounts.map((row) => [row.pullId, row]));
    expect(byId.get(older.pull_id)?.account).toBe("acct-joined");
    expect(byId.get(servicing.pull_id)?.account).toBeNull();
    expect(byId.get(newer.pull_id)?.deletedAt?.toISOString()).toBe("2026-05-01T00:00:00.000Z");
    expect(
      (await database.db.select({ pullId: householdGaps.pullId }).from(householdGaps)).map((r) => r.pullId),
    ).toEqual([older.pull_id]);
  });
});
