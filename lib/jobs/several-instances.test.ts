import { and, eq, sql } from "drizzle-orm";
import { encode, decode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Connection } from "@/db/connect";
import {
  assignmentSettings,
  auditEvents,
  pulls,
  users,
  webhookDeliveries,
  webhookEndpoints,
  webhookEvents,
} from "@/db/schema";
import { DEMO_PASSWORD, ensureDemoUsers } from "@/lib/auth/demo-users";
import { signInWithPassword } from "@/lib/auth/credentials";
import { getAuthOptions } from "@/lib/auth/options";
import { endUserSession, getOpenSessionUser, startUserSession } from "@/lib/auth/user-sessions";
import { parseEnv } from "@/lib/env";
import { receiveWebhook } from "@/lib/ingest/receive-webhook";
import { runWorkerLoop, type WorkerLoop } from "@/lib/ingest/worker-loop";
import type { ServiceConfig } from "@/lib/service/client";
import { fetchPullPayload, iteratePulls } from "@/lib/service/pulls-api";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { JOBS, type JobContext } from "./catalog";
import { createRunner, type Runner } from "./runner";
import { registerJobs } from "./start";

// Two app instances and their background work against one PostgreSQL, as behind a load
// balancer: each with its own connection pool, webhook receiver, inbox worker and job runner, the
// database their only link (as between two machines). What must hold: a scheduled job fires once
// a tick across both, every webhook delivered to either is processed once (one store, one audit
// entry, one outgoing event), and a session opened on one is honoured, and ended, on the other.

const onPostgres = Boolean(process.env.DATABASE_URL);
const TEAM = "5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d";
const PULLS = 60;

type Instance = { name: string; connection: Connection };

let database: TestDatabase;
let instances: [Instance, Instance];
let sandbox: Sandbox;
let service: ServiceConfig;
const runners: Runner[] = [];
const loops: WorkerLoop[] = [];

async function openInstance(name: string): Promise<Instance> {
  if (database.driver.kind !== "postgres") throw new Error("two instances need PostgreSQL");
  return { name, connection: await openDatabase({ kind: "postgres", url: database.driver.url, maxConnections: 5 }) };
}

async function until(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  if (!onPostgres) return;
  database = await createTestDatabase();
  instances = [await openInstance("instance-a"), await openInstance("instance-b")];
  await ensureDemoUsers(database.db);
  sandbox = await startSandbox({
    port: 0,
    clientId: "instances",
    clientSecret: "instances-secret",
    teamId: TEAM,
    webhookUrl: null,
    webhookSecret: null,
    seed: 7,
    pullCount: PULLS,
    speed: 0.001,
    deliverOnStart: false,
  });
  service = {
    baseUrl: sandbox.baseUrl,
    teamId: TEAM,
    clientId: "instances",
    clientSecret: "instances-secret",
    timeoutMs: 5_000,
  };
});

afterAll(async () => {
  await Promise.all(loops.map((loop) => loop.stop(5_000)));
  for (const runner of runners) await runner.stop({ graceful: false, wait: true });
  for (const instance of instances ?? []) await instance.connection.close();
  await sandbox?.close();
  await database?.close();
});

describe.skipIf(!onPostgres)("two instances on one PostgreSQL", () => {
  it("fire a catalog job's schedule once a tick across both runners", async () => {
    const job = JOBS.find((j) => j.name === "speed-to-lead");
    if (!job) throw new Error("the catalog has no speed-to-lead job");
    expect(job.cron).toBe("* * * * *"); // due at every check, so both runners find it due every time
    const runs: string[] = []; // the minute each run started in
    const counted = {
      ...job,
      atStart: undefined,
      run: async () => {
        runs.push(new Date().toISOString().slice(0, 16));
        return null;
      },
    };
    const config = parseEnv({ NODE_ENV: "test" });
    for (const instance of instances) {
      // Each its own pg-boss, checking the schedules every second (30 s in the app).
      const runner = await createRunner(instance.connection, { worker: true, cronCheckSeconds: 1 });
      runners.push(runner);
      const context = async (): Promise<JobContext> => ({ db: instance.connection.db, config, log: () => {} });
      await registerJobs(runner, [counted], context, config, { pollSeconds: 0.5 });
    }
    await until(async () => runs.length > 0);
    // Both runners look for due schedules every second meanwhile, and work the queue every half second.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(runs.length).toBeGreaterThan(0);
    // A run a minute at most: a second one only when the test crossed into the next minute.
    expect(new Set(runs).size).toBe(runs.length);
    for (const runner of runners) await runner.offWork(counted.name);
  });

  it("process every webhook delivered to either instance once: one store, one audit entry, one outgoing event", async () => {
    const db = database.db;
    // Round-robin assignment writes an audit entry and an outgoing event for each new lead, and
    // takes a turn in the one settings row: doubled work would show, and a lost turn too.
    await db.insert(assignmentSettings).values({ id: 1, mode: "ROUND_ROBIN" });
    await db.insert(webhookEndpoints).values({
      url: "https://receiver.example.com/hooks",
      events: ["pull.created", "pull.assigned"],
      secretSealed: "not used: nothing is delivered in this test",
      createdByName: "test",
    });
    const ids: string[] = [];
    for await (const pull of iteratePulls(service)) if (pull.status === "SUCCESS") ids.push(pull.pull_id);
    expect(ids.length).toBeGreaterThan(20);

    // Every event twice: once to each instance, as the sender's retry after a lost answer may
    // land on the other one. The load balancer alternates.
    const bodies = ids.flatMap((pullId, i) => [
      JSON.stringify({ event_type: "COMPLETE", pull_id: pullId, status: "SUCCESS", data: {}, n: i }),
      JSON.stringify({ event_type: "POLICIES_AVAILABLE", pull_id: pullId, status: "SUCCESS", data: {}, n: i }),
    ]);
    const statuses = await Promise.all(
      [...bodies, ...bodies].map(async (body, i) => {
        const instance = instances[i % 2] as Instance;
        return (await receiveWebhook(instance.connection.db, body, { webhookSecret: null, signatureHeader: null }))
          .status;
      }),
    );
    expect(statuses.filter((s) => s === 202)).toHaveLength(bodies.length); // stored once…
    expect(statuses.filter((s) => s === 200)).toHaveLength(bodies.length); // …the copy answered as a duplicate

    // Both instances' workers at once, each fetching through its own pool.
    const fetchedBy = new Map<string, string[]>();
    for (const instance of instances) {
      loops.push(
        runWorkerLoop({
          workerId: instance.name,
          getDb: async () => instance.connection.db,
          fetchPull: async (pullId) => {
            fetchedBy.set(pullId, [...(fetchedBy.get(pullId) ?? []), instance.name]);
            return fetchPullPayload(service, pullId);
          },
          pollIntervalMs: 50,
          processOptions: { batchSize: 5 },
        }),
      );
    }
    await until(async () => {
      const [open] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(webhookEvents)
        .where(sql`${webhookEvents.status} <> 'DONE'`);
      return open?.n === 0;
    });
    await Promise.all(loops.splice(0).map((loop) => loop.stop(5_000)));

    // Each event claimed once (one attempt), each pull fetched once, by one instance or the other.
    const events = await db.select({ attempts: webhookEvents.attempts }).from(webhookEvents);
    expect(events).toHaveLength(bodies.length);
    expect(events.every((e) => e.attempts === 1)).toBe(true);
    expect([...fetchedBy.values()].every((by) => by.length === 1)).toBe(true);
    expect(new Set(fetchedBy.keys())).toEqual(new Set(ids));
    const workers = new Set([...fetchedBy.values()].flat());
    expect(workers).toEqual(new Set(["instance-a", "instance-b"])); // both took a share

    const [stored] = await db.select({ n: sql<number>`count(*)::int` }).from(pulls);
    expect(stored?.n).toBe(ids.length);
    // Only a pull that became a lead of its own is assigned automatically (not a refresh of an
    // account already held, nor a child pull): each of those once, with one outgoing event.
    const assignments = await db
      .select({ pullId: auditEvents.pullId, to: auditEvents.subjectUserId, n: sql<number>`count(*)::int` })
      .from(auditEvents)
      .where(eq(auditEvents.action, "PULL_ASSIGNED"))
      .groupBy(auditEvents.pullId, auditEvents.subjectUserId);
    expect(assignments.length).toBeGreaterThan(10);
    expect(new Set(assignments.map((a) => a.pullId)).size).toBe(assignments.length);
    expect(assignments.every((a) => a.n === 1)).toBe(true);
    for (const [type, expected] of [
      ["pull.created", new Set(ids)],
      ["pull.assigned", new Set(assignments.map((a) => a.pullId))],
    ] as const) {
      const deliveries = await db
        .select({
          pullId: sql<string>`${webhookDeliveries.payload}->'data'->>'pull_id'`,
          n: sql<number>`count(*)::int`,
        })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.eventType, type))
        .groupBy(sql`1`);
      expect(new Set(deliveries.map((d) => d.pullId)), type).toEqual(expected);
      expect(
        deliveries.every((d) => d.n === 1),
        type,
      ).toBe(true);
    }
    // The round-robin turns were taken one after another: the agents' shares differ by one at most.
    const shares = new Map<string | null, number>();
    for (const a of assignments) shares.set(a.to, (shares.get(a.to) ?? 0) + 1);
    const [agents] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(and(eq(users.role, "AGENT"), eq(users.isActive, true)));
    expect(shares.size).toBe(agents?.n);
    expect(Math.max(...shares.values()) - Math.min(...shares.values())).toBeLessThanOrEqual(1);
  });

  it("honour a session opened on one instance on the other, and end it on both", async () => {
    const [a, b] = instances;
    // Both instances run with the same NEXTAUTH_SECRET: the cookie one signs, the other opens.
    const shared = "the-secret-every-instance-shares-0123456789";
    const callbacks = getAuthOptions().callbacks;
    const [admin] = await database.db.select({ email: users.email }).from(users).where(eq(users.role, "ADMIN"));

    // Instance A signs in (what the credentials provider does there) and issues the cookie.
    const outcome = await signInWithPassword(
      a.connection.db,
      { email: admin?.email, password: DEMO_PASSWORD },
      { demoMode: true, address: "192.0.2.10" },
    );
    if (outcome.status !== "signed-in") throw new Error(`not signed in: ${outcome.status}`);
    const sessionId = await startUserSession(a.connection.db, outcome.user.id, {
      address: "192.0.2.10",
      lifetimeSeconds: 3_600,
    });
    const token = await callbacks?.jwt?.({ token: {}, user: { ...outcome.user, sessionId } as never, account: null });
    const cookie = await encode({ token: token ?? {}, secret: shared });

    // Instance B reads the cookie and checks the session as every request there does.
    const checkOn = async (instance: Instance, secret: string) => {
      const decoded = await decode({ token: cookie, secret }).catch(() => null);
      if (!decoded) return null;
      const session = (await callbacks?.session?.({ session: { expires: "", user: {} }, token: decoded } as never)) as {
        user: { id: string };
        sessionId?: string;
      };
      return getOpenSessionUser(instance.connection.db, session.user.id, session.sessionId);
    };
    expect((await checkOn(b, shared))?.id).toBe(outcome.user.id);
    expect((await checkOn(a, shared))?.id).toBe(outcome.user.id);
    // An instance started with a secret of its own cannot read the others' cookies.
    expect(await checkOn(b, "a-different-secret-on-a-misconfigured-instance")).toBeNull();

    // Signing out through B ends the session for A as well: it lives in the database.
    await endUserSession(b.connection.db, sessionId, "SIGNED_OUT");
    expect(await checkOn(a, shared)).toBeNull();
    expect(await checkOn(b, shared)).toBeNull();
  });
});
