import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, monitorings, webhookEvents } from "@/db/schema";
import type { ServiceConfig } from "@/lib/service/client";
import { listWebhooks, registerWebhook } from "@/lib/service/webhook-registrations-api";
import { createSigningSecrets } from "@/lib/service/webhook-signing-secrets";
import type { Sandbox } from "@/sandbox/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { setFaults } from "@/test/sandbox-faults";
import { controlSandbox, startServiceSandbox } from "@/test/service-sandbox";
import { createStaff } from "@/test/workflow-fixture";
import { registerOwnWebhook, setOwnWebhookActive } from "./commands";
import { getServiceConnection } from "./overview";

// The admin's Service connection page below the browser: the sandbox over HTTP, a real database.

const TEAM = "6d5c4b3a-2f1e-4d0c-9b8a-7f6e5d4c3b2a";
const APP_URL = "https://coverdesk.agency.test";
let database: TestDatabase;
let sandbox: Sandbox;
let service: ServiceConfig & { teamId: string };
let staff: Awaited<ReturnType<typeof createStaff>>;

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
  ({ sandbox, service } = await startServiceSandbox("conn", { teamId: TEAM, seed: 5, pullCount: 3 }));
  service = { ...service, maxAttempts: 1 }; // a failing part is reported at once
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

describe("the service connection", () => {
  it("shows health, the team's links and webhooks, and marks this instance's address", async () => {
    await registerWebhook(service, { hookUrl: "https://crm.agency.test/hooks", eventTypes: ["COMPLETE"] });
    const view = await getServiceConnection(database.db, service, { appUrl: APP_URL, checksSignatures: true });
    expect(view.health).toEqual({ ok: true, value: { healthy: true } });
    expect(view.links.ok && view.links.value.map((link) => link.publicAlias)).toEqual(
      expect.arrayContaining(["get-a-quote"]),
    );
    expect(view.webhooks).toMatchObject({ ok: true, value: [{ url: "https://crm.agency.test/hooks", ours: false }] });
    expect(view.hookUrl).toBe(`${APP_URL}/api/webhooks/service`);
    expect(JSON.stringify(view), "no signing secret in what the page gets").not.toMatch(/signing|secret/i);
  });

  it("registers this instance's address for the API-settable events once, and audits it without its secret", async () => {
    expect(await registerOwnWebhook(database.db, service, staff.manager, APP_URL)).toMatchObject({
      ok: false,
      code: "FORBIDDEN",
    });
    const registered = await registerOwnWebhook(database.db, service, staff.admin, APP_URL);
    expect(registered).toEqual({ ok: true, webhookId: expect.any(String) });
    const ours = (await listWebhooks(service)).find((hook) => hook.url === `${APP_URL}/api/webhooks/service`);
    expect(ours?.webhook_id).toBe(registered.ok && registered.webhookId);
    expect(ours?.event_types).toEqual([
      "COMPLETE",
      "POLICIES_AVAILABLE",
      "POLICY_AVAILABLE",
      "AUTH_STATUS",
      "VALIDATION_COMPLETE",
    ]);
    expect(await registerOwnWebhook(database.db, service, staff.admin, APP_URL)).toMatchObject({
      ok: false,
      code: "INVALID",
    });
    const trail = await database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "SERVICE_CONNECTION_CHANGED"));
    expect(trail).toHaveLength(1);
    expect(JSON.stringify(trail)).not.toContain(String(ours?.signing_secret));
  });

  it("pauses and resumes only this instance's own registration", async () => {
    const hooks = await listWebhooks(service);
    const ours = hooks.find((hook) => hook.url === `${APP_URL}/api/webhooks/service`);
    const theirs = hooks.find((hook) => hook.url !== `${APP_URL}/api/webhooks/service`);
    expect(
      await setOwnWebhookActive(database.db, service, staff.admin, APP_URL, {
        webhookId: ours?.webhook_id,
        active: "false",
      }),
    ).toEqual({ ok: true });
    expect((await listWebhooks(service)).find((hook) => hook.webhook_id === ours?.webhook_id)?.is_active).toBe(false);
    expect(
      await setOwnWebhookActive(database.db, service, staff.admin, APP_URL, {
        webhookId: ours?.webhook_id,
        active: "true",
      }),
    ).toEqual({ ok: true });
    expect((await listWebhooks(service)).find((hook) => hook.webhook_id === ours?.webhook_id)?.is_active).toBe(true);
    expect(
      await setOwnWebhookActive(database.db, service, staff.admin, APP_URL, {
        webhookId: theirs?.webhook_id,
        active: "false",
      }),
    ).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect(
      await setOwnWebhookActive(database.db, service, staff.admin, APP_URL, {
        webhookId: ours?.webhook_id,
        active: "maybe",
      }),
    ).toMatchObject({ ok: false, code: "INVALID" });
    expect(
      await setOwnWebhookActive(database.db, service, staff.agent, APP_URL, {
        webhookId: ours?.webhook_id,
        active: "false",
      }),
    ).toMatchObject({ ok: false, code: "FORBIDDEN" });
  });

  it("says in words which part the service could not answer, and shows the rest", async () => {
    await setFaults(sandbox, { errorRate: 1 });
    try {
      const view = await getServiceConnection(database.db, service, { appUrl: APP_URL, checksSignatures: false });
      expect(view.health).toEqual({ ok: true, value: { healthy: false } });
      expect(view.links).toEqual({ ok: false, message: "The service is not answering right now." });
      expect(view.webhooks).toEqual({ ok: false, message: "The service is not answering right now." });
    } finally {
      await setFaults(sandbox, { errorRate: 0 });
    }
    const wrongTeam = await getServiceConnection(
      database.db,
      { ...service, clientSecret: "wrong" },
      { appUrl: APP_URL, checksSignatures: true },
    );
    expect(wrongTeam.links).toEqual({
      ok: false,
      message: "The service refused Coverdesk's credentials (SERVICE_CLIENT_ID, SERVICE_CLIENT_SECRET).",
    });
  });

  it("shows each event type's registrations and last arrival, and warns of a needed one never received", async () => {
    await controlSandbox(sandbox, "dashboard/webhooks", {
      url: "https://crm.agency.test/dashboard-hooks",
      eventTypes: ["MONITORING_EVENTS"],
    });
    const completeAt = new Date("2026-03-02T10:00:00Z");
    const changesAt = new Date("2026-03-03T11:00:00Z");
    await database.db.insert(webhookEvents).values([
      { dedupKey: "old-complete", eventType: "COMPLETE", payload: {}, receivedAt: new Date("2026-01-01T00:00:00Z") },
      { dedupKey: "complete", eventType: "COMPLETE", payload: {}, receivedAt: completeAt },
      { dedupKey: "changes", eventType: "MONITORING_EVENTS", payload: {}, receivedAt: changesAt },
    ]);
    const load = async () =>
      new Map(
        (await getServiceConnection(database.db, service, { appUrl: APP_URL, checksSignatures: true })).events.map(
          (event) => [event.eventType, event],
        ),
      );

    const quiet = await load();
    expect(
      [...quiet.values()].filter((event) => event.missing),
      "no monitorings: nothing needed yet",
    ).toEqual([]);

    await database.db.insert(monitorings).values([
      { monitoringId: "mon_active_1", status: "ACTIVE" },
      { monitoringId: "mon_active_2", status: "ACTIVE" },
      { monitoringId: "mon_stopped", status: "STOPPED" },
    ]);
    const events = await load();
    expect(events.get("COMPLETE")).toEqual({
      eventType: "COMPLETE",
      dashboardOnly: false,
      enabledOn: "ours",
      lastReceivedAt: completeAt,
      missing: null,
    });
    expect(events.get("MONITORING_EVENTS")).toEqual({
      eventType: "MONITORING_EVENTS",
      dashboardOnly: true,
      enabledOn: "other",
      lastReceivedAt: changesAt,
      missing: null,
    });
    const needed = { reason: "monitorings", count: 2 };
    expect(events.get("MONITORING_RECONNECT")).toEqual({
      eventType: "MONITORING_RECONNECT",
      dashboardOnly: true,
      enabledOn: "none",
      lastReceivedAt: null,
      missing: needed,
    });
    expect(events.get("ERROR")?.missing).toEqual(needed);
    expect(events.get("DATA_UPDATED")?.missing).toEqual(needed);
    expect(events.get("SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION")?.missing, "no servicing requests").toBeNull();
    expect(events.get("AUTH_STATUS")).toMatchObject({ enabledOn: "ours", lastReceivedAt: null, missing: null });

    await setFaults(sandbox, { errorRate: 1 });
    try {
      const unlisted = await load();
      expect(unlisted.get("COMPLETE"), "the service could not list its webhooks").toMatchObject({
        enabledOn: null,
        lastReceivedAt: completeAt,
      });
      expect(unlisted.get("MONITORING_RECONNECT")?.missing).toEqual(needed);
    } finally {
      await setFaults(sandbox, { errorRate: 0 });
    }
  });

  it("hands the registrations' secrets it lists to the receiver's store, with no read of its own", async () => {
    let reads = 0;
    const store = createSigningSecrets(
      () => {
        reads++;
        return listWebhooks(service);
      },
      { log: () => {} },
    );
    await getServiceConnection(database.db, service, {
      appUrl: APP_URL,
      checksSignatures: true,
      signingSecrets: store,
    });
    const listed = (await listWebhooks(service)).map((hook) => hook.signing_secret);
    expect(await store.current()).toEqual(listed);
    expect(reads).toBe(0);
  });
});
