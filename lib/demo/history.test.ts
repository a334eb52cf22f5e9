import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { and, asc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditEvents,
  dealReturns,
  findingDecisions,
  legalHolds,
  monitoringEvents,
  monitorings,
  privacyRequests,
  pulls,
  users,
  webhookDeliveries,
  webhookEndpoints,
} from "@/db/schema";
import type { Db } from "@/db/types";
import { queryRows } from "@/db/connect";
import { signInWithPassword } from "@/lib/auth/credentials";
import { EnvError, parseEnv } from "@/lib/env";
import { PRODUCTION_ENV } from "@/test/production-env";
import { receiveWebhook } from "@/lib/ingest/receive-webhook";
import { runWorkerLoop, type WorkerLoop } from "@/lib/ingest/worker-loop";
import { getReport } from "@/lib/reports/queries";
import { deliverDueWebhooks } from "@/lib/webhooks/deliver";
import { webhookUrlPolicy } from "@/lib/webhooks/endpoints";
import { getIncidentScope, incidentScopeInputSchema } from "@/lib/audit/incident-scope";
import { fetchPullPayload } from "@/lib/service/pulls-api";
import { DEMO_PASSWORD, ensureDemoUsers, listActiveDemoUsers } from "@/lib/auth/demo-users";
import { getAgentHome } from "@/lib/workflow/my-pulls";
import { loadXDatesPage } from "@/lib/loaders/xdates";
import { loadCrossSellPage } from "@/lib/loaders/cross-sell";
import type { Sandbox } from "@/sandbox/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { startServiceSandbox } from "@/test/service-sandbox";
import { buildDemoHistory, getDemoHistoryMark } from "./history";
import { PEOPLE } from "./plan";
import { decideDemoHistory, DEMO_SEED } from "./start";

// The demo agency's history, built small (the size is a parameter) the way `npm run dev` builds
// it: the sandbox sends its webhooks over HTTP to a receiver that stores them in the inbox, the
// app's worker loop stores the pulls, and the agency's work goes through the commands.

const SIZE = 60;
const TEAM = "5f0c3c55-6d2a-4c8e-9a55-2d8f1b7c9e01";
const UNTIL = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000);
const DAY = 86_400_000;

type Agency = {
  database: TestDatabase;
  sandbox: Sandbox;
  bookIds: string[];
  result: Awaited<ReturnType<typeof buildDemoHistory>>;
  close: () => Promise<void>;
};

/** A database, a sandbox whose webhooks reach it, a worker, and the history built into them. */
async function buildAgency(name: string): Promise<Agency> {
  const database = await createTestDatabase();
  const db = database.db;
  await ensureDemoUsers(db);
  let worker: WorkerLoop | null = null;
  const receiver: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      void receiveWebhook(db, body, { webhookSecret: null, signatureHeader: null }).then((answer) => {
        res.writeHead(answer.status).end(JSON.stringify(answer.body));
        worker?.wake();
      });
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const { port } = receiver.address() as AddressInfo;
  const { sandbox, service } = await startServiceSandbox(name, {
    teamId: TEAM,
    seed: 3,
    webhookUrl: `http://127.0.0.1:${port}/`,
    speed: 0.002,
  });
  worker = runWorkerLoop({
    workerId: `demo-${name}`,
    getDb: async () => db,
    fetchPull: (pullId) => fetchPullPayload(service, pullId),
    pollIntervalMs: 100,
  });
  const result = await buildDemoHistory({
    db,
    service,
    controlUrl: `${sandbox.url}/_sandbox`,
    seed: DEMO_SEED,
    size: SIZE,
    until: UNTIL,
    waitTimeoutMs: 90_000,
  });
  const book = await db
    .select({ pullId: pulls.pullId })
    .from(pulls)
    .where(sql`${pulls.serviceCreatedAt} <= ${UNTIL.toISOString()}::timestamptz`);
  return {
    database,
    sandbox,
    bookIds: book.map((b) => b.pullId),
    result,
    close: async () => {
      await worker?.stop(2_000);
      await sandbox.close();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
      await database.close();
    },
  };
}

/** What two builds must agree on: each account's outcome and the history's audit trail. */
async function snapshot(db: Db, bookIds: string[]) {
  const accounts = await db
    .select({
      pullId: pulls.pullId,
      stage: pulls.stage,
      wonPremiumCents: pulls.wonPremiumCents,
      lostReason: pulls.lostReason,
      stageChangedAt: pulls.stageChangedAt,
      assignedAt: pulls.assignedAt,
      assignee: users.email,
    })
    .from(pulls)
    .leftJoin(users, eq(users.id, pulls.assigneeId))
    .where(inArray(pulls.pullId, bookIds))
    .orderBy(asc(pulls.pullId));
  const trail = await db
    .select({
      at: auditEvents.at,
      action: auditEvents.action,
      pullId: auditEvents.pullId,
      actor: auditEvents.actorName,
    })
    .from(auditEvents)
    .where(sql`${auditEvents.at} <= ${UNTIL.toISOString()}::timestamptz`)
    .orderBy(asc(auditEvents.at), asc(auditEvents.action), asc(auditEvents.pullId));
  return { accounts, trail };
}

let first: Agency;

beforeAll(async () => {
  first = await buildAgency("demo-a");
}, 240_000);
afterAll(async () => {
  await first?.close();
});

describe("the demo agency's history", () => {
  it("brings the book in through webhooks, dated over nine months", async () => {
    expect(first.bookIds).toHaveLength(SIZE);
    const [span] = await first.database.db
      .select({
        oldest: sql<string>`min(${pulls.serviceCreatedAt})::text`,
        newest: sql<string>`max(${pulls.serviceCreatedAt})::text`,
        aliases: sql<number>`count(distinct ${pulls.publicAlias})::int`,
        carriers: sql<number>`count(distinct ${pulls.providerName})::int`,
      })
      .from(pulls)
      .where(inArray(pulls.pullId, first.bookIds));
    expect(UNTIL.getTime() - Date.parse(span?.oldest ?? "")).toBeGreaterThan(180 * DAY);
    expect(UNTIL.getTime() - Date.parse(span?.newest ?? "")).toBeLessThan(30 * DAY);
    expect(span?.aliases).toBe(3);
    expect(span?.carriers).toBeGreaterThan(4);
    expect(first.result.failedSteps).toBe(0);
  });

  it("has won premium in several months of the reports", async () => {
    const report = await getReport(first.database.db, { period: "month" });
    const months = report.byPeriod.filter((row) => row.cents > 0);
    expect(months.length).toBeGreaterThanOrEqual(4);
    // Wins are dated when they were decided, not when the history was built.
    const [latest] = await first.database.db
      .select({ at: sql<string>`max(${pulls.stageChangedAt})::text` })
      .from(pulls)
      .where(eq(pulls.stage, "WON"));
    expect(Date.parse(latest?.at ?? "")).toBeLessThanOrEqual(UNTIL.getTime());
  });

  it("shows where business comes from by link, and first touches minutes to hours after linking", async () => {
    const report = await getReport(first.database.db, {});
    const links = report.sourcesByLink.filter((row) => row.arrived > 0);
    expect(links.length).toBeGreaterThanOrEqual(2);
    for (const link of links) {
      expect(["get-a-quote", "renewal-review", "business-intake"]).toContain(link.key);
      // Opened, assigned or taken by hand as the history did it: never at once, never days later.
      expect(link.medianToFirstTouchMs).toBeGreaterThan(60_000);
      expect(link.medianToFirstTouchMs).toBeLessThan(3 * DAY);
    }
    expect(
      report.sourcesByAgent.filter((row) => row.won > 0 && row.medianToWonMs !== null).length,
    ).toBeGreaterThanOrEqual(3);
  });

  it("gives each demo agent won, lost and open pulls", async () => {
    const db = first.database.db;
    const rows = await db
      .select({ email: users.email, stage: pulls.stage, n: sql<number>`count(*)::int` })
      .from(pulls)
      .innerJoin(users, eq(users.id, pulls.assigneeId))
      .where(eq(users.role, "AGENT"))
      .groupBy(users.email, pulls.stage);
    const stagesOf = (email: string) => new Set(rows.filter((r) => r.email === email).map((r) => r.stage));
    // The agent who can sign in has a pipeline of every stage; so has the agency as a whole.
    expect([...stagesOf(PEOPLE.alex)].sort()).toEqual(["LOST", "WON", "WORKING"]);
    const [alex] = await db.select({ id: users.id }).from(users).where(eq(users.email, PEOPLE.alex));
    const home = await getAgentHome(db, alex?.id ?? "");
    expect(home.stages.WORKING).toBeGreaterThan(0);
    expect(home.stages.WON).toBeGreaterThan(0);
    const agentsWithWins = new Set(rows.filter((r) => r.stage === "WON").map((r) => r.email));
    expect(agentsWithWins.size).toBeGreaterThanOrEqual(3);
    // Automatic assignment by rule and by hand both left their entries.
    const reasons = await db
      .select({ reason: sql<string>`${auditEvents.details}->>'reason'`, actor: auditEvents.actorId })
      .from(auditEvents)
      .where(eq(auditEvents.action, "PULL_ASSIGNED"));
    expect(reasons.some((r) => r.actor === null && /^rule|fallback/.test(r.reason ?? ""))).toBe(true);
    expect(reasons.some((r) => r.actor !== null)).toBe(true);
  });

  it("monitors part of the book, with refreshes that changed something and accounts to reconnect", async () => {
    const db = first.database.db;
    const monitored = await db.select().from(monitorings);
    expect(monitored.length).toBeGreaterThanOrEqual(7);
    // One started on the service's dashboard, found by the sync's pass over the monitorings.
    expect(monitored.filter((m) => m.origin === "SERVICE")).toHaveLength(1);
    const types = (await db.select({ type: monitoringEvents.type }).from(monitoringEvents)).map((e) => e.type);
    expect(new Set(types)).toEqual(new Set(["RENEWAL", "ENDORSEMENT", "CLAIM_OPENED", "CANCELED"]));
    const refreshed = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(pulls)
      .where(sql`${pulls.serviceCreatedAt} > ${UNTIL.toISOString()}::timestamptz`);
    expect(refreshed[0]?.n).toBeGreaterThanOrEqual(5);
    const reconnect = await db.select().from(monitorings).where(isNotNull(monitorings.reconnectRequestedAt));
    expect(reconnect.length).toBeGreaterThanOrEqual(2);
  });

  it("brings lost deals back as their X-dates near, one of them won again", async () => {
    const db = first.database.db;
    const returned = await db.select().from(dealReturns).where(eq(dealReturns.kind, "RECYCLED"));
    expect(returned.length).toBeGreaterThan(0);
    expect(returned.filter((r) => r.wonAt !== null)).toHaveLength(1);
    // Dated inside the history, like the rest of it.
    for (const r of returned) expect(r.returnedAt.getTime()).toBeLessThan(UNTIL.getTime());
    const report = await getReport(db, {});
    expect(report.recycledWins).toContainEqual(expect.objectContaining({ dimension: "kind", key: "RECYCLED", won: 1 }));
  });

  it("records clients' decisions on a few coverage review findings, dated inside the history", async () => {
    const db = first.database.db;
    const decisions = await db.select().from(findingDecisions);
    expect(decisions.length).toBeGreaterThanOrEqual(2);
    expect(decisions.map((d) => d.decision)).toContain("DECLINED");
    for (const d of decisions) expect(d.decidedAt.getTime()).toBeLessThan(UNTIL.getTime());
    const audits = await db.select().from(auditEvents).where(eq(auditEvents.action, "FINDING_DECIDED"));
    expect(audits).toHaveLength(decisions.length);
  });

  it("sends its outgoing webhooks to the sandbox's receiver, which verifies every signature", async () => {
    const { db } = first.database;
    const [endpoint] = await db.select().from(webhookEndpoints);
    expect(endpoint?.url).toBe(`${first.sandbox.url}/_sandbox/receiver`);
    // Two rounds, the second past the retry's wait: the receiver refuses every fifth first attempt.
    const policy = webhookUrlPolicy("test");
    const firstRound = await deliverDueWebhooks(db, { policy, limit: 40 });
    const later = new Date(Date.now() + 60_000);
    await deliverDueWebhooks(db, { policy, limit: 40, now: later });
    expect(firstRound.delivered).toBeGreaterThan(0);
    expect(firstRound.retrying).toBeGreaterThan(0);
    const seen = (await (await fetch(`${first.sandbox.url}/_sandbox/receiver`)).json()) as {
      secret_set: boolean;
      received: Array<{ type: string; verified: boolean }>;
    };
    expect(seen.secret_set).toBe(true);
    expect(seen.received.length).toBeGreaterThan(firstRound.delivered);
    expect(seen.received.every((r) => r.verified)).toBe(true);
    expect(new Set(seen.received.map((r) => r.type)).size).toBeGreaterThan(1);
    const delivered = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.status, "DELIVERED"));
    expect(delivered.length).toBe(seen.received.length);
  });

  it("has agents' views of their pulls on the trail, so the incident report answers on first run", async () => {
    const db = first.database.db;
    const [agent] = await db.select().from(users).where(eq(users.email, PEOPLE.alex));
    const from = new Date(UNTIL.getTime() - 300 * 86_400_000);
    const report = await getIncidentScope(
      db,
      incidentScopeInputSchema.parse({
        user: agent?.id,
        from: from.toISOString().slice(0, 16),
        to: UNTIL.toISOString().slice(0, 16),
      }),
    );
    expect(report.total).toBeGreaterThan(0);
    expect(report.states.some((s) => s.state !== null)).toBe(true);
    const [view] = await db.select().from(auditEvents).where(eq(auditEvents.action, "PULL_VIEWED")).limit(1);
    expect(view?.address).toMatch(/^198\.51\.100\.\d+$/);
  });

  it("has one lost deal's account on legal hold, placed by the admin with a reason", async () => {
    const db = first.database.db;
    const holds = await db.select().from(legalHolds);
    expect(holds).toHaveLength(1);
    expect(holds[0]).toMatchObject({ pullId: null, liftedAt: null, placedByName: expect.any(String) });
    expect(holds[0]?.reason).toMatch(/Complaint/);
    const placed = await db.select().from(auditEvents).where(eq(auditEvents.action, "LEGAL_HOLD_PLACED"));
    expect(placed).toHaveLength(1);
  });

  it("has one consumer's access request open on the request desk, its 45-day clock running", async () => {
    const requests = await first.database.db.select().from(privacyRequests);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ kind: "ACCESS", status: "OPEN", reference: "DEMO-1" });
    expect(requests[0]?.pullIds).toHaveLength(1);
    expect((requests[0]?.dueOn ?? "") > UNTIL.toISOString().slice(0, 10)).toBe(true);
  });

  it("has the service's policy check on its pulls: the demo's rules were saved before they arrived", async () => {
    // Each result per rule, vehicle and home comes only from the team's rules at the service.
    const rows = await queryRows<{ status: string | null; n: number }>(
      first.database.db,
      sql`select ${pulls.raw}->>'policy_check_status' as status, count(*)::int as n from ${pulls}
          where ${pulls.status} = 'SUCCESS' and jsonb_array_length(coalesce(${pulls.raw}->'policy_check_results', '[]')) > 0
          group by 1`,
    );
    expect(rows.reduce((sum, r) => sum + r.n, 0)).toBeGreaterThan(SIZE / 2);
    expect(rows.map((r) => r.status)).toContain("NOT_COMPLIANT");
  });

  it("has policies expiring within 30, 60 and 90 days", async () => {
    const today = new Date();
    const within = async (from: number, to: number) => {
      const [row] = await first.database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(pulls)
        .where(
          and(
            sql`${pulls.nextExpiryDate} >= ${new Date(today.getTime() + from * DAY).toISOString().slice(0, 10)}`,
            sql`${pulls.nextExpiryDate} < ${new Date(today.getTime() + to * DAY).toISOString().slice(0, 10)}`,
          ),
        );
      return row?.n ?? 0;
    };
    expect(await within(0, 30)).toBeGreaterThan(0);
    expect(await within(30, 60)).toBeGreaterThan(0);
    expect(await within(60, 90)).toBeGreaterThan(0);
  });

  it("shows X-dates on the X-dates page in the next 30, 60 and 90 days, with premium at stake", async () => {
    const viewer = {
      id: "00000000-0000-0000-0000-000000000000",
      role: "ADMIN" as const,
      email: "",
      name: "",
      sessionId: "",
    };
    const inRange = async (range: string) => (await loadXDatesPage(first.database.db, viewer, { range })).total;
    const [thirty, sixty, ninety] = [await inRange("30"), await inRange("60"), await inRange("90")];
    expect(thirty).toBeGreaterThan(0);
    expect(sixty).toBeGreaterThan(thirty);
    expect(ninety).toBeGreaterThan(sixty);
    expect((await loadXDatesPage(first.database.db, viewer, { range: "30" })).premiumCents).toBeGreaterThan(0);
  });

  it("shows households with cross-sell gaps, and premium they put in play", async () => {
    const viewer = {
      id: "00000000-0000-0000-0000-000000000000",
      role: "MANAGER" as const,
      email: "",
      name: "",
      sessionId: "",
    };
    const { counts, rows } = await loadCrossSellPage(first.database.db, viewer, {});
    expect(counts.total).toBeGreaterThan(0);
    // Stored with each pull (no backfill ran): auto alone, homes without flood, home and auto without an umbrella.
    expect(counts.byGap.AUTO_NO_HOME).toBeGreaterThan(0);
    expect(counts.byGap.NO_FLOOD).toBeGreaterThan(0);
    expect(counts.byGap.NO_UMBRELLA).toBeGreaterThan(0);
    expect(counts.premiumInPlayCents).toBeGreaterThan(0);
    expect(rows[0]?.gaps.length).toBeGreaterThan(0);
  });

  it("has four more agents, one of whom left and cannot sign in", async () => {
    const db = first.database.db;
    const agents = await db
      .select({ email: users.email, isActive: users.isActive })
      .from(users)
      .where(eq(users.role, "AGENT"));
    expect(agents).toHaveLength(5);
    expect(agents.filter((a) => !a.isActive).map((a) => a.email)).toEqual([PEOPLE.taylor]);
    const signIn = (email: string) =>
      signInWithPassword(db, { email, password: DEMO_PASSWORD }, { demoMode: true, address: "127.0.0.1" });
    expect(await signIn(PEOPLE.taylor)).toEqual({ status: "refused" });
    expect(await signIn(PEOPLE.sam)).toMatchObject({ status: "signed-in" });
    // Production refuses a database where any demo login is still active.
    expect(await listActiveDemoUsers(db)).toContain(PEOPLE.sam);
  });

  it("does nothing when run again, or on a database that already had pulls", async () => {
    const db = first.database.db;
    const count = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(auditEvents))[0]?.n;
    const before = await count();
    expect((await getDemoHistoryMark(db))?.finished).toBe(true);
    const config = parseEnv({ NODE_ENV: "development" });
    expect(await decideDemoHistory(db, config)).toEqual({ run: false, reason: "already built" });
    const again = await buildDemoHistory({
      db,
      service: { baseUrl: first.sandbox.baseUrl, teamId: TEAM, clientId: "x", clientSecret: "y", timeoutMs: 1_000 },
      controlUrl: `${first.sandbox.url}/_sandbox`,
      seed: DEMO_SEED,
      size: SIZE,
      until: UNTIL,
    });
    expect(again.steps).toBe(0);
    expect(await count()).toBe(before);

    const other = await createTestDatabase();
    try {
      await other.db
        .insert(pulls)
        .values({ pullId: crypto.randomUUID(), status: "SUCCESS", raw: {}, contentHash: "x" });
      expect(await decideDemoHistory(other.db, config)).toEqual({
        run: false,
        reason: "the database already has pulls",
      });
    } finally {
      await other.close();
    }
  }, 120_000);

  it("is never built in production, and production refuses to be asked", async () => {
    const production = PRODUCTION_ENV;
    expect(() => parseEnv({ ...production, COVERDESK_DEMO_HISTORY: "true" })).toThrow(EnvError);
    expect(() => parseEnv({ ...production, COVERDESK_DEMO_HISTORY: "true" })).toThrow(/COVERDESK_DEMO_HISTORY/);
    const config = parseEnv(production);
    expect(config.demoHistory).toBeNull();
    const empty = await createTestDatabase();
    try {
      expect(await decideDemoHistory(empty.db, config)).toEqual({ run: false, reason: "off" });
    } finally {
      await empty.close();
    }
    // Development builds it by default; the end-to-end tests' test mode only when asked.
    expect(parseEnv({ NODE_ENV: "development" }).demoHistory).toEqual({ accounts: 320 });
    expect(parseEnv({ NODE_ENV: "test" }).demoHistory).toBeNull();
    expect(parseEnv({ NODE_ENV: "test", COVERDESK_DEMO_HISTORY: "true" }).demoHistory).toEqual({ accounts: 320 });
  }, 120_000);

  it("is the same history when built again from the same seed and end date", async () => {
    const second = await buildAgency("demo-b");
    try {
      expect(second.bookIds.sort()).toEqual([...first.bookIds].sort());
      const [a, b] = await Promise.all([
        snapshot(first.database.db, first.bookIds),
        snapshot(second.database.db, second.bookIds),
      ]);
      expect(a.accounts.length).toBe(SIZE);
      expect(a.trail.length).toBeGreaterThan(SIZE);
      expect(b).toEqual(a);
    } finally {
      await second.close();
    }
  }, 240_000);
});
