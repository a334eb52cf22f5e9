import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitorings, pulls } from "@/db/schema";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { monitoredOf, storeAccountPull } from "@/test/monitored-pulls";
import { reconcileMonitoredFlags } from "./monitored-flag";

// The hourly pass that sets right a monitored flag the triggers could not see coming.

const onPostgres = Boolean(process.env.DATABASE_URL);
let database: TestDatabase;
const store = (account: string) => storeAccountPull(database.db, account);
const isMonitored = async (pullId: string) => (await monitoredOf(database.db, pullId))[pullId];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe("setting monitored flags right", () => {
  it("corrects a flag that disagrees with the monitorings either way, and then finds nothing", async () => {
    const [named, plain] = [await store("acct_flag_named"), await store("acct_flag_plain")];
    await database.db.insert(monitorings).values({ monitoringId: "mon_flag", accountIdentifier: "acct_flag_named" });
    expect(await isMonitored(named)).toBe(true);
    // As a race would leave them (the column alone changes: no trigger asks the rule).
    await database.db.update(pulls).set({ monitored: false }).where(eq(pulls.pullId, named));
    await database.db.update(pulls).set({ monitored: true }).where(eq(pulls.pullId, plain));
    expect(await reconcileMonitoredFlags(database.db)).toBe(2);
    expect([await isMonitored(named), await isMonitored(plain)]).toEqual([true, false]);
    expect(await reconcileMonitoredFlags(database.db)).toBe(0);
  });

  it.skipIf(!onPostgres)(
    "sets right a pull stored while its account's monitoring was being written by another transaction",
    async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let written!: () => void;
      const monitoringWritten = new Promise<void>((resolve) => (written = resolve));
      const writing = database.db.transaction(async (tx) => {
        await tx.insert(monitorings).values({ monitoringId: "mon_race", accountIdentifier: "acct_flag_race" });
        written();
        await held;
      });
      await monitoringWritten;
      const pull = await store("acct_flag_race"); // another connection: the monitoring is not committed yet
      release();
      await writing;
      // Neither trigger saw the other's row.
      expect(await isMonitored(pull)).toBe(false);
      expect(await reconcileMonitoredFlags(database.db)).toBe(1);
      expect(await isMonitored(pull)).toBe(true);
    },
  );
});
