import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { householdGaps, pulls } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { householdPayload } from "@/test/household-payload";
import { backfillDerivedRows, refreshDerivedRows, type DerivedRows } from "./derived-rows";

// The skeleton of a per-account derived table, driven by a spec of its own over household_gaps
// (one row a pull, naming the holder and the day): whatever a feature derives, an account's
// rows are its newest successful pull's, a failed refresh keeps them, and the backfill fills
// each account once.

let database: TestDatabase;

type Row = typeof householdGaps.$inferInsert;

const spec = (unparsable: "keep" | "drop"): DerivedRows<Row, { stage: typeof pulls.stage }> => ({
  lock: "derived-test",
  table: householdGaps,
  pullId: householdGaps.pullId,
  accountIdentifier: householdGaps.accountIdentifier,
  copied: { stage: pulls.stage },
  unparsable,
  rowsOf: (source, today) => [
    {
      pullId: source.pullId,
      accountIdentifier: source.accountIdentifier,
      holderName: `${source.pull.first_name} ${source.stage} ${today}`,
    },
  ],
  write: async (tx, rows) => {
    await tx.insert(householdGaps).values(rows);
  },
});

const rowsOfAccount = async (account: string) =>
  (
    await database.db
      .select({ pullId: householdGaps.pullId, holderName: householdGaps.holderName })
      .from(householdGaps)
      .where(eq(householdGaps.accountIdentifier, account))
  ).map((row) => [row.pullId, row.holderName]);

/** Stores pulls as the app does, then empties the table, so only the spec under test writes it. */
async function stored(...payloads: Array<ReturnType<typeof householdPayload>>) {
  for (const payload of payloads) await storePull(database.db, payload);
  await database.db.delete(householdGaps);
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate household_gaps, policy_xdates, policies, pulls cascade`);
});

describe("rows derived per account from its newest pull", () => {
  it("replaces an account's rows with its newest successful pull's, whichever pull is refreshed", async () => {
    const account = `acct_${randomUUID()}`;
    const first = householdPayload({ account, first: "Old", createdAt: "2026-01-01T00:00:00Z", policies: [] });
    const newer = householdPayload({ account, first: "New", createdAt: "2026-06-01T00:00:00Z", policies: [] });
    await stored(first);
    await refreshDerivedRows(database.db, spec("keep"), first.pull_id, "2026-07-01");
    expect(await rowsOfAccount(account)).toEqual([[first.pull_id, "Old WORKING 2026-07-01"]]);
    await storePull(database.db, newer);
    await database.db.delete(householdGaps).where(eq(householdGaps.pullId, newer.pull_id));
    // Refreshing the older pull still lands on the newest: one row for the account.
    await refreshDerivedRows(database.db, spec("keep"), first.pull_id, "2026-07-02");
    expect(await rowsOfAccount(account)).toEqual([[newer.pull_id, "New WORKING 2026-07-02"]]);
    // A failed refresh leaves the last good rows; so does a child pull, which never has rows.
    const failed = householdPayload({
      account,
      createdAt: "2026-09-01T00:00:00Z",
      status: "NOT_AUTHENTICATED",
      policies: [],
    });
    await storePull(database.db, failed);
    await refreshDerivedRows(database.db, spec("keep"), failed.pull_id, "2026-07-03");
    expect(await rowsOfAccount(account)).toEqual([[newer.pull_id, "New WORKING 2026-07-03"]]);
  });

  it("keeps or drops the rows of an account whose newest pull no longer parses, as the feature says", async () => {
    const account = `acct_${randomUUID()}`;
    const pull = householdPayload({ account, first: "Ada", policies: [] });
    await stored(pull);
    await refreshDerivedRows(database.db, spec("keep"), pull.pull_id, "2026-07-01");
    await database.db
      .update(pulls)
      .set({ raw: { broken: true } })
      .where(eq(pulls.pullId, pull.pull_id));
    await refreshDerivedRows(database.db, spec("keep"), pull.pull_id, "2026-07-02");
    expect(await rowsOfAccount(account)).toEqual([[pull.pull_id, "Ada WORKING 2026-07-01"]]);
    await refreshDerivedRows(database.db, spec("drop"), pull.pull_id, "2026-07-02");
    expect(await rowsOfAccount(account)).toEqual([]);
  });

  it("backfills each account once, from its newest pull, and answers how many it wrote", async () => {
    const account = `acct_${randomUUID()}`;
    const older = householdPayload({ account, first: "Old", createdAt: "2026-01-01T00:00:00Z", policies: [] });
    const newer = householdPayload({ account, first: "New", createdAt: "2026-06-01T00:00:00Z", policies: [] });
    const alone = householdPayload({ account: null, first: "Solo", policies: [] });
    await stored(older, newer, alone);
    expect(await backfillDerivedRows(database.db, spec("keep"), "2026-07-01", 1)).toBe(2);
    expect(await rowsOfAccount(account)).toEqual([[newer.pull_id, "New WORKING 2026-07-01"]]);
    const [solo] = await database.db.select().from(householdGaps).where(eq(householdGaps.pullId, alone.pull_id));
    expect(solo?.holderName).toBe("Solo WORKING 2026-07-01");
    expect(await backfillDerivedRows(database.db, spec("keep"), "2026-07-02")).toBe(0);
  });
});
