import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookEvents } from "@/db/schema";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { countInboxByStatus, listInboxEvents, parseInboxFilter, retryAllFailedEvents, retryInboxEvent } from "./inbox";

// The admin's view of the inbox: counts, filters, and failed events put back in the queue.

let database: TestDatabase;
const PULL = "6a1f2e3d-4c5b-4a69-8788-99aabbccddee";

beforeAll(async () => {
  database = await createTestDatabase();
  const row = (dedupKey: string, status: "PENDING" | "DONE" | "FAILED", eventType = "COMPLETE") => ({
    dedupKey,
    status,
    eventType,
    pullId: PULL,
    payload: { event_type: eventType },
    attempts: status === "FAILED" ? 8 : 1,
    lastError: status === "FAILED" ? "GET /pulls/x: 500" : null,
  });
  await database.db
    .insert(webhookEvents)
    .values([
      row("a", "DONE"),
      row("b", "FAILED"),
      row("c", "FAILED", "AUTH_STATUS"),
      row("d", "PENDING", "AUTH_STATUS"),
    ]);
});
afterAll(async () => {
  await database?.close();
});

describe("inbox administration", () => {
  it("counts events by status, including the empty ones", async () => {
    expect(await countInboxByStatus(database.db)).toEqual({
      PENDING: 1,
      PROCESSING: 0,
      DONE: 1,
      FAILED: 2,
      IGNORED: 0,
    });
  });

  it("filters by status and type, and ignores a malformed filter instead of failing", async () => {
    const failedAuth = await listInboxEvents(
      database.db,
      parseInboxFilter({ status: "FAILED", type: "AUTH_STATUS" }).filter,
    );
    expect(failedAuth.total).toBe(1);
    expect(failedAuth.rows[0]?.eventType).toBe("AUTH_STATUS");
    const odd = parseInboxFilter({ status: "BOGUS", type: "drop table;", pull: "x", page: "-3" });
    expect(odd).toEqual({ filter: { page: 1 }, ignored: ["status", "type", "pull", "page"] });
    expect((await listInboxEvents(database.db, parseInboxFilter({ pull: PULL }).filter)).total).toBe(4);
  });

  it("puts one failed event back in the queue with fresh attempts, and leaves others alone", async () => {
    const [failed] = await database.db.select().from(webhookEvents).where(eq(webhookEvents.dedupKey, "b"));
    const [done] = await database.db.select().from(webhookEvents).where(eq(webhookEvents.dedupKey, "a"));
    expect(await retryInboxEvent(database.db, failed?.id ?? 0)).toBe(true);
    expect(await retryInboxEvent(database.db, failed?.id ?? 0)).toBe(false); // no longer failed
    expect(await retryInboxEvent(database.db, done?.id ?? 0)).toBe(false);
    const [requeued] = await database.db.select().from(webhookEvents).where(eq(webhookEvents.dedupKey, "b"));
    expect(requeued).toMatchObject({ status: "PENDING", attempts: 0 });
    expect(await retryAllFailedEvents(database.db)).toBe(1);
    expect((await countInboxByStatus(database.db)).FAILED).toBe(0);
  });
});
