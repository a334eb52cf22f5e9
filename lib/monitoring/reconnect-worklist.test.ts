import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitorings, pulls } from "@/db/schema";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { storeAccountPull } from "@/test/monitored-pulls";
import { createStaff } from "@/test/workflow-fixture";
import { listReconnectWorklist } from "./reconnect";

// The Reconnect worklist a page at a time: every account once across the pages, newest request
// first, the total beside each page, and an agent's pages holding only what they may see.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;
const requested = new Map<string, Date>(); // monitoring id → when its consumer was asked

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
  // Seven accounts need their consumer; two share the same moment, which paging must not split badly.
  for (let i = 0; i < 7; i++) {
    const pullId = await storeAccountPull(database.db, `acct_reconnect_${i}`);
    const at = new Date(Date.UTC(2026, 10, 1 + Math.min(i, 5)));
    requested.set(`mon_reconnect_${i}`, at);
    await database.db
      .insert(monitorings)
      .values({ monitoringId: `mon_reconnect_${i}`, latestPullId: pullId, status: "ACTIVE", reconnectRequestedAt: at });
  }
  // A connected account is on no page.
  const connected = await storeAccountPull(database.db, "acct_connected");
  await database.db
    .insert(monitorings)
    .values({ monitoringId: "mon_connected", latestPullId: connected, status: "ACTIVE" });
  // The agent holds two of them; the rest are the admin's.
  const mine = ["acct_reconnect_1", "acct_reconnect_4"];
  await database.db.update(pulls).set({ assigneeId: staff.agent.id }).where(inArray(pulls.accountIdentifier, mine));
  await database.db
    .update(pulls)
    .set({ assigneeId: staff.admin.id })
    .where(
      inArray(
        pulls.accountIdentifier,
        [0, 2, 3, 5, 6].map((i) => `acct_reconnect_${i}`),
      ),
    );
});

afterAll(async () => {
  await database?.close();
});

describe("the reconnect worklist, page by page", () => {
  it("lists every account once over its pages, newest request first, with the total on each", async () => {
    const pages = await Promise.all(
      [1, 2, 3].map((page) => listReconnectWorklist(database.db, { kind: "all" }, page, 3)),
    );
    expect(pages.map((p) => p.total)).toEqual([7, 7, 7]);
    expect(pages.map((p) => p.items.length)).toEqual([3, 3, 1]);
    const ids = pages.flatMap((p) => p.items.map((item) => item.monitoringId));
    expect(new Set(ids).size).toBe(7);
    expect(ids).not.toContain("mon_connected");
    const times = ids.map((id) => requested.get(id)?.getTime() ?? 0);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("answers an empty page past the end, with the total still counted", async () => {
    expect(await listReconnectWorklist(database.db, { kind: "all" }, 4, 3)).toEqual({ items: [], total: 7 });
  });

  it("pages an agent's own accounts only, and counts only those", async () => {
    const agentView = { kind: "own-or-unassigned" as const, userId: staff.agent.id };
    const first = await listReconnectWorklist(database.db, agentView, 1, 1);
    const second = await listReconnectWorklist(database.db, agentView, 2, 1);
    expect([first.total, second.total]).toEqual([2, 2]);
    expect([...first.items, ...second.items].map((item) => item.monitoringId).sort()).toEqual([
      "mon_reconnect_1",
      "mon_reconnect_4",
    ]);
  });
});
