import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitoringEvents, monitorings, pullAuthStates } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import { generatePulls } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { applyEventEffects } from "./apply-event";

// Event effects beyond the re-fetch: login state by sequence, reconnect requests, monitoring
// events and the monitoring a pull belongs to. Each is checked against redelivery and reordering.

let database: TestDatabase;
const MONITORING = "mon_7f3a";
// The newer pull is a refresh waiting for its consumer, as a MONITORING_RECONNECT names one.
const [older, newer] = generatePulls(9, 2, new Date("2026-11-01T00:00:00Z")).map((p, i) => ({
  ...p,
  created_at: `2026-0${i + 5}-01T00:00:00Z`,
  ...(i === 1 ? { status: "NOT_AUTHENTICATED" } : {}),
}));
const olderId = older?.pull_id ?? "";
const newerId = newer?.pull_id ?? "";
const monitored = { is_monitored: true, monitoring: { initial_pull_id: olderId, monitoring_id: MONITORING } };
const authStatus = (pullId: string, auth_status: string, sequence: number, extra: Record<string, unknown> = {}) => ({
  event_type: "AUTH_STATUS",
  pull_id: pullId,
  status: "PROCESSING",
  data: { auth_status, sequence, login_error_message: null, ...extra },
});

beforeAll(async () => {
  database = await createTestDatabase();
  await storePull(database.db, older);
  await storePull(database.db, newer);
});
afterAll(async () => {
  await database?.close();
});

describe("event effects", () => {
  it("keeps the login state of the highest sequence, whatever the arrival order", async () => {
    await applyEventEffects(
      database.db,
      1,
      authStatus(newerId, "IDENTITY_VERIFICATION_OPTIONS", 2, { options: [{ key: "sms", label: "Text me" }] }),
    );
    await applyEventEffects(database.db, 2, authStatus(newerId, "PROCESSING", 1));
    const [state] = await database.db.select().from(pullAuthStates).where(eq(pullAuthStates.pullId, newerId));
    expect(state).toMatchObject({
      authStatus: "IDENTITY_VERIFICATION_OPTIONS",
      sequence: 2,
      options: [{ key: "sms", label: "Text me" }],
    });
  });

  it("links a pull to its monitoring, and only moves the latest pull forward", async () => {
    await applyEventEffects(database.db, 3, { event_type: "COMPLETE", pull_id: newerId, data: {}, ...monitored });
    await applyEventEffects(database.db, 4, { event_type: "COMPLETE", pull_id: olderId, data: {}, ...monitored });
    const [row] = await database.db.select().from(monitorings).where(eq(monitorings.monitoringId, MONITORING));
    expect(row).toMatchObject({ initialPullId: olderId, latestPullId: newerId });
  });

  it("records a reconnect request and clears it when that login succeeds", async () => {
    const reconnect = {
      event_type: "MONITORING_RECONNECT",
      pull_id: newerId,
      ...monitored,
      data: {
        auth_status: "NOT_AUTHENTICATED",
        reconnect_url: "https://link.example.com/r/abc",
        reconnect_token: "tok_abc",
      },
    };
    await applyEventEffects(database.db, 5, reconnect);
    const requested = await database.db.select().from(monitorings).where(eq(monitorings.monitoringId, MONITORING));
    expect(requested[0]).toMatchObject({
      reconnectPullId: newerId,
      reconnectAuthStatus: "NOT_AUTHENTICATED",
      reconnectUrl: "https://link.example.com/r/abc",
    });
    expect(requested[0]?.reconnectRequestedAt).toBeInstanceOf(Date);

    await applyEventEffects(database.db, 6, authStatus(newerId, "SUCCESS", 9));
    const cleared = await database.db.select().from(monitorings).where(eq(monitorings.monitoringId, MONITORING));
    expect(cleared[0]).toMatchObject({ reconnectPullId: null, reconnectRequestedAt: null, reconnectToken: null });
  });

  it("stores a monitoring event once, however often it is delivered", async () => {
    const body = {
      event_type: "MONITORING_EVENTS",
      pull_id: newerId,
      ...monitored,
      data: {
        type: "RENEWAL",
        changes: [
          {
            schema: "POLICY",
            type: "UPDATE",
            before: { total_premium_cents: 100 },
            after: { total_premium_cents: 118 },
          },
        ],
        documents: ["doc_1"],
      },
    };
    await applyEventEffects(database.db, 7, body);
    await applyEventEffects(database.db, 7, body);
    const rows = await database.db.select().from(monitoringEvents).where(eq(monitoringEvents.pullId, newerId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: "RENEWAL", monitoringId: MONITORING, documentIds: ["doc_1"] });
  });

  it("ignores bodies it cannot read instead of failing the event", async () => {
    await expect(applyEventEffects(database.db, 8, "garbage")).resolves.toBeUndefined();
    await expect(
      applyEventEffects(database.db, 9, { event_type: "AUTH_STATUS", pull_id: "not-a-uuid", data: {} }),
    ).resolves.toBeUndefined();
  });
});

describe("a late or repeated reconnect request", () => {
  // One monitored account: its first pull, then refreshes that needed the consumer, then
  // refreshes that got through. Each request is ordered by the pull it names.
  const ACCOUNT = "acct_reconnect_order";
  const MON = "mon_reconnect_order";
  const pullAt = (month: string, status: string) => ({
    ...(older ?? {}),
    pull_id: randomUUID(),
    account_identifier: ACCOUNT,
    status,
    created_at: `2027-${month}-01T00:00:00Z`,
  });
  const initial = pullAt("01", "SUCCESS");
  const waiting = pullAt("03", "NOT_AUTHENTICATED");
  const laterWaiting = pullAt("05", "NOT_AUTHENTICATED");
  const refreshed = pullAt("06", "SUCCESS");
  const newest = pullAt("08", "IDENTITY_VERIFICATION");
  const watched = { is_monitored: true, monitoring: { initial_pull_id: initial.pull_id, monitoring_id: MON } };
  const reconnectAbout = (pullId: string) => ({
    event_type: "MONITORING_RECONNECT",
    pull_id: pullId,
    ...watched,
    data: {
      auth_status: "NOT_AUTHENTICATED",
      reconnect_url: `https://link.example.com/r/${pullId}`,
      reconnect_token: `tok_${pullId}`,
    },
  });
  const request = async () =>
    (await database.db.select().from(monitorings).where(eq(monitorings.monitoringId, MON)))[0];
  let inbox = 100;

  beforeAll(async () => {
    for (const pull of [initial, waiting, laterWaiting, refreshed, newest]) await storePull(database.db, pull);
  });

  it("does not reopen a need the consumer's login closed when the request is delivered again", async () => {
    await applyEventEffects(database.db, inbox++, reconnectAbout(waiting.pull_id));
    expect(await request()).toMatchObject({ reconnectPullId: waiting.pull_id });
    await applyEventEffects(database.db, inbox++, { ...authStatus(waiting.pull_id, "SUCCESS", 4), ...watched });
    expect(await request()).toMatchObject({ reconnectPullId: null, reconnectRequestedAt: null });

    await applyEventEffects(database.db, inbox++, reconnectAbout(waiting.pull_id));
    expect(await request()).toMatchObject({ reconnectPullId: null, reconnectRequestedAt: null, reconnectToken: null });
  });

  it("does not reopen a need a newer successful refresh closed, nor let an older request replace an open one", async () => {
    await applyEventEffects(database.db, inbox++, reconnectAbout(laterWaiting.pull_id));
    expect(await request()).toMatchObject({ reconnectPullId: laterWaiting.pull_id });
    // A refresh after it got through on its own: the account is connected again.
    await applyEventEffects(database.db, inbox++, {
      event_type: "COMPLETE",
      pull_id: refreshed.pull_id,
      status: "SUCCESS",
      data: {},
      ...watched,
    });
    expect(await request()).toMatchObject({ reconnectPullId: null, reconnectRequestedAt: null });
    // The request about the pull before it arrives late: it stays closed.
    await applyEventEffects(database.db, inbox++, reconnectAbout(laterWaiting.pull_id));
    await applyEventEffects(database.db, inbox++, reconnectAbout(waiting.pull_id));
    expect(await request()).toMatchObject({ reconnectPullId: null, reconnectRequestedAt: null });
  });

  it("still opens a genuinely newer request, which an older one then cannot replace", async () => {
    await applyEventEffects(database.db, inbox++, reconnectAbout(newest.pull_id));
    const opened = await request();
    expect(opened).toMatchObject({ reconnectPullId: newest.pull_id, reconnectToken: `tok_${newest.pull_id}` });
    expect(opened?.reconnectRequestedAt).toBeInstanceOf(Date);
    await applyEventEffects(database.db, inbox++, reconnectAbout(laterWaiting.pull_id));
    expect(await request()).toMatchObject({ reconnectPullId: newest.pull_id, reconnectToken: `tok_${newest.pull_id}` });
    // A late COMPLETE of the older, successful refresh does not close the newer need either.
    await applyEventEffects(database.db, inbox++, {
      event_type: "COMPLETE",
      pull_id: refreshed.pull_id,
      status: "SUCCESS",
      data: {},
      ...watched,
    });
    expect(await request()).toMatchObject({ reconnectPullId: newest.pull_id });
  });
});
