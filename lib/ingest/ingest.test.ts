import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { policies, pulls, webhookEvents } from "@/db/schema";
import type { ServiceConfig } from "@/lib/service/client";
import { fetchPullListPage, fetchPullPayload } from "@/lib/service/pulls-api";
import { signPayload } from "@/lib/service/signature";
import { startSandbox } from "@/sandbox/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { processDueEvents, releaseStaleClaims } from "./process-events";
import { receiveWebhook } from "./receive-webhook";
import { runSync, startSyncRun } from "./sync";

// The ingestion path end to end over real HTTP: webhook → inbox → worker → sandbox → stored pull.

const TEAM = "5f0c3c55-6d2a-4c8e-9a55-2d8f1b7c9e01";
let database: TestDatabase;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let service: ServiceConfig;
let topLevelSuccess: Array<{ pull_id: string }>;

const completeEvent = (pullId: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ event_type: "COMPLETE", pull_id: pullId, team_id: TEAM, status: "SUCCESS", data: {}, ...extra });

const noSecret = { webhookSecret: null, signatureHeader: null };
const fetchPull = (pullId: string) => fetchPullPayload(service, pullId);
const runWorker = () => processDueEvents(database.db, fetchPull, { workerId: "test-worker", batchSize: 100 });

async function control(path: string, body: unknown) {
  const response = await fetch(`${sandbox.url}/_sandbox/${path}`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
  expect(response.ok).toBe(true);
}

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandbox({
    port: 0,
    clientId: "ingest-client",
    clientSecret: "ingest-secret",
    teamId: TEAM,
    webhookUrl: null,
    webhookSecret: null,
    seed: 7,
    pullCount: 36,
    speed: 0.001,
    deliverOnStart: false,
  });
  service = {
    baseUrl: sandbox.baseUrl,
    teamId: TEAM,
    clientId: "ingest-client",
    clientSecret: "ingest-secret",
    timeoutMs: 2_000,
    retryBaseMs: 1,
    maxAttempts: 2,
  };
  const page = (await fetchPullListPage(service, { limit: 100 })) as {
    pulls: Array<{ pull_id: string; status: string; parent_pull_id: string | null }>;
  };
  topLevelSuccess = page.pulls.filter((p) => p.status === "SUCCESS" && !p.parent_pull_id);
});

afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

beforeEach(async () => {
  await control("reset", {});
  await database.db.delete(webhookEvents);
  await database.db.delete(pulls);
});

describe("ingestion", () => {
  it("stores every pull announced by webhook exactly once, even when webhooks repeat", async () => {
    expect(topLevelSuccess.length).toBeGreaterThanOrEqual(20);
    for (const pull of topLevelSuccess) {
      expect((await receiveWebhook(database.db, completeEvent(pull.pull_id), noSecret)).status).toBe(202);
    }
    const repeat = await receiveWebhook(database.db, completeEvent(topLevelSuccess[0]?.pull_id ?? ""), noSecret);
    expect(repeat).toEqual({ status: 200, body: { received: true, duplicate: true } });

    const summary = await runWorker();
    expect(summary).toMatchObject({ claimed: topLevelSuccess.length, done: topLevelSuccess.length, failed: 0 });

    const stored = await database.db.select({ id: pulls.pullId, raw: pulls.raw }).from(pulls);
    expect(stored.map((p) => p.id).sort()).toEqual(topLevelSuccess.map((p) => p.pull_id).sort());
    // What is stored is what the service serves for that pull, not the webhook body.
    const sample = topLevelSuccess[0]?.pull_id ?? "";
    const served = (await fetchPullPayload(service, sample)) as { pull: unknown };
    expect(stored.find((p) => p.id === sample)?.raw).toEqual(served.pull);

    const policyRows = await database.db.select({ n: sql<number>`count(*)::int` }).from(policies);
    expect(policyRows[0]?.n).toBeGreaterThan(topLevelSuccess.length);
    expect((await runWorker()).claimed).toBe(0);
  });

  it("joins a pull to the account its webhook names, though the service's pull carries none", async () => {
    const reading = [...sandbox.state.pulls.values()].find(
      (p) => p.status === "SUCCESS" && !p.parent_pull_id && p.type === "PULLING_DATA" && p.account_identifier,
    );
    if (!reading) throw new Error("no seeded reading");
    const served = (await fetchPullPayload(service, reading.pull_id)) as { pull: object };
    expect(served.pull).not.toHaveProperty("account_identifier");

    // Read by the sync before any webhook named it: it stands alone, as it would at the service.
    await runSync(database.db, service, (await startSyncRun(database.db, "MANUAL")).run);
    const account = async () =>
      (
        await database.db
          .select({ account: pulls.accountIdentifier })
          .from(pulls)
          .where(eq(pulls.pullId, reading.pull_id))
      )[0]?.account;
    expect(await account()).toBeNull();

    // The sandbox's own COMPLETE webhook for it carries the account.
    const body = JSON.stringify(sandbox.context.webhookBody(reading, "COMPLETE", {}));
    expect((await receiveWebhook(database.db, body, noSecret)).status).toBe(202);
    expect(await runWorker()).toMatchObject({ claimed: 1, done: 1 });
    expect(await account()).toBe(reading.account_identifier);
  });

  it("parks an event for a pull the service does not know, without retrying it", async () => {
    const unknown = "00000000-0000-4000-8000-00000000beef";
    await receiveWebhook(database.db, completeEvent(unknown), noSecret);
    const summary = await runWorker();
    expect(summary).toMatchObject({ claimed: 1, failed: 1, retried: 0 });
    const [event] = await database.db.select().from(webhookEvents).where(eq(webhookEvents.pullId, unknown));
    expect(event?.status).toBe("FAILED");
    expect(event?.attempts).toBe(1);
    expect(event?.lastError).toContain(unknown);
    expect(await database.db.select().from(pulls)).toHaveLength(0);
  });

  it("retries after service errors with a delay, and stores the pull once the service recovers", async () => {
    const pullId = topLevelSuccess[1]?.pull_id ?? "";
    await receiveWebhook(database.db, completeEvent(pullId), noSecret);
    await control("faults", { errorRate: 1 });
    expect(await runWorker()).toMatchObject({ claimed: 1, retried: 1 });
    const [waiting] = await database.db.select().from(webhookEvents);
    expect(waiting?.status).toBe("PENDING");
    expect(waiting?.lastError).toMatch(/500/);
    expect(waiting?.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    expect((await runWorker()).claimed).toBe(0); // not due yet

    await control("faults", { errorRate: 0 });
    await database.db.update(webhookEvents).set({ nextAttemptAt: new Date(Date.now() - 1000) });
    expect(await runWorker()).toMatchObject({ claimed: 1, done: 1 });
    expect(await database.db.select({ id: pulls.pullId }).from(pulls)).toEqual([{ id: pullId }]);
  });

  it("hands back claims abandoned by a crashed worker", async () => {
    await receiveWebhook(database.db, completeEvent(topLevelSuccess[2]?.pull_id ?? ""), noSecret);
    await database.db
      .update(webhookEvents)
      .set({ status: "PROCESSING", lockedBy: "dead-worker", lockedAt: new Date(Date.now() - 10 * 60_000) });
    expect(await releaseStaleClaims(database.db, 120_000)).toBe(1);
    expect(await runWorker()).toMatchObject({ claimed: 1, done: 1 });
  });

  it("refuses bad deliveries before anything is stored", async () => {
    const body = completeEvent(topLevelSuccess[0]?.pull_id ?? "");
    const now = Math.floor(Date.now() / 1000);
    const secret = { webhookSecret: "s3cret" };
    expect((await receiveWebhook(database.db, body, { ...secret, signatureHeader: null })).status).toBe(401);
    expect(
      (await receiveWebhook(database.db, body, { ...secret, signatureHeader: signPayload("wrong", body, now) })).status,
    ).toBe(401);
    expect(
      (
        await receiveWebhook(database.db, body, {
          ...secret,
          signatureHeader: signPayload("s3cret", body, now - 9 * 3600),
        })
      ).status,
    ).toBe(401);
    expect((await receiveWebhook(database.db, "{oops", noSecret)).status).toBe(400);
    expect(
      (await receiveWebhook(database.db, JSON.stringify({ event_type: "COMPLETE", pull_id: "nope" }), noSecret)).status,
    ).toBe(400);
    expect((await receiveWebhook(database.db, "x".repeat(1024 * 1024 + 1), noSecret)).status).toBe(413);
    expect(await database.db.select().from(webhookEvents)).toHaveLength(0);
    expect(
      (await receiveWebhook(database.db, body, { ...secret, signatureHeader: signPayload("s3cret", body, now) }))
        .status,
    ).toBe(202);
  });

  it("stores a retry signed hours ago, once, and a replay of it changes nothing", async () => {
    // The service retries for about 7 hours and may not sign a retry anew (see lib/env.ts).
    const body = completeEvent(topLevelSuccess[1]?.pull_id ?? "");
    const signedAtFirstAttempt = Math.floor(Date.now() / 1000) - 6 * 3600;
    const retry = { webhookSecret: "s3cret", signatureHeader: signPayload("s3cret", body, signedAtFirstAttempt) };
    expect((await receiveWebhook(database.db, body, retry)).status).toBe(202);
    expect((await receiveWebhook(database.db, body, retry)).status).toBe(200);
    expect(await database.db.select().from(webhookEvents)).toHaveLength(1);
    expect(
      (await receiveWebhook(database.db, body, { ...retry, maxSignatureAgeSeconds: 3600 })).status,
      "a stricter setting refuses it",
    ).toBe(401);
  });
});
