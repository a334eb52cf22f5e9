import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "@/db/connect";
import { monitorings } from "@/db/schema";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { monitoredOf as monitoredOfPulls, storeAccountPull } from "@/test/monitored-pulls";
import { parsePullListQuery } from "./list-query";
import { listPulls } from "./queries";

// pulls.monitored is kept by the database (migration 0026): whatever writes monitorings or
// pulls, the column says whether an active monitoring names the pull or its account, and the
// list's monitored filter shows exactly those pulls.

let database: TestDatabase;
const store = (account: string | null) => storeAccountPull(database.db, account);
const monitoredOf = (...ids: string[]) => monitoredOfPulls(database.db, ...ids);
const isMonitored = async (id: string) => (await monitoredOf(id))[id];

const listed = async (monitored: "yes" | "no") =>
  (await listPulls(database.db, { kind: "all" }, parsePullListQuery({ monitored }).query, 1_000)).rows.map(
    (r) => r.pullId,
  );

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  await database.db.delete(monitorings);
});

describe("pulls.monitored, kept by the database", () => {
  it("follows a monitoring naming the pull: inserted, stopped, restarted, deleted", async () => {
    const pull = await store("acct_mon_single");
    const sibling = await store("acct_mon_single");
    expect(await isMonitored(pull)).toBe(false);

    await database.db.insert(monitorings).values({ monitoringId: "mon_a", latestPullId: pull, status: "ACTIVE" });
    // Named as its pull (not its account): the account's other pull is not monitored.
    expect(await monitoredOf(pull, sibling)).toEqual({ [pull]: true, [sibling]: false });

    await database.db.update(monitorings).set({ status: "STOPPED" }).where(eq(monitorings.monitoringId, "mon_a"));
    expect(await isMonitored(pull)).toBe(false);
    await database.db.update(monitorings).set({ status: "ACTIVE" }).where(eq(monitorings.monitoringId, "mon_a"));
    expect(await isMonitored(pull)).toBe(true);

    await database.db.delete(monitorings).where(eq(monitorings.monitoringId, "mon_a"));
    expect(await isMonitored(pull)).toBe(false);
  });

  it("counts the initial pull, and a monitoring the service has not answered for (status null), as active", async () => {
    const initial = await store("acct_mon_null");
    await database.db.insert(monitorings).values({ monitoringId: "mon_null", initialPullId: initial, status: null });
    expect(await isMonitored(initial)).toBe(true);
  });

  it("moves with the monitoring's latest pull, and keeps a pull another active monitoring still names", async () => {
    const [first, second] = [await store("acct_mon_move_1"), await store("acct_mon_move_2")];
    await database.db.insert(monitorings).values([
      { monitoringId: "mon_move", latestPullId: first, status: "ACTIVE" },
      { monitoringId: "mon_other", initialPullId: first, status: "ACTIVE" },
    ]);
    await database.db.update(monitorings).set({ latestPullId: second }).where(eq(monitorings.monitoringId, "mon_move"));
    expect(await monitoredOf(first, second)).toEqual({ [first]: true, [second]: true });
    await database.db.delete(monitorings).where(eq(monitorings.monitoringId, "mon_other"));
    expect(await monitoredOf(first, second)).toEqual({ [first]: false, [second]: true });
  });

  it("marks every pull of a monitored account, and a refresh of it stored later from its first row", async () => {
    const [a1, a2, other, none] = [
      await store("acct_mon_account"),
      await store("acct_mon_account"),
      await store("acct_mon_elsewhere"),
      await store(null),
    ];
    await database.db
      .insert(monitorings)
      .values({ monitoringId: "mon_account", accountIdentifier: "acct_mon_account", status: "ACTIVE" });
    expect(await monitoredOf(a1, a2, other, none)).toEqual({ [a1]: true, [a2]: true, [other]: false, [none]: false });

    const refresh = await store("acct_mon_account");
    expect(await isMonitored(refresh)).toBe(true);
    // Stored again with other content (an upsert of the same row), it stays monitored.
    await storeAccountPull(database.db, "acct_mon_account", refresh);
    expect(await isMonitored(refresh)).toBe(true);

    await database.db.update(monitorings).set({ status: "STOPPED" });
    expect(await monitoredOf(a1, a2, refresh)).toEqual({ [a1]: false, [a2]: false, [refresh]: false });
  });

  it("writes no pull for a webhook that changes nothing the rule reads", async () => {
    const pull = await store("acct_mon_quiet");
    await database.db.insert(monitorings).values({ monitoringId: "mon_quiet", latestPullId: pull, status: "ACTIVE" });
    const version = async () =>
      (await queryRows<{ v: string }>(database.db, sql`select xmin::text as v from pulls where pull_id = ${pull}`))[0]
        ?.v;
    const before = await version();
    await database.db
      .update(monitorings)
      .set({ nextPullDate: new Date("2027-01-01T00:00:00Z"), updatedAt: new Date() })
      .where(eq(monitorings.monitoringId, "mon_quiet"));
    expect(await version()).toBe(before);
  });

  it("forgets every monitoring when the table is truncated", async () => {
    const pull = await store("acct_mon_truncated");
    await database.db.insert(monitorings).values({ monitoringId: "mon_truncated", latestPullId: pull });
    expect(await isMonitored(pull)).toBe(true);
    await database.db.execute(sql`truncate monitorings`);
    expect(await isMonitored(pull)).toBe(false);
  });

  it("lists exactly the monitored pulls with monitored=yes, and the others with monitored=no", async () => {
    const [byPull, byAccount1, byAccount2, stopped, plain] = [
      await store("acct_mon_list_pull"),
      await store("acct_mon_list_account"),
      await store("acct_mon_list_account"),
      await store("acct_mon_list_stopped"),
      await store("acct_mon_list_plain"),
    ];
    await database.db.insert(monitorings).values([
      { monitoringId: "mon_list_pull", latestPullId: byPull, status: "ACTIVE" },
      { monitoringId: "mon_list_account", accountIdentifier: "acct_mon_list_account", status: null },
      {
        monitoringId: "mon_list_stopped",
        latestPullId: stopped,
        accountIdentifier: "acct_mon_list_stopped",
        status: "STOPPED",
      },
    ]);
    const yes = await listed("yes");
    expect(new Set(yes)).toEqual(new Set([byPull, byAccount1, byAccount2]));
    const no = await listed("no");
    expect(no).toEqual(expect.arrayContaining([stopped, plain]));
    expect(no).not.toEqual(expect.arrayContaining([byPull]));
    const all = await listPulls(database.db, { kind: "all" }, parsePullListQuery({}).query, 1_000);
    expect(yes.length + no.length).toBe(all.total);

    // The column agrees with the rule for every stored pull.
    const [drift] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from pulls where monitored <> pull_is_monitored(pull_id, account_identifier)`,
    );
    expect(drift?.n).toBe(0);
  });
});
