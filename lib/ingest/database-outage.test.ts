import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pulls, webhookEvents } from "@/db/schema";
import type { ServiceConfig } from "@/lib/service/client";
import { fetchPullPayload } from "@/lib/service/pulls-api";
import { unwrapPull } from "@/lib/service/schemas";
import { contentHash } from "@/lib/pulls/projection";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { setFaults } from "@/test/sandbox-faults";
import { relayPostgres, type TcpProxy } from "@/test/tcp-proxy";

// The database goes away in the middle of ingestion and comes back. A TCP relay sits between
// the app's database client and PostgreSQL (the machine's server is shared and must not be
// restarted); the app's own webhook route and worker run against it, the sandbox serves the
// pulls. While the relay cuts every connection and refuses new ones, the route must answer
// non-2xx (so the sender delivers again) and the worker must survive; afterwards every pull is
// stored once with its latest data and every event is DONE.

const TEAM = "7e1d2c3b-4a59-4687-9a8b-c0d1e2f3a4b5";
const PULLS = 150;
const OUTAGE_MS = 4_000;
const onPostgres = Boolean(process.env.DATABASE_URL);

let database: TestDatabase;
let sandbox: Sandbox;
let proxy: TcpProxy;
let service: ServiceConfig;
const savedEnv = { ...process.env };

beforeAll(async () => {
  if (!onPostgres) return;
  database = await createTestDatabase();
  sandbox = await startSandbox({
    port: 0,
    clientId: "outage",
    clientSecret: "outage-secret",
    teamId: TEAM,
    webhookUrl: null,
    webhookSecret: null,
    seed: 31,
    pullCount: PULLS,
    speed: 0.001,
    deliverOnStart: false,
  });
  service = {
    baseUrl: sandbox.baseUrl,
    teamId: TEAM,
    clientId: "outage",
    clientSecret: "outage-secret",
    timeoutMs: 2_000,
    retryBaseMs: 1,
    maxAttempts: 2,
  };
  const relay = await relayPostgres(database.name);
  proxy = relay.proxy;
  // The app's modules read their configuration from the environment, once, on first use.
  Object.assign(process.env, {
    DATABASE_URL: relay.url,
    SERVICE_BASE_URL: sandbox.baseUrl,
    SERVICE_TEAM_ID: TEAM,
    SERVICE_CLIENT_ID: "outage",
    SERVICE_CLIENT_SECRET: "outage-secret",
    SERVICE_TIMEOUT_MS: "2000",
    SERVICE_WEBHOOK_SECRET: "",
    COVERDESK_SYNC_INTERVAL_MINUTES: "0",
  });
});

afterAll(async () => {
  if (!onPostgres) return;
  const { stopWorker } = await import("./worker");
  await stopWorker(5_000);
  const { closeDb } = await import("@/db/client");
  await closeDb();
  await proxy?.close();
  await sandbox?.close();
  await database?.close();
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
});

const countOpen = async () => {
  const [row] = await database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookEvents)
    .where(sql`${webhookEvents.status} in ('PENDING', 'PROCESSING')`);
  return row?.n ?? 0;
};

describe.skipIf(!onPostgres)(
  "PostgreSQL lost during ingestion (PostgreSQL only: PGlite runs inside the process, there is no connection to cut)",
  () => {
    it(
      "answers non-2xx while it cannot store, keeps the worker alive, and loses nothing",
      { timeout: 120_000 },
      async () => {
        const { POST } = await import("@/app/api/webhooks/service/route");
        const { startWorker } = await import("./worker");
        await setFaults(sandbox, { latencyMs: 15 }); // fetches are in flight when the cut comes
        startWorker();

        const ids = [...sandbox.state.pulls.keys()];
        const bodies = ids.flatMap((pullId) =>
          ["AUTH_STATUS", "COMPLETE"].map((type, n) =>
            JSON.stringify({
              event_type: type,
              pull_id: pullId,
              status: "SUCCESS",
              data: type === "AUTH_STATUS" ? { auth_status: "SUCCESS", sequence: n + 1 } : {},
            }),
          ),
        );

        // The sender behaves like the service: anything but 2xx is delivered again, after a pause.
        const answers = { accepted: 0, duplicate: 0, refused: 0, refusedStatuses: new Set<number>() };
        const deliver = async (body: string) => {
          for (;;) {
            const response = await POST(
              new Request("http://app.test/api/webhooks/service", {
                method: "POST",
                body,
                headers: { "content-type": "application/json" },
              }),
            );
            if (response.status === 202) answers.accepted++;
            else if (response.status === 200) answers.duplicate++;
            else {
              answers.refused++;
              answers.refusedStatuses.add(response.status);
              await new Promise((r) => setTimeout(r, 200));
              continue;
            }
            return;
          }
        };
        const deliverAll = async (all: string[], concurrency: number) => {
          let next = 0;
          await Promise.all(
            Array.from({ length: concurrency }, async () => {
              while (next < all.length) await deliver(all[next++] ?? "");
            }),
          );
        };

        const firstHalf = bodies.slice(0, bodies.length / 2);
        const secondHalf = bodies.slice(bodies.length / 2);
        await deliverAll(firstHalf, 10);
        // Wait for the worker to be in the middle of it: some pulls stored, others still waiting.
        for (let i = 0; i < 200; i++) {
          const [row] = await database.db.select({ n: sql<number>`count(*)::int` }).from(pulls);
          if ((row?.n ?? 0) >= 10) break;
          await new Promise((r) => setTimeout(r, 25));
        }
        const [storedBeforeCut] = await database.db.select({ n: sql<number>`count(*)::int` }).from(pulls);
        expect(storedBeforeCut?.n ?? 0, "the worker was mid-run when the database went away").toBeLessThan(PULLS);

        // The database goes away. Meanwhile data changes at the service, announced by webhooks
        // that arrive while nothing can be stored, alongside the second half of the deliveries.
        proxy.cut();
        const changed = ids.slice(0, 20);
        for (const id of changed) {
          const pull = sandbox.state.pulls.get(id);
          if (pull) sandbox.state.pulls.set(id, { ...pull, first_name: `${String(pull.first_name)} Changed` });
        }
        const announcements = changed.map((pullId) =>
          JSON.stringify({
            event_type: "DATA_UPDATED",
            pull_id: pullId,
            status: "SUCCESS",
            data: { updates: ["first_name"] },
          }),
        );
        const lateDeliveries = deliverAll([...announcements, ...secondHalf], 10);
        await new Promise((r) => setTimeout(r, OUTAGE_MS));
        const refusedDuringOutage = answers.refused;
        proxy.restore();
        const restoredAt = Date.now();
        await lateDeliveries;
        const deliveredAfterMs = Date.now() - restoredAt;

        const deadline = Date.now() + 60_000;
        while ((await countOpen()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        const settledAfterMs = Date.now() - restoredAt;

        // The route refused while it could not store, with a status that makes the sender retry.
        expect(refusedDuringOutage).toBeGreaterThan(0);
        expect([...answers.refusedStatuses]).toEqual([503]);
        expect(proxy.refused, "connections were refused while the database was away").toBeGreaterThan(0);

        const byStatus = await database.db
          .select({ status: webhookEvents.status, n: sql<number>`count(*)::int` })
          .from(webhookEvents)
          .groupBy(webhookEvents.status);
        const leftovers = await database.db
          .select({ status: webhookEvents.status, lockedBy: webhookEvents.lockedBy, error: webhookEvents.lastError })
          .from(webhookEvents)
          .where(sql`${webhookEvents.status} <> 'DONE'`)
          .limit(5);
        expect(byStatus, JSON.stringify(leftovers)).toEqual([
          { status: "DONE", n: bodies.length + announcements.length },
        ]);

        const stored = await database.db
          .select({ pullId: pulls.pullId, firstName: pulls.firstName, contentHash: pulls.contentHash })
          .from(pulls);
        expect(stored).toHaveLength(PULLS);
        const storedById = new Map(stored.map((row) => [row.pullId, row]));
        await setFaults(sandbox, { latencyMs: 0 });
        for (const id of ids)
          expect(storedById.get(id)?.contentHash, id).toBe(
            contentHash(unwrapPull(await fetchPullPayload(service, id))),
          );
        for (const id of changed) expect(storedById.get(id)?.firstName).toMatch(/ Changed$/);
        console.info(
          `[outage] ${bodies.length + announcements.length} events: ${answers.refused} answers 503 (${refusedDuringOutage} during the ${OUTAGE_MS} ms outage), ${proxy.refused} connections refused; every delivery stored ${deliveredAfterMs} ms and every event DONE ${settledAfterMs} ms after the database returned`,
        );
      },
    );
  },
);
