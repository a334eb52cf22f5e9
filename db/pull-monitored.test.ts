import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upgradedDatabase } from "@/test/migrations";
import { queryRows, type Connection } from "./connect";
import { monitorings, pulls } from "./schema";

// 0026 adds pulls.monitored, kept by triggers from then on; the pulls and monitorings a
// database already holds get it from the migration's backfill.

const ids = {
  latest: randomUUID(),
  initial: randomUUID(),
  ofAccount: randomUUID(),
  alsoOfAccount: randomUUID(),
  childOfAccount: randomUUID(),
  nullStatus: randomUUID(),
  stopped: randomUUID(),
  ofStoppedAccount: randomUUID(),
  stoppedButNamedElsewhere: randomUUID(),
  plain: randomUUID(),
  noAccount: randomUUID(),
};
const pull = (id: string, account: string | null, parent: string | null = null) =>
  `insert into pulls (pull_id, status, raw, content_hash, account_identifier, parent_pull_id)
   values ('${id}', 'SUCCESS', '{}', 'x', ${account ? `'${account}'` : "null"}, ${parent ? `'${parent}'` : "null"})`;
const monitoring = (
  id: string,
  columns: { initial?: string; latest?: string; account?: string; status: string | null },
) =>
  `insert into monitorings (monitoring_id, initial_pull_id, latest_pull_id, account_identifier, status)
   values ('${id}', ${[columns.initial, columns.latest, columns.account, columns.status].map((v) => (v ? `'${v}'` : "null")).join(", ")})`;

describe("0026: monitored pulls before the upgrade", () => {
  let connection: Connection;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ connection, close } = await upgradedDatabase(26, async (run) => {
      await run(pull(ids.latest, "acct_latest"));
      await run(pull(ids.initial, "acct_initial"));
      await run(pull(ids.ofAccount, "acct_watched"));
      await run(pull(ids.alsoOfAccount, "acct_watched"));
      await run(pull(ids.childOfAccount, "acct_watched", ids.ofAccount));
      await run(pull(ids.nullStatus, "acct_null"));
      await run(pull(ids.stopped, "acct_stopped"));
      await run(pull(ids.ofStoppedAccount, "acct_stopped"));
      await run(pull(ids.stoppedButNamedElsewhere, "acct_twice"));
      await run(pull(ids.plain, "acct_plain"));
      await run(pull(ids.noAccount, null));
      await run(monitoring("mon_latest", { latest: ids.latest, status: "ACTIVE" }));
      await run(monitoring("mon_initial", { initial: ids.initial, latest: randomUUID(), status: "ACTIVE" }));
      await run(monitoring("mon_account", { account: "acct_watched", status: "ACTIVE" }));
      await run(monitoring("mon_null", { latest: ids.nullStatus, status: null }));
      await run(monitoring("mon_stopped", { latest: ids.stopped, account: "acct_stopped", status: "STOPPED" }));
      await run(monitoring("mon_twice_stopped", { latest: ids.stoppedButNamedElsewhere, status: "STOPPED" }));
      await run(monitoring("mon_twice_active", { initial: ids.stoppedButNamedElsewhere, status: "ACTIVE" }));
      // A monitoring without an account names no pull of the null account.
      await run(monitoring("mon_no_account", { latest: randomUUID(), status: "ACTIVE" }));
    }));
  }, 120_000);
  afterAll(async () => {
    await close?.();
  });

  it("marks exactly the pulls an active monitoring names, or whose account it names", async () => {
    const rows = await connection.db.select({ pullId: pulls.pullId, monitored: pulls.monitored }).from(pulls);
    expect(rows).toHaveLength(Object.keys(ids).length);
    const marked = new Set(rows.filter((r) => r.monitored).map((r) => r.pullId));
    expect(marked).toEqual(
      new Set([
        ids.latest,
        ids.initial,
        ids.ofAccount,
        ids.alsoOfAccount,
        ids.childOfAccount,
        ids.nullStatus,
        ids.stoppedButNamedElsewhere,
      ]),
    );
  });

  it("keeps the column from then on, by the triggers", async () => {
    await connection.db
      .update(monitorings)
      .set({ status: "ACTIVE" })
      .where(sql`${monitorings.monitoringId} = 'mon_stopped'`);
    const [row] = await queryRows<{ n: number }>(
      connection.db,
      sql`select count(*)::int as n from pulls where monitored and pull_id in (${ids.stopped}, ${ids.ofStoppedAccount})`,
    );
    expect(row?.n).toBe(2);
  });
});
