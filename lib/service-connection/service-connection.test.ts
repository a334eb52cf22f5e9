import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents } from "@/db/schema";
import type { ServiceConfig } from "@/lib/service/client";
import { listWebhooks, registerWebhook } from "@/lib/service/webhook-registrations-api";
import type { Sandbox } from "@/sandbox/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { setFaults } from "@/test/sandbox-faults";
import { startServiceSandbox } from "@/test/service-sandbox";
import { createStaff } from "@/test/workflow-fixture";
import { registerOwnWebhook, setOwnWebhookActive } from "./commands";
import { loadServiceConnection } from "./overview";

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
    const view = await loadServiceConnection(service, { appUrl: APP_URL, signed: true });
    expect(view.health).toEqual({ ok: true, value: { healthy: true } });
    expect(view.links.ok && view.links.value.map((link) => link.publicAlias)).toEqual(
      expect.arrayContaining(["get-a-quote"]),
    );
    expect(view.webhooks).toMatchObject({ ok: true, value: [{ url: "https://crm.agency.test/hooks", ours: false }] });
    expect(view.hookUrl).toBe(`${APP_URL}/api/webhooks/service`);
    expect(JSON.stringify(view), "no signing secret in what the page gets").not.toMatch(/signing|secret/i);
  });

  it("registers this instance's address for the API-settable events once, shows the secret once, and audits it", async () => {
    expect(await registerOwnWebhook(database.db, service, staff.manager, APP_URL)).toMatchObject({
      ok: false,
      code: "FORBIDDEN",
    });
    const registered = await registerOwnWebhook(database.db, service, staff.admin, APP_URL);
    expect(registered).toMatchObject({ ok: true, signingSecret: expect.any(String) });
    const ours = (await listWebhooks(service)).find((hook) => hook.url === `${APP_URL}/api/webhooks/service`);
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
    expect(JSON.stringify(trail)).not.toContain(registered.ok ? String(registered.signingSecret) : "none");
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
      const view = await loadServiceConnection(service, { appUrl: APP_URL, signed: false });
      expect(view.health).toEqual({ ok: true, value: { healthy: false } });
      expect(view.links).toEqual({ ok: false, message: "The service is not answering right now." });
      expect(view.webhooks).toEqual({ ok: false, message: "The service is not answering right now." });
    } finally {
      await setFaults(sandbox, { errorRate: 0 });
    }
    const wrongTeam = await loadServiceConnection(
      { ...service, clientSecret: "wrong" },
      { appUrl: APP_URL, signed: true },
    );
    expect(wrongTeam.links).toEqual({
      ok: false,
      message: "The service refused Coverdesk's credentials (SERVICE_CLIENT_ID, SERVICE_CLIENT_SECRET).",
    });
  });
});
