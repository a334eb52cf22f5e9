import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { householdGaps, pulls } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { householdPayload } from "@/test/household-payload";
import { gapMaskOf } from "./gaps";
import { backfillHouseholdGaps } from "./store";

// household_gaps on a real database: written with the pull, one row per household (the
// account's newest successful pull), replaced by a refresh, kept through a failed one, and
// filled in at start for pulls stored before the table.

let database: TestDatabase;

const rowsOfAccount = (account: string) =>
  database.db.select().from(householdGaps).where(eq(householdGaps.accountIdentifier, account));

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate household_gaps, policy_xdates, policies, pulls cascade`);
});

describe("keeping household_gaps with the pulls", () => {
  it("writes the household's lines, carriers, gaps and premiums in the transaction that stores it", async () => {
    const pull = householdPayload({
      first: "Ada",
      policies: [
        { type: "AUTO", premium: 90_000 },
        { type: "HOMEOWNERS", carrier: "State Farm", premium: 150_000 },
        { type: "HOMEOWNERS", status: "QUOTE" },
        { type: "SPACESHIP" },
      ],
      drivers: [{ birth: "2008-02-01" }],
    });
    expect(await storePull(database.db, pull)).toMatchObject({ outcome: "created" });
    const [row] = await database.db.select().from(householdGaps).where(eq(householdGaps.pullId, pull.pull_id));
    expect(row).toMatchObject({
      accountIdentifier: pull.account_identifier,
      holderName: "Ada Doe",
      policyCount: 2,
      carrierCount: 2,
      lines: ["AUTO", "HOMEOWNERS"],
      gaps: ["NO_FLOOD", "YOUNG_DRIVER", "MULTI_CARRIER"],
      // NO_FLOOD 4 | YOUNG_DRIVER 8 | MULTI_CARRIER 16.
      gapMask: 28,
      annualPremiumCents: 240_000,
      // The auto: in play for the young driver and as the smaller carrier's line, counted once.
      premiumInPlayCents: 90_000,
    });
  });

  it("keeps one row per account: a refresh replaces it, a late older pull and a failed refresh do not", async () => {
    const account = `acct_${randomUUID()}`;
    const first = householdPayload({ account, createdAt: "2026-01-01T00:00:00Z", policies: [{ type: "AUTO" }] });
    const refresh = householdPayload({
      account,
      createdAt: "2026-06-01T00:00:00Z",
      policies: [{ type: "AUTO" }, { type: "RENTERS" }],
    });
    await storePull(database.db, first);
    expect((await rowsOfAccount(account)).map((r) => [r.pullId, r.gaps])).toEqual([[first.pull_id, ["AUTO_NO_HOME"]]]);
    await storePull(database.db, refresh);
    expect((await rowsOfAccount(account)).map((r) => [r.pullId, r.gaps])).toEqual([[refresh.pull_id, []]]);
    // The older pull fetched again with new content must not bring its row back.
    await storePull(database.db, { ...first, first_name: "Janet" });
    expect((await rowsOfAccount(account)).map((r) => r.pullId)).toEqual([refresh.pull_id]);
    // A refresh that failed (the consumer must reconnect) leaves the last good row.
    const failed = householdPayload({
      account,
      createdAt: "2026-09-01T00:00:00Z",
      status: "NOT_AUTHENTICATED",
      policies: [],
    });
    await storePull(database.db, failed);
    expect((await rowsOfAccount(account)).map((r) => r.pullId)).toEqual([refresh.pull_id]);
  });

  it("gives a failed pull of a new account no row, and a child pull none", async () => {
    const failed = householdPayload({ status: "PROVIDER_ERROR", policies: [{ type: "AUTO" }] });
    await storePull(database.db, failed);
    const parent = householdPayload({ policies: [{ type: "AUTO" }] });
    await storePull(database.db, parent);
    const child = { ...householdPayload({ policies: [{ type: "AUTO" }] }), parent_pull_id: parent.pull_id };
    await storePull(database.db, child);
    const ids = (await database.db.select({ pullId: householdGaps.pullId }).from(householdGaps)).map((r) => r.pullId);
    expect(ids).toEqual([parent.pull_id]);
  });

  it("drops the row when a stored pull turns out not to have succeeded", async () => {
    const pull = householdPayload({ account: null, policies: [{ type: "AUTO" }] });
    await storePull(database.db, pull);
    await storePull(database.db, { ...pull, status: "INTERNAL_ERROR" });
    expect(await database.db.select().from(householdGaps)).toEqual([]);
  });

  it("backfills households stored before the table, once each, the newest pull of each account", async () => {
    const lone = householdPayload({ account: null, policies: [{ type: "AUTO" }] });
    const account = `acct_${randomUUID()}`;
    const older = householdPayload({ account, createdAt: "2026-01-01T00:00:00Z", policies: [{ type: "AUTO" }] });
    const newer = householdPayload({ account, createdAt: "2026-05-01T00:00:00Z", policies: [{ type: "CONDO" }] });
    const empty = householdPayload({ policies: [] });
    for (const p of [lone, older, newer, empty]) await storePull(database.db, p);
    const stored = await database.db.select().from(householdGaps).orderBy(householdGaps.pullId);
    await database.db.delete(householdGaps);
    // The same rows as storePull wrote, the household with no policies too; the older pull of
    // the refreshed account is passed over.
    expect(await backfillHouseholdGaps(database.db, 1)).toBe(3);
    const rows = await database.db.select().from(householdGaps).orderBy(householdGaps.pullId);
    expect(rows.map((r) => r.pullId).sort()).toEqual([lone.pull_id, newer.pull_id, empty.pull_id].sort());
    const withoutClock = ({ updatedAt: _u, ...rest }: (typeof rows)[number]) => rest;
    expect(rows.map(withoutClock)).toEqual(stored.map(withoutClock));
    expect(rows.find((r) => r.pullId === newer.pull_id)?.gaps).toEqual(["NO_FLOOD"]);
    expect(await backfillHouseholdGaps(database.db)).toBe(0);
    // A payload that no longer parses is passed over, not a failure.
    await database.db.delete(householdGaps);
    await database.db
      .update(pulls)
      .set({ raw: { not: "a pull" } })
      .where(eq(pulls.pullId, lone.pull_id));
    expect(await backfillHouseholdGaps(database.db)).toBe(2);
    expect((await database.db.select().from(householdGaps)).map((r) => r.pullId).sort()).toEqual(
      [newer.pull_id, empty.pull_id].sort(),
    );
  });

  it("gives rows written before the gap mask theirs, as the migration's backfill computes it", async () => {
    const households = [
      householdPayload({ policies: [{ type: "AUTO" }], drivers: [{ birth: "2008-02-01" }] }),
      householdPayload({ policies: [{ type: "AUTO" }, { type: "HOMEOWNERS", carrier: "State Farm" }] }),
      householdPayload({ policies: [{ type: "RENTERS" }] }),
    ];
    for (const pull of households) await storePull(database.db, pull);
    const written = await database.db.select().from(householdGaps);
    expect(written.some((row) => row.gapMask !== 0)).toBe(true);
    // As a database migrated from before: every mask 0, then migration 0024's UPDATE.
    await database.db.execute(sql`update household_gaps set gap_mask = 0`);
    const migration = readFileSync(path.join("drizzle", "0024_household_gap_mask.sql"), "utf8");
    const backfill = migration.split("--> statement-breakpoint").find((part) => part.includes("UPDATE"));
    if (!backfill) throw new Error("migration 0024 has no backfill");
    await database.db.execute(sql.raw(backfill));
    const migrated = await database.db.select().from(householdGaps);
    expect(migrated.map((row) => [row.pullId, row.gapMask]).sort()).toEqual(
      written.map((row) => [row.pullId, gapMaskOf(row.gaps)]).sort(),
    );
  });
});
