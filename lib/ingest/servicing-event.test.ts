import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pulls, webhookEvents } from "@/db/schema";
import type { ServiceConfig } from "@/lib/service/client";
import { fetchPullPayload, getPull } from "@/lib/service/pulls-api";
import { requestServicing } from "@/lib/service/servicings-api";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { startReceiver, type Receiver } from "@/sandbox/test-receiver";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { processDueEvents } from "./process-events";
import { receiveWebhook } from "./receive-webhook";

// Servicing webhooks through ingestion: the SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION body the
// sandbox really sends is stored in the inbox and processed (its SERVICING pull fetched and
// stored) like any event; an event type nobody knows yet is recorded and processed, not refused.

const TEAM = "be6c7d8e-9fa0-4bbc-9ddc-b0a998877665";
let database: TestDatabase;
let sandbox: Sandbox;
let receiver: Receiver;
let service: ServiceConfig;

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startReceiver();
  sandbox = await startSandbox({
    port: 0,
    clientId: "ing",
    clientSecret: "ing-secret",
    teamId: TEAM,
    webhookUrl: receiver.url,
    webhookSecret: null,
    seed: 53,
    pullCount: 12,
    speed: 0.0005,
    deliverOnStart: false,
  });
  service = {
    baseUrl: sandbox.baseUrl,
    teamId: TEAM,
    clientId: "ing",
    clientSecret: "ing-secret",
    timeoutMs: 2_000,
    retryBaseMs: 1,
    maxAttempts: 2,
  };
});
afterAll(async () => {
  await sandbox?.close();
  await receiver?.close();
  await database?.close();
});

const noSecret = { webhookSecret: null, signatureHeader: null };
const runWorker = () =>
  processDueEvents(database.db, (pullId) => fetchPullPayload(service, pullId), {
    workerId: "servicing-test",
    batchSize: 20,
  });

describe("servicing events in ingestion", () => {
  it("stores the waiting-for-confirmation event and the SERVICING pull it names", async () => {
    const link = (await (
      await fetch(`${sandbox.url}/_sandbox/links`, {
        method: "POST",
        body: JSON.stringify({ username: "user_good" }),
        headers: { "content-type": "application/json" },
      })
    ).json()) as { pull_id: string };
    for (let i = 0; i < 300 && (await getPull(service, link.pull_id)).value.status !== "SUCCESS"; i++)
      await new Promise((r) => setTimeout(r, 10));
    const home = (await getPull(service, link.pull_id)).value.policies.find((p) => p.dwellings.length > 0);
    const existing = home?.dwellings[0]?.mortgagees.length ?? 0;
    const created = await requestServicing(service, {
      pull_id: link.pull_id,
      servicing_actions: [
        {
          type: "ADD_MORTGAGEE",
          payload: {
            carrier_policy_number: home?.carrier_policy_number ?? "",
            name: "Ingest Savings Bank",
            address: "1 Bank Plaza, Denver, CO 80202",
            mortgagee_type: (["FIRST", "SECOND", "THIRD"] as const)[existing] ?? "THIRD",
          },
        },
      ],
    });
    await receiver.waitForEvent(created.pull_id, "SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION");
    const hook = receiver
      .forPull(created.pull_id)
      .find((h) => h.event_type === "SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION");

    expect(await receiveWebhook(database.db, JSON.stringify(hook), noSecret)).toMatchObject({ status: 202 });
    expect(await runWorker()).toMatchObject({ claimed: 1, done: 1, failed: 0, retried: 0 });
    const [event] = await database.db.select().from(webhookEvents).where(eq(webhookEvents.pullId, created.pull_id));
    expect(event).toMatchObject({
      eventType: "SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION",
      status: "DONE",
      lastError: null,
    });
    expect(event?.payload).toMatchObject({ data: { servicing_action_id: created.servicing_action_ids[0] } });
    const [stored] = await database.db.select().from(pulls).where(eq(pulls.pullId, created.pull_id));
    expect(stored).toMatchObject({ type: "SERVICING", status: "WAITING_FOR_CONSUMER_CONFIRMATION" });
  });

  it("records and processes an event type it does not know", async () => {
    const body = JSON.stringify({
      event_type: "VALIDATION_COMPLETE",
      pull_id: seededPullId(),
      team_id: TEAM,
      status: "SUCCESS",
      data: { anything: [1, 2] },
    });
    expect(await receiveWebhook(database.db, body, noSecret)).toMatchObject({ status: 202 });
    expect(await runWorker()).toMatchObject({ done: 1, failed: 0 });
    const [event] = await database.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.eventType, "VALIDATION_COMPLETE"));
    expect(event).toMatchObject({ status: "DONE" });
  });
});

/** A seeded pull of the sandbox, for an event about it. */
function seededPullId(): string {
  const pull = [...sandbox.state.pulls.values()].find((p) => p.status === "SUCCESS" && !p.parent_pull_id);
  if (!pull) throw new Error("no seeded pull");
  return pull.pull_id;
}
