import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, monitorings, pulls } from "@/db/schema";
import { runSync, startSyncRun } from "@/lib/ingest/sync";
import { enablePullMonitoring } from "@/lib/monitoring/commands";
import { storePull } from "@/lib/ingest/store-pull";
import { getMonitoringOfPull } from "@/lib/monitoring/pull-monitoring";
import { parsePullListQuery } from "@/lib/pulls/list-query";
import { listPulls } from "@/lib/pulls/queries";
import type { ServiceConfig } from "@/lib/service/client";
import { listMonitorings, updateMonitoring } from "@/lib/service/monitorings-api";
import { fetchPullPayload } from "@/lib/service/pulls-api";
import type { SandboxPull } from "@/sandbox/data/pulls";
import type { Sandbox } from "@/sandbox/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { monitoredOf } from "@/test/monitored-pulls";
import { createStaff } from "@/test/workflow-fixture";
import {
  controlSandbox,
  linkStoredAccount,
  startServiceSandbox,
  webhookClues,
  seededReading,
} from "@/test/service-sandbox";

// Monitorings Coverdesk did not make: started or stopped on the service's dashboard (the
// sandbox's control API), found by the sync, shown on the pull and in the monitored filter.

const TEAM = "0b7e4c2a-5d6f-4a1b-8c9d-3e2f1a0b9c8d";
const DAY = 86_400_000;
let database: TestDatabase;
let sandbox: Sandbox;
let service: ServiceConfig;
let template: SandboxPull;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ sandbox, service } = await startServiceSandbox("sync-monitorings", { teamId: TEAM, seed: 41, pullCount: 40 }));
  service = { ...service, maxAttempts: 2 };
  template = seededReading(sandbox);
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

async function sync(config: ServiceConfig = service) {
  const start = await startSyncRun(database.db, "MANUAL");
  return runSync(database.db, config, start.run);
}
/** A successful pull of an account of its own, linked `days` ago; its id. */
async function putPull(days: number): Promise<string> {
  const pullId = randomUUID();
  await controlSandbox(sandbox, "pulls", {
    ...template,
    pull_id: pullId,
    account_identifier: `acct_${pullId}`,
    created_at: new Date(Date.now() - days * DAY).toISOString(),
  });
  return pullId;
}
/** Started on the service's dashboard, never through Coverdesk; the monitoring's id. */
async function startOnDashboard(pullId: string, interval: string): Promise<string> {
  const answer = await controlSandbox(sandbox, "monitorings", { pull_id: pullId, interval });
  return (answer.monitoring as { monitoring_id: string }).monitoring_id;
}
const monitoredList = async () =>
  (await listPulls(database.db, { kind: "all" }, parsePullListQuery({ monitored: "yes" }).query, 1_000)).rows.map(
    (r) => r.pullId,
  );
const auditOf = async (pullId: string) =>
  (
    await database.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.pullId, pullId), eq(auditEvents.action, "MONITORING_CHANGED")))
  ).map((r) => (r.details as { change: string }).change);

/** The service answers GET /monitorings with `body`; every other call goes through. */
const answeringMonitorings = (body: string): ServiceConfig => ({
  ...service,
  fetch: async (input, init) =>
    new URL(String(input)).pathname.endsWith("/monitorings")
      ? new Response(body, { status: 200, headers: { "content-type": "application/json" } })
      : fetch(input, init),
});

describe("monitorings started and stopped on the service's dashboard", () => {
  let watched: string;
  let monitoringId: string;

  it("shows one started there on its pull and in the monitored filter after a sync", async () => {
    watched = await putPull(5);
    expect((await sync()).status).toBe("DONE");
    expect(await getMonitoringOfPull(database.db, watched)).toBeNull();
    monitoringId = await startOnDashboard(watched, "P2M");
    expect(await monitoredList()).not.toContain(watched);

    const run = await sync();
    expect(run).toMatchObject({ status: "DONE", monitorings: 1, monitoringsFound: 1, problems: [] });
    const shown = await getMonitoringOfPull(database.db, watched);
    const served = (await listMonitorings(service)).value.monitorings[0]?.next_pull_date;
    expect(shown).toMatchObject({ monitoringId, status: "ACTIVE", interval: "P2M", startedOutside: true });
    expect(shown?.nextPullDate?.toISOString()).toBe(served);
    expect(await monitoredList()).toContain(watched);
    expect(await auditOf(watched)).toEqual([
      "found this account monitored at the service (started on its dashboard or team-wide), every 2 months",
    ]);

    // Nothing moved: the next run writes nothing and records nothing.
    expect(await sync()).toMatchObject({ status: "DONE", monitoringsFound: 0, monitoringsChanged: 0 });
    expect(await auditOf(watched)).toHaveLength(1);
  });

  it("keeps its interval current, and shows it stopped after a sync once stopped there", async () => {
    await updateMonitoring(service, monitoringId, { interval: "P3M" });
    expect(await sync()).toMatchObject({ status: "DONE", monitoringsChanged: 1 });
    expect(await getMonitoringOfPull(database.db, watched)).toMatchObject({ status: "ACTIVE", interval: "P3M" });

    await controlSandbox(sandbox, `monitorings/${monitoringId}/stop`, {});
    expect(await sync()).toMatchObject({ status: "DONE", monitoringsChanged: 1 });
    expect(await getMonitoringOfPull(database.db, watched)).toMatchObject({ status: "STOPPED", nextPullDate: null });
    expect(await monitoredList()).not.toContain(watched);
    expect(await auditOf(watched)).toEqual(
      expect.arrayContaining([
        "found monitoring set to every 3 months at the service",
        "found monitoring stopped at the service",
      ]),
    );
  });

  it("fetches and stores the monitored pull when Coverdesk never had it", async () => {
    // Linked weeks before the last run, and its webhooks never came: the pull list passes it by.
    const unknown = await putPull(20);
    await startOnDashboard(unknown, "P1M");
    expect(await sync()).toMatchObject({ status: "DONE", monitoringsFound: 1 });
    const [stored] = await database.db.select().from(pulls).where(eq(pulls.pullId, unknown));
    expect(stored).toMatchObject({ status: "SUCCESS", monitored: true, accountIdentifier: `acct_${unknown}` });
    const [row] = await database.db.select().from(monitorings).where(eq(monitorings.latestPullId, unknown));
    expect(row).toMatchObject({ accountIdentifier: `acct_${unknown}`, origin: "SERVICE" });
    expect(await monitoredList()).toContain(unknown);
  });

  it("keeps a pull read only by the sync alone until a refresh's webhook names its account", async () => {
    // A consumer links, no webhook reaches Coverdesk, and the account is monitored on the
    // dashboard: the pull, as the service serves it, names no account, nor does the monitoring.
    const { pull_id: linked } = (await controlSandbox(sandbox, "links", {
      username: "user_good_commercial",
      password: "pass_good",
    })) as { pull_id: string };
    await expect.poll(() => sandbox.state.pulls.get(linked)?.status, { timeout: 10_000 }).toBe("SUCCESS");
    const monitoringId = await startOnDashboard(linked, "P1M");
    expect(await sync()).toMatchObject({ status: "DONE" });
    const accountOf = async (pullId: string) =>
      (await database.db.select({ account: pulls.accountIdentifier }).from(pulls).where(eq(pulls.pullId, pullId)))[0]
        ?.account;
    expect(await accountOf(linked)).toBeNull();

    // Its first refresh comes by webhook, with the account and the monitoring's initial pull: both join it.
    const { pull_id: refresh } = (await controlSandbox(sandbox, `monitorings/${monitoringId}/refresh`, {})) as {
      pull_id: string;
    };
    await expect.poll(() => sandbox.state.pulls.get(refresh)?.status, { timeout: 10_000 }).toBe("SUCCESS");
    const stored = await storePull(
      database.db,
      await fetchPullPayload(service, refresh),
      webhookClues(sandbox, refresh),
    );
    expect(stored.outcome).toBe("created");
    const account = sandbox.state.pulls.get(linked)?.account_identifier;
    expect(account).toEqual(expect.any(String));
    expect(await accountOf(refresh)).toBe(account);
    expect(await accountOf(linked)).toBe(account);
  });

  it("does not take a monitoring back to an older pull than a webhook already named", async () => {
    const first = await putPull(0);
    expect((await sync()).status).toBe("DONE");
    const monitoringId = await startOnDashboard(first, "P1M");
    expect(await sync()).toMatchObject({ monitoringsFound: 1 });
    // A refresh of the account arrives by webhook before the service's list says so.
    const refresh = randomUUID();
    await storePull(database.db, {
      ...template,
      pull_id: refresh,
      account_identifier: `acct_${first}`,
      created_at: new Date(Date.now() + 1_000).toISOString(),
    });
    await database.db
      .update(monitorings)
      .set({ latestPullId: refresh })
      .where(eq(monitorings.monitoringId, monitoringId));
    expect((await sync()).status).toBe("DONE");
    const [row] = await database.db.select().from(monitorings).where(eq(monitorings.monitoringId, monitoringId));
    expect(row?.latestPullId).toBe(refresh);
  });

  it("takes one turned on in Coverdesk as Coverdesk's own: no news, no entry of its own", async () => {
    const ours = await putPull(0); // linked just now: the sync lists it
    expect((await sync()).status).toBe("DONE");
    const { manager } = await createStaff(database.db);
    expect(
      await enablePullMonitoring(database.db, service, manager, { pullId: ours, every: 1, unit: "M" }),
    ).toMatchObject({ ok: true });
    expect(await sync()).toMatchObject({ status: "DONE", monitoringsFound: 0, monitoringsChanged: 0 });
    expect(await getMonitoringOfPull(database.db, ours)).toMatchObject({ status: "ACTIVE", startedOutside: false });
    expect(await auditOf(ours)).toEqual(["turned monitoring on, every P1M"]);
  });
});

describe("a monitorings answer that cannot be used", () => {
  it("does not fail the sync: the problem is recorded and the rest is kept", async () => {
    for (const body of ['{"monitorings_count": 1, "monitorings": "none"}', "<html>busy</html>"]) {
      const run = await sync(answeringMonitorings(body));
      expect(run.status).toBe("DONE");
      expect(run.problems).toEqual([expect.stringMatching(/^The monitorings could not be listed: GET \/monitorings/)]);
    }
    expect(await monitoredList()).not.toHaveLength(0);
  });

  it("keeps what is usable of odd monitorings, and says what was left out", async () => {
    const odd = JSON.stringify({
      monitorings_count: 2,
      monitorings: [
        { status: "ACTIVE" },
        {
          monitoring_id: "odd-1",
          latest_pull_id: "not-a-pull",
          status: "PAUSED",
          interval: 30,
          next_pull_date: "soon",
        },
      ],
    });
    const run = await sync(answeringMonitorings(odd));
    expect(run).toMatchObject({ status: "DONE", monitorings: 1, monitoringsFound: 1 });
    expect(run.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^GET \/monitorings: monitorings\[0\]/),
        "Monitoring odd-1 names no usable latest pull: it joins no pull yet.",
      ]),
    );
    const [row] = await database.db.select().from(monitorings).where(eq(monitorings.monitoringId, "odd-1"));
    expect(row).toMatchObject({ status: "PAUSED", interval: null, nextPullDate: null, latestPullId: null });
  });
});

describe("Mode A: the team monitors every linked account", () => {
  it("shows every pull the service monitors as monitored after a sync, new links included", async () => {
    const switched = await controlSandbox(sandbox, "monitorings/team-wide", { interval: "P1M" });
    expect(switched.monitored).toBeGreaterThan(0);
    const linked = await linkStoredAccount(database.db, sandbox, service, "user_good");

    const run = await sync();
    expect(run).toMatchObject({ status: "DONE", monitoringsFound: (switched.monitored as number) + 1 });
    const listed = await listMonitorings(service, { status: "ACTIVE" });
    const ids = listed.value.monitorings.map((m) => m.latest_pull_id ?? "");
    expect(Object.values(await monitoredOf(database.db, ...ids)).every(Boolean)).toBe(true);
    // The list's filter shows them (an archived pull is listed only when archived ones are asked for).
    expect(await monitoredList()).toContain(linked);
    await controlSandbox(sandbox, "monitorings/team-wide", { interval: null });
  });

  it("refuses an interval the service would refuse", async () => {
    expect(await controlSandbox(sandbox, "monitorings/team-wide", { interval: "P7D" })).toMatchObject({
      error: "INVALID_INPUT",
    });
  });
});
