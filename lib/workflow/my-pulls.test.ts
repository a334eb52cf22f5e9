import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { monitorings, pulls } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { householdPayload } from "@/test/household-payload";
import { createStaff } from "@/test/workflow-fixture";
import { getAgentHome } from "./my-pulls";

// My pulls' "needs a reconnect" list: the agent's own pulls that a monitoring waiting for the
// consumer names, by the pull itself (initial, latest, reconnect) or by its account.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate monitorings, household_gaps, policy_xdates, policies, pulls, users cascade`);
  staff = await createStaff(database.db);
});

async function storedFor(assigneeId: string, account?: string) {
  const pull = householdPayload({ account, policies: [{ type: "AUTO" }] });
  await storePull(database.db, pull);
  await database.db.update(pulls).set({ assigneeId }).where(eq(pulls.pullId, pull.pull_id));
  return pull.pull_id;
}

const monitoring = (values: Partial<typeof monitorings.$inferInsert>) =>
  database.db.insert(monitorings).values({ monitoringId: `mon_${randomUUID()}`, ...values });

describe("the pulls of an agent that need a reconnect", () => {
  it("lists the agent's pulls a waiting monitoring names, by pull or by account, and no others", async () => {
    const account = `acct_${randomUUID()}`;
    const [byLatest, byReconnect, byAccount, notWaiting, quiet, theirs] = [
      await storedFor(staff.agent.id),
      await storedFor(staff.agent.id),
      await storedFor(staff.agent.id, account),
      await storedFor(staff.agent.id),
      await storedFor(staff.agent.id),
      await storedFor(staff.otherAgent.id),
    ];
    const asked = new Date();
    await monitoring({ latestPullId: byLatest, reconnectRequestedAt: asked });
    await monitoring({ initialPullId: randomUUID(), reconnectPullId: byReconnect, reconnectRequestedAt: asked });
    await monitoring({ accountIdentifier: account, reconnectRequestedAt: asked });
    await monitoring({ latestPullId: notWaiting, reconnectRequestedAt: null });
    await monitoring({ latestPullId: theirs, reconnectRequestedAt: asked });
    // A waiting monitoring with nothing to name (no account, no pulls) matches nobody.
    await monitoring({ reconnectRequestedAt: asked });

    const home = await getAgentHome(database.db, staff.agent.id);
    const listed = home.reconnect.map((r) => r.pullId).sort();
    expect(listed).toEqual([byLatest, byReconnect, byAccount].sort());
    expect(listed).not.toContain(quiet);
    expect((await getAgentHome(database.db, staff.otherAgent.id)).reconnect.map((r) => r.pullId)).toEqual([theirs]);
  });
});
