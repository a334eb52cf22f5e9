import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pulls, webhookEvents } from "@/db/schema";
import type { Actor } from "@/lib/core/actor";
import type { ServiceConfig } from "@/lib/service/client";
import { rateLimitedUntil, resetServiceHealth } from "@/lib/service/health";
import { fetchPullPayload } from "@/lib/service/pulls-api";
import type { Sandbox } from "@/sandbox/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { inboxByStatus, receiveEvents, waitForInbox } from "@/test/inbox-status";
import { controlSandbox, startServiceSandbox } from "@/test/service-sandbox";
import { loadEventsPage } from "@/lib/loaders/events";
import { MAX_EVENT_ATTEMPTS } from "./retry-policy";
import { runWorkerLoop } from "./worker-loop";

// The service rate-limits Coverdesk for longer than the old attempt limit would have lasted:
// every fetch is answered 429 with Retry-After: 1. No event may fail for it or have it counted
// as an attempt, the worker must send nothing before each Retry-After has passed (the sandbox
// counts any request that comes sooner), the Events page must say so, and once the limit lifts
// every event is stored.

const TEAM = "0b7d6c5e-4f3a-4b2c-9d1e-8f7a6b5c4d3e";
const PULLS = 3;

let database: TestDatabase;
let sandbox: Sandbox;
let service: ServiceConfig;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ sandbox, service } = await startServiceSandbox("storm", { teamId: TEAM, seed: 11 }));
  resetServiceHealth();
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

const byStatus = () => inboxByStatus(database.db);
const waitFor = (what: string, check: () => Promise<boolean> | boolean, ms?: number) =>
  waitForInbox(database.db, what, check, ms);

const admin: Actor = {
  id: "00000000-0000-4000-8000-000000000001",
  name: "A",
  role: "ADMIN",
  sessionId: "s",
};

describe("a 429 storm during ingestion", () => {
  it(
    "keeps every event waiting without counting it, asks nothing early, and stores all once it lifts",
    { timeout: 90_000 },
    async () => {
      await controlSandbox(sandbox, "rate-limit", { retryAfterSeconds: 1 });
      const ids = [...sandbox.state.pulls.values()]
        .filter((p) => !p.parent_pull_id)
        .slice(0, PULLS)
        .map((p) => p.pull_id);
      await receiveEvents(database.db, ids, ["POLICIES_AVAILABLE", "COMPLETE"]);

      const log: string[] = [];
      const worker = runWorkerLoop({
        workerId: "worker-storm",
        getDb: async () => database.db,
        // As the app's worker calls the service (lib/ingest/worker.ts): a fetch waits at most a second.
        fetchPull: (pullId) => fetchPullPayload({ ...service, maxWaitMs: 1_000 }, pullId),
        pollIntervalMs: 10,
        // One pull a cycle, so every request follows the answer to the one before and the
        // sandbox's count of early requests is exact. A failed event would come back at once:
        // under the old policy every event would be parked as failed within a second.
        processOptions: { batchSize: 1, retryDelayMs: () => 10 },
        log: (line) => log.push(line),
      });

      // Longer than the old attempt limit: more refusals than an event had attempts.
      await waitFor(
        "the storm to outlast the attempt limit",
        () => sandbox.state.rateLimit.refused > MAX_EVENT_ATTEMPTS,
      );
      const during = await byStatus();
      expect(during.FAILED).toBeUndefined();
      expect(during.DONE).toBeUndefined();
      expect(during.PENDING?.n ?? 0).toBeGreaterThanOrEqual(ids.length * 2 - 2); // one pull's events may be in flight
      expect(during.PENDING?.most ?? 0).toBe(0);
      const [waiting] = await database.db
        .select({ error: webhookEvents.lastError })
        .from(webhookEvents)
        .where(sql`${webhookEvents.lastError} is not null`)
        .limit(1);
      expect(waiting?.error).toMatch(/RATE_LIMITED|limiting requests/);

      expect(rateLimitedUntil()).not.toBeNull();
      const page = await loadEventsPage(database.db, admin, {});
      expect(page.rateLimited).not.toBeNull();
      expect(page.rateLimited?.waiting).toBeGreaterThanOrEqual(ids.length * 2 - 2);
      expect(Date.parse(page.rateLimited?.until ?? "")).toBeGreaterThan(Date.now() - 1_000);

      await controlSandbox(sandbox, "rate-limit", { off: true });
      await waitFor("every event to be done", async () => (await byStatus()).DONE?.n === ids.length * 2);
      await worker.stop(5_000);

      expect(await byStatus()).toEqual({ DONE: { n: ids.length * 2, most: 1 } });
      expect(await database.db.select({ id: pulls.pullId }).from(pulls)).toHaveLength(ids.length);
      expect(sandbox.state.rateLimit.early).toBe(0);
      expect(log.some((line) => line.includes("the service is limiting requests"))).toBe(true);
      expect(log.some((line) => line.includes("rate limit is over"))).toBe(true);
    },
  );
});
