import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { monitorings } from "@/db/schema";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { getPullMonitoring } from "./pull-monitoring";

// The header's monitoring line reads the mirror of the service's Monitoring: a pull is found
// as the initial, latest or reconnect pull of one, or by its account; most pulls have none.

const INITIAL = "11111111-1111-4111-8111-111111111111";
const LATEST = "22222222-2222-4222-8222-222222222222";
const OTHER = "33333333-3333-4333-8333-333333333333";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

beforeEach(async () => {
  await database.db.delete(monitorings);
});

describe("getPullMonitoring", () => {
  it("is null for a pull nobody monitors", async () => {
    expect(await getPullMonitoring(database.db, { pullId: OTHER, accountIdentifier: null })).toBeNull();
  });

  it("finds the monitoring by initial or latest pull, and by account", async () => {
    await database.db.insert(monitorings).values({
      monitoringId: "mon-1",
      initialPullId: INITIAL,
      latestPullId: LATEST,
      accountIdentifier: "acct_1",
      status: "ACTIVE",
      interval: "30 days",
    });
    const expected = {
      monitoringId: "mon-1",
      status: "ACTIVE",
      interval: "30 days",
      nextPullDate: null,
      // No plan stored yet: the service's own interval decides (a value that is no ISO duration is shown as given).
      nextRefreshWhy: "On the service's schedule (every 30 days): no verified X-date to time it by.",
      reconnectNeeded: false,
      reconnectAuthStatus: null,
      startedOutside: false,
    };
    expect(await getPullMonitoring(database.db, { pullId: INITIAL, accountIdentifier: null })).toEqual(expected);
    expect(await getPullMonitoring(database.db, { pullId: LATEST, accountIdentifier: null })).toEqual(expected);
    expect(await getPullMonitoring(database.db, { pullId: OTHER, accountIdentifier: "acct_1" })).toEqual(expected);
    expect(await getPullMonitoring(database.db, { pullId: OTHER, accountIdentifier: "acct_2" })).toBeNull();
  });

  it("says when the consumer must reconnect", async () => {
    await database.db.insert(monitorings).values({
      monitoringId: "mon-2",
      latestPullId: LATEST,
      status: "ACTIVE",
      reconnectRequestedAt: new Date("2026-01-01T00:00:00Z"),
      reconnectPullId: OTHER,
      reconnectAuthStatus: "IDENTITY_VERIFICATION",
    });
    expect(await getPullMonitoring(database.db, { pullId: OTHER, accountIdentifier: null })).toMatchObject({
      reconnectNeeded: true,
      reconnectAuthStatus: "IDENTITY_VERIFICATION",
    });
  });
});
