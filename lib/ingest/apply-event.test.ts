import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitoringEvents, monitorings, pullAuthStates } from "@/db/schema";
import { storePull } from "@/lib/pulls/store-pull";
import { generatePulls } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { applyEventEffects } from "./apply-event";

// Event effects beyond the re-fetch: login state by sequence, reconnect requests, monitoring
// events and the monitoring a pull belongs to. Each is checked against redelivery and reordering.

let database: TestDatabase;
const MONITORING = "mon_7f3a";
const [older, newer] = generatePulls(9, 2, new Date("2026-11-01T00:00:00Z")).map((p, i) => ({ ...p, created_at: `2026-0${i + 5}-01T00:00:00Z` }));
const olderId = older?.pull_id ?? "";
const newerId = newer?.pull_id ?? "";
const monitored = { is_monitored: true, monitoring: { initial_pull_id: olderId, monitoring_id: MONITORING } };
const authStatus = (pullId: string, auth_status: string, sequence: number, extra: Record<string, unknown> = {}) => ({
  event_type: "AUTH_STATUS", pull_id: pullId, status: "PROCESSING", data: { auth_status, sequence, login_error_message: null, ...extra },
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
    await applyEventEffects(database.db, 1, authStatus(newerId, "IDENTITY_VERIFICATION_OPTIONS", 2, { options: [{ key: "sms", label: "Text me" }] }));
    await applyEventEffects(database.db, 2, authStatus(newerId, "PROCESSING", 1));
    const [state] = await database.db.select().from(pullAuthStates).where(eq(pullAuthStates.pullId, newerId));
    expect(state).toMatchObject({ authStatus: "IDENTITY_VERIFICATION_OPTIONS", sequence: 2, options: [{ key: "sms", label: "Text me" }] });
  });

  it("links a pull to its monitoring, and only moves the latest pull forward", async () => {
    await applyEventEffects(database.db, 3, { event_type: "COMPLETE", pull_id: newerId, data: {}, ...monitored });
    await applyEventEffects(database.db, 4, { event_type: "COMPLETE", pull_id: olderId, data: {}, ...monitored });
    const [row] = await database.db.select().from(monitorings).where(eq(monitorings.monitoringId, MONITORING));
    expect(row).toMatchObject({ initialPullId: olderId, latestPullId: newerId });
  });

  it("records a reconnect request and clears it when that login succeeds", async () => {
    const reconnect = { event_type: "MONITORING_RECONNECT", pull_id: newerId, ...monitored, data: { auth_status: "NOT_AUTHENTICATED", reconnect_url: "https://link.example.com/r/abc", reconnect_token: "tok_abc" } };
    await applyEventEffects(database.db, 5, reconnect);
    const requested = await database.db.select().from(monitorings).where(eq(monitorings.monitoringId, MONITORING));
    expect(requested[0]).toMatchObject({ reconnectPullId: newerId, reconnectAuthStatus: "NOT_AUTHENTICATED", reconnectUrl: "https://link.example.com/r/abc" });
    expect(requested[0]?.reconnectRequestedAt).toBeInstanceOf(Date);

    await applyEventEffects(database.db, 6, authStatus(newerId, "SUCCESS", 9));
    const cleared = await database.db.select().from(monitorings).where(eq(monitorings.monitoringId, MONITORING));
    expect(cleared[0]).toMatchObject({ reconnectPullId: null, reconnectRequestedAt: null, reconnectToken: null });
  });

  it("stores a monitoring event once, however often it is delivered", async () => {
    const body = { event_type: "MONITORING_EVENTS", pull_id: newerId, ...monitored, data: { type: "RENEWAL", changes: [{ schema: "POLICY", type: "UPDATE", before: { total_premium_cents: 100 }, after: { total_premium_cents: 118 } }], documents: ["doc_1"] } };
    await applyEventEffects(database.db, 7, body);
    await applyEventEffects(database.db, 7, body);
    const rows = await database.db.select().from(monitoringEvents).where(eq(monitoringEvents.pullId, newerId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: "RENEWAL", monitoringId: MONITORING, documentIds: ["doc_1"] });
  });

  it("ignores bodies it cannot read instead of failing the event", async () => {
    await expect(applyEventEffects(database.db, 8, "garbage")).resolves.toBeUndefined();
    await expect(applyEventEffects(database.db, 9, { event_type: "AUTH_STATUS", pull_id: "not-a-uuid", data: {} })).resolves.toBeUndefined();
  });
});
