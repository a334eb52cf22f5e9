import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, pulls, servicingRequests, type ServicingRequestRow } from "@/db/schema";
import type { Actor } from "@/lib/core/actor";
import { applyEventEffects } from "@/lib/ingest/apply-event";
import { processDueEvents } from "@/lib/ingest/process-events";
import { receiveWebhook } from "@/lib/ingest/receive-webhook";
import { configuredReconnectPageKey } from "@/lib/monitoring/reconnect-page-key";
import { reconnectPageToken } from "@/lib/monitoring/reconnect-page-token";
import { getPullDetail } from "@/lib/pulls/queries";
import { storePull } from "@/lib/ingest/store-pull";
import type { ServiceConfig } from "@/lib/service/client";
import { fetchPullPayload } from "@/lib/service/pulls-api";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { answerServicingPage, loadServicingPage } from "./consumer-page";
import { configuredServicingLinkKey, newServicingRequestId, servicingPageToken } from "./link";
import { getServicingPanel } from "./panel";
import { servicingTargets } from "./payloads";
import { advanceServicing, followServicingPull } from "./progress";
import { listServicingRequests } from "./queries";
import { requestServicingChange } from "./request";
import { revokeServicingLink } from "./revoke-link";

// Servicing requests end to end below the browser: the sandbox (over HTTP) plays the service,
// its webhooks come through our real ingestion, the consumer answers on the page's functions.

const TEAM = "5d4c3b2a-1f0e-4d9c-8b7a-695847362514";
const ADDRESS = "192.0.2.77";
/** The consumer's browser, without a Coverdesk session. */
const CLIENT = { address: ADDRESS, userAgent: "Mozilla/5.0 (test)", staffUserId: null };
let database: TestDatabase;
let sandbox: Sandbox;
let service: ServiceConfig;
let receiver: Server;
let staff: Awaited<ReturnType<typeof createStaff>>;
/** Every webhook body the sandbox sent us, for replays. */
const delivered: Array<Record<string, unknown>> = [];

/** The deliveries being stored and processed, one at a time: drained before the database closes. */
let queue = Promise.resolve();

function startIngestion(): Promise<string> {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      queue = queue.then(async () => {
        delivered.push(JSON.parse(body) as Record<string, unknown>);
        const answer = await receiveWebhook(database.db, body, { webhookSecret: null, signatureHeader: null });
        res.writeHead(answer.status).end(JSON.stringify(answer.body));
        await processDueEvents(database.db, (pullId) => fetchPullPayload(service, pullId), {
          workerId: "servicing-test",
          batchSize: 50,
        });
      });
    });
  });
  return new Promise((resolve) =>
    receiver.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`)),
  );
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 1_200; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function control(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${sandbox.url}/_sandbox/${path}`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
  expect(response.ok).toBe(true);
  return (await response.json()) as Record<string, unknown>;
}

/** A linked account, stored, marked WON and assigned to the agent (unless told otherwise). */
async function wonClient(
  carrier = "progressive",
  { stage = "WON", assignee = staff.agent.id }: { stage?: "WON" | "WORKING"; assignee?: string | null } = {},
): Promise<string> {
  const { pull_id } = (await control("links", { username: "user_good", password: "pass_good", carrier })) as {
    pull_id: string;
  };
  await until(
    async () => (await fetchPullPayload(service, pull_id)) as { pull: { status: string } },
    (p) => p.pull.status === "SUCCESS",
    "the link",
  );
  await storePull(database.db, await fetchPullPayload(service, pull_id));
  await database.db.update(pulls).set({ stage, assigneeId: assignee }).where(eq(pulls.pullId, pull_id));
  return pull_id;
}

async function targetsOf(pullId: string) {
  const detail = await getPullDetail(database.db, pullId);
  if (!detail) throw new Error("no pull");
  return servicingTargets(detail.pull);
}

async function addMortgageeFields(pullId: string, name: string) {
  const home = (await targetsOf(pullId)).homes.find((h) => h.nextPosition);
  if (!home?.nextPosition) throw new Error("no home with room for a mortgagee");
  return {
    pullId,
    actionType: "ADD_MORTGAGEE",
    policy: home.policyNumber,
    position: home.nextPosition,
    name,
    address: "1 Bank Plaza, Denver, CO 80202",
    loanNumber: "LN-42",
  };
}

const rowOf = async (id: string): Promise<ServicingRequestRow> => {
  const [row] = await database.db.select().from(servicingRequests).where(eq(servicingRequests.id, id));
  if (!row) throw new Error("no row");
  return row;
};
const reached = (id: string, status: string) =>
  until(
    () => rowOf(id),
    (row) => row.status === status,
    `status ${status}`,
  );
const tokenOf = (id: string) => servicingPageToken(configuredServicingLinkKey(), id);
const audits = (action: "SERVICING_REQUESTED" | "SERVICING_CONFIRMED" | "SERVICING_DECLINED", pullId: string) =>
  database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, action), eq(auditEvents.pullId, pullId)));
const asUser = (actor: { id: string; name: string; role: "ADMIN" | "MANAGER" | "AGENT" }): Actor => ({
  ...actor,
  sessionId: "test",
});

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
  sandbox = await startSandbox({
    port: 0,
    clientId: "sv",
    clientSecret: "sv-secret",
    teamId: TEAM,
    webhookUrl: await startIngestion(),
    webhookSecret: null,
    seed: 61,
    pullCount: 4,
    speed: 0.002,
    deliverOnStart: false,
  });
  service = {
    baseUrl: sandbox.baseUrl,
    teamId: TEAM,
    clientId: "sv",
    clientSecret: "sv-secret",
    timeoutMs: 3_000,
    retryBaseMs: 1,
  };
});
afterAll(async () => {
  await sandbox?.close();
  await new Promise((r) => receiver?.close(r));
  await queue;
  await database?.close();
});

describe("servicing requests", { timeout: 120_000 }, () => {
  let pullId = "";
  let confirmedId = "";

  it("asks only for WON clients, only what the carrier supports, and refuses bad fields by name", async () => {
    const working = await wonClient("progressive", { stage: "WORKING" });
    expect(
      await requestServicingChange(database.db, service, staff.agent, await addMortgageeFields(working, "Any Bank")),
    ).toMatchObject({ ok: false, code: "INVALID", message: expect.stringContaining("won clients") });

    // GEICO lets the service add vehicles only.
    const geico = await wonClient("geico");
    expect(
      await requestServicingChange(database.db, service, staff.agent, await addMortgageeFields(geico, "Any Bank")),
    ).toMatchObject({
      ok: false,
      code: "INVALID",
      field: "actionType",
      message: "GEICO does not let the service add a mortgagee.",
    });
    const geicoDetail = await getPullDetail(database.db, geico);
    if (!geicoDetail) throw new Error("no pull");
    const panel = await getServicingPanel(database.db, service, asUser(staff.agent), geicoDetail, []);
    expect(panel?.actions).toEqual(["ADD_VEHICLE"]);

    pullId = await wonClient("progressive");
    const fields = await addMortgageeFields(pullId, "Sunrise Savings");
    expect(await requestServicingChange(database.db, service, staff.agent, { ...fields, name: "" })).toMatchObject({
      ok: false,
      code: "INVALID",
      field: "name",
      message: "Enter the lender's name.",
    });
    const auto = (await targetsOf(pullId)).autos[0];
    expect(
      await requestServicingChange(database.db, service, staff.agent, {
        pullId,
        actionType: "ADD_VEHICLE",
        policy: auto?.policyNumber,
        vin: "1HGCM82633A00435O",
        year: "2022",
        make: "Honda",
        model: "Accord",
      }),
    ).toMatchObject({ ok: false, field: "vin", message: "A VIN is 17 letters and digits, without I, O or Q." });
    // Nothing refused above was written.
    expect(await database.db.select().from(servicingRequests)).toEqual([]);
  });

  it("refuses an agent on another's client, and an agent on the queue's", async () => {
    const fields = await addMortgageeFields(pullId, "Sunrise Savings");
    expect(await requestServicingChange(database.db, service, staff.otherAgent, fields)).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
    // Another account (State Farm's), in the queue: agents may see it, not ask for changes on it.
    const queue = await wonClient("statefarm", { assignee: null });
    expect(
      await requestServicingChange(database.db, service, staff.otherAgent, await addMortgageeFields(queue, "Q Bank")),
    ).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(await database.db.select().from(servicingRequests)).toEqual([]);
  });

  it("runs request → webhook → the consumer confirms → SUCCESS on the row", async () => {
    const requested = await requestServicingChange(
      database.db,
      service,
      staff.agent,
      await addMortgageeFields(pullId, "Sunrise Savings"),
    );
    if (!requested.ok) throw new Error(requested.message);
    confirmedId = requested.request.id;
    expect(requested.request).toMatchObject({
      pullId,
      actionType: "ADD_MORTGAGEE",
      servicingActionId: expect.any(String),
      servicingPullId: expect.any(String),
      sessionJwt: expect.any(String),
      requestedBy: staff.agent.id,
    });
    expect(await audits("SERVICING_REQUESTED", pullId)).toEqual([
      expect.objectContaining({
        actorId: staff.agent.id,
        details: expect.objectContaining({ actionType: "ADD_MORTGAGEE" }),
      }),
    ]);
    // The same change again, while it is under way: refused, not asked twice.
    expect(
      await requestServicingChange(
        database.db,
        service,
        staff.agent,
        await addMortgageeFields(pullId, "Sunrise Savings"),
      ),
    ).toMatchObject({ ok: false, code: "STALE" });

    // The SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION webhook, through ingestion, moves the row.
    await reached(confirmedId, "WAITING_FOR_CONSUMER_CONFIRMATION");
    const page = await loadServicingPage(database.db, service, tokenOf(confirmedId), ADDRESS);
    expect(page).toMatchObject({
      kind: "page",
      step: { kind: "ready" },
      carrier: "Progressive",
      change: expect.stringContaining("Add Sunrise Savings (1 Bank Plaza, Denver, CO 80202, loan LN-42)"),
    });

    expect(
      await answerServicingPage(database.db, service, { token: tokenOf(confirmedId), answer: "confirm" }, CLIENT),
    ).toEqual({ status: "done", message: "Thank you. Your insurance company is making the change." });
    expect((await rowOf(confirmedId)).consumerAnswer).toBe("CONFIRMED");
    expect(await audits("SERVICING_CONFIRMED", pullId)).toHaveLength(1);
    // A second click changes nothing.
    expect(
      await answerServicingPage(database.db, service, { token: tokenOf(confirmedId), answer: "decline" }, CLIENT),
    ).toMatchObject({ status: "error", code: "STALE" });

    // SUCCESS arrives with the servicing pull's COMPLETE webhook (no GET asked for it here).
    const done = await reached(confirmedId, "SUCCESS");
    expect(done.consumerAnswer).toBe("CONFIRMED");
    expect(await loadServicingPage(database.db, service, tokenOf(confirmedId), ADDRESS)).toMatchObject({
      step: { kind: "done" },
    });
    const detail = await getPullDetail(database.db, pullId);
    if (!detail) throw new Error("no pull");
    const panel = await getServicingPanel(
      database.db,
      service,
      asUser(staff.agent),
      detail,
      await listServicingRequests(database.db, pullId),
    );
    expect(panel?.requests[0]).toMatchObject({
      status: { label: "Done: the carrier made the change.", tone: "done" },
      confirmUrl: null,
    });
  });

  it("ignores redelivered and out-of-order news: the status never moves back", async () => {
    const row = await rowOf(confirmedId);
    const waiting = delivered.find(
      (hook) =>
        hook.event_type === "SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION" && hook.pull_id === row.servicingPullId,
    );
    expect(waiting, JSON.stringify(delivered.map((h) => [h.event_type, h.pull_id, h.status]))).toBeDefined();
    // The waiting event again, after the outcome: straight through the ingestion's effects, and as a new delivery.
    await applyEventEffects(database.db, 0, waiting);
    expect(
      await receiveWebhook(database.db, JSON.stringify({ ...waiting, redelivered: true }), {
        webhookSecret: null,
        signatureHeader: null,
      }),
    ).toMatchObject({ status: 202 });
    await processDueEvents(database.db, (id) => fetchPullPayload(service, id), { workerId: "replay", batchSize: 50 });
    expect((await rowOf(confirmedId)).status).toBe("SUCCESS");
    // An older status of the servicing pull (a late fetch) and a stale GET answer change nothing either.
    await database.db
      .update(pulls)
      .set({ status: "WAITING_FOR_CONSUMER_CONFIRMATION" })
      .where(eq(pulls.pullId, row.servicingPullId ?? ""));
    await followServicingPull(database.db, row.servicingPullId ?? "");
    expect(await advanceServicing(database.db, { id: confirmedId }, { status: "IN_PROGRESS" })).toBe(false);
    expect(await advanceServicing(database.db, { id: confirmedId }, { status: "UNCONFIRMED" })).toBe(false);
    expect((await rowOf(confirmedId)).status).toBe("SUCCESS");
  });

  it("records a decline, and the service's end of the pull does not turn it into a success", async () => {
    const auto = (await targetsOf(pullId)).autos[0];
    const requested = await requestServicingChange(database.db, service, staff.manager, {
      pullId,
      actionType: "ADD_VEHICLE",
      policy: auto?.policyNumber,
      vin: "5YJSA1E26HF000337",
      year: "2024",
      make: "Tesla",
      model: "Model S",
    });
    if (!requested.ok) throw new Error(requested.message);
    const id = requested.request.id;
    await reached(id, "WAITING_FOR_CONSUMER_CONFIRMATION");
    expect(await answerServicingPage(database.db, service, { token: tokenOf(id), answer: "decline" }, CLIENT)).toEqual({
      status: "done",
      message: "Thank you. Nothing will be changed.",
    });
    expect(await rowOf(id)).toMatchObject({ status: "UNCONFIRMED", consumerAnswer: "DECLINED" });
    expect(await audits("SERVICING_DECLINED", pullId)).toHaveLength(1);
    // The servicing pull ends (the sandbox, like the service, calls it SUCCESS) and COMPLETE arrives.
    const servicingPullId = requested.request.servicingPullId ?? "";
    await until(
      async () => (await database.db.select().from(pulls).where(eq(pulls.pullId, servicingPullId)))[0]?.status,
      (status) => status === "SUCCESS",
      "the servicing pull's end",
    );
    expect((await rowOf(id)).status).toBe("UNCONFIRMED");
    expect(await loadServicingPage(database.db, service, tokenOf(id), ADDRESS)).toMatchObject({
      step: { kind: "declined" },
    });
  });

  it("refuses a confirmation from a signed-in staff session, and records the client's address and browser", async () => {
    const auto = (await targetsOf(pullId)).autos[0];
    const requested = await requestServicingChange(database.db, service, staff.agent, {
      pullId,
      actionType: "ADD_VEHICLE",
      policy: auto?.policyNumber,
      vin: "1HGCM82633A004352",
      year: "2023",
      make: "Honda",
      model: "Accord",
    });
    if (!requested.ok) throw new Error(requested.message);
    const id = requested.request.id;
    await reached(id, "WAITING_FOR_CONSUMER_CONFIRMATION");
    // The agent opens the client's link in the browser they are signed in with: refused, nothing recorded.
    const fromStaff = await answerServicingPage(
      database.db,
      service,
      { token: tokenOf(id), answer: "confirm" },
      { address: "203.0.113.5", userAgent: "Mozilla/5.0 (agency desk)", staffUserId: staff.agent.id },
    );
    expect(fromStaff).toMatchObject({ status: "error", code: "FORBIDDEN" });
    expect(fromStaff.status === "error" && fromStaff.message).toMatch(/signed in to Coverdesk.*only the client/);
    expect(await rowOf(id)).toMatchObject({
      status: "WAITING_FOR_CONSUMER_CONFIRMATION",
      consumerAnswer: null,
      consumerAnsweredIp: null,
    });
    expect(await audits("SERVICING_CONFIRMED", pullId)).toHaveLength(1); // the first test's only

    // The client, on their own phone: confirmed, with where it came from.
    const phone = { address: "198.51.100.23", userAgent: "Mozilla/5.0 (iPhone)\r\nX-Forged: 1", staffUserId: null };
    expect(await answerServicingPage(database.db, service, { token: tokenOf(id), answer: "confirm" }, phone)).toEqual({
      status: "done",
      message: "Thank you. Your insurance company is making the change.",
    });
    expect(await rowOf(id)).toMatchObject({
      consumerAnswer: "CONFIRMED",
      consumerAnsweredIp: "198.51.100.23",
      consumerAnsweredUserAgent: "Mozilla/5.0 (iPhone) X-Forged: 1",
    });
    const confirmed = (await audits("SERVICING_CONFIRMED", pullId)).find(
      (a) => (a.details as { servicingRequestId?: string }).servicingRequestId === id,
    );
    expect(confirmed?.details).toMatchObject({
      by: "the client",
      address: "198.51.100.23",
      userAgent: "Mozilla/5.0 (iPhone) X-Forged: 1",
    });
  });

  it("lets staff withdraw an unanswered confirm link: the client's page then takes no answer", async () => {
    const auto = (await targetsOf(pullId)).autos[0];
    const requested = await requestServicingChange(database.db, service, staff.agent, {
      pullId,
      actionType: "ADD_VEHICLE",
      policy: auto?.policyNumber,
      vin: "2HGCM82633A004353",
      year: "2022",
      make: "Honda",
      model: "Civic",
    });
    if (!requested.ok) throw new Error(requested.message);
    const id = requested.request.id;
    await reached(id, "WAITING_FOR_CONSUMER_CONFIRMATION");

    expect(await revokeServicingLink(database.db, staff.otherAgent, { pullId, requestId: id })).toMatchObject({
      ok: false,
    });
    expect(await revokeServicingLink(database.db, staff.agent, { pullId, requestId: "sv_unknown" })).toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await revokeServicingLink(database.db, staff.agent, { pullId, requestId: id })).toEqual({
      ok: true,
      requestId: id,
    });
    const page = await loadServicingPage(database.db, service, tokenOf(id), "198.51.100.24");
    expect(page).toMatchObject({
      kind: "page",
      step: { kind: "refused", reason: expect.stringMatching(/withdrew this link/) },
    });
    const client = { address: "198.51.100.24", userAgent: "Mozilla/5.0 (iPhone)", staffUserId: null };
    expect(
      await answerServicingPage(database.db, service, { token: tokenOf(id), answer: "confirm" }, client),
    ).toMatchObject({ status: "error", code: "STALE" });
    expect(await rowOf(id)).toMatchObject({ consumerAnswer: null, linkRevokedBy: staff.agent.id });
    expect(await revokeServicingLink(database.db, staff.agent, { pullId, requestId: id })).toMatchObject({
      code: "STALE",
    });
    const [revoked] = await database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "CONSUMER_LINK_REVOKED"), eq(auditEvents.pullId, pullId)));
    expect(revoked?.details).toMatchObject({ kind: "servicing confirm page", requestId: id });
    // The agent's list says so and offers no link to send.
    const detail = await getPullDetail(database.db, pullId);
    if (!detail) throw new Error("no pull");
    const panel = await getServicingPanel(
      database.db,
      service,
      staff.agent,
      detail,
      await listServicingRequests(database.db, pullId),
    );
    const item = panel?.requests.find((r) => r.id === id);
    expect(item).toMatchObject({ confirmUrl: null });
    expect(item?.status.label).toMatch(/withdrawn before they answered/);
  });

  it("refuses tampered, unknown and expired links in plain words", async () => {
    const token = tokenOf(confirmedId);
    const tampered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    expect(await loadServicingPage(database.db, service, tampered, ADDRESS)).toEqual({ kind: "not-found" });
    expect(await loadServicingPage(database.db, service, tokenOf(newServicingRequestId()), ADDRESS)).toEqual({
      kind: "not-found",
    });
    // A reconnect page's token is signed under another key: it opens no servicing page.
    const reconnect = reconnectPageToken(configuredReconnectPageKey(), confirmedId);
    expect(await loadServicingPage(database.db, service, reconnect, ADDRESS)).toEqual({ kind: "not-found" });
    expect(
      await answerServicingPage(database.db, service, { token: tampered, answer: "confirm" }, CLIENT),
    ).toMatchObject({
      status: "error",
      code: "NOT_FOUND",
    });

    const requested = await requestServicingChange(
      database.db,
      service,
      staff.admin,
      await addMortgageeFields(pullId, "Late Lender"),
    );
    if (!requested.ok) throw new Error(requested.message);
    const id = requested.request.id;
    await reached(id, "WAITING_FOR_CONSUMER_CONFIRMATION");
    await database.db
      .update(servicingRequests)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(servicingRequests.id, id));
    expect(await loadServicingPage(database.db, service, tokenOf(id), ADDRESS)).toMatchObject({
      step: { kind: "expired" },
    });
    expect(
      await answerServicingPage(database.db, service, { token: tokenOf(id), answer: "confirm" }, CLIENT),
    ).toMatchObject({
      status: "error",
      code: "STALE",
    });
    expect((await rowOf(id)).consumerAnswer).toBeNull();
  });

  it("keeps a request the service refused or never answered, with the reason in words", async () => {
    // A pull older than the service will act on: PULL_TOO_OLD.
    const payload = (await fetchPullPayload(service, pullId)) as { pull: Record<string, unknown> };
    const oldId = "7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d";
    const old = { ...payload.pull, pull_id: oldId, created_at: "2025-01-02T03:04:05Z" };
    await control("pulls", old);
    await storePull(database.db, await fetchPullPayload(service, oldId));
    await database.db.update(pulls).set({ stage: "WON", assigneeId: staff.agent.id }).where(eq(pulls.pullId, oldId));
    const tooOld = await requestServicingChange(
      database.db,
      service,
      staff.agent,
      await addMortgageeFields(oldId, "Old Bank"),
    );
    expect(tooOld).toMatchObject({ ok: false, code: "CONFLICT", message: expect.stringContaining("too old") });
    const [kept] = await listServicingRequests(database.db, oldId);
    expect(kept).toMatchObject({ servicingActionId: null, error: expect.stringContaining("PULL_TOO_OLD") });
    expect(kept?.payload).toMatchObject({ name: "Old Bank" });

    // The service failing on the request (the catalogue read earlier is still held).
    await control("faults", { errorRate: 1 });
    const outage = await requestServicingChange(
      database.db,
      service,
      staff.agent,
      await addMortgageeFields(pullId, "Outage Bank"),
    ).finally(() => control("faults", { errorRate: 0 }));
    expect(outage).toMatchObject({ ok: false, code: "CONFLICT", message: expect.stringContaining("did not answer") });
    const [unsent] = await listServicingRequests(database.db, pullId);
    expect(unsent).toMatchObject({
      servicingActionId: null,
      payload: expect.objectContaining({ name: "Outage Bank" }),
    });
    const detail = await getPullDetail(database.db, pullId);
    if (!detail) throw new Error("no pull");
    const panel = await getServicingPanel(
      database.db,
      service,
      asUser(staff.agent),
      detail,
      await listServicingRequests(database.db, pullId),
    );
    expect(panel?.requests[0]?.status).toMatchObject({ tone: "refused", label: expect.stringContaining("Not sent") });
    // Nothing was asked twice: the requests that reached the service each have one action id.
    const sent = (await database.db.select().from(servicingRequests)).filter((r) => r.servicingActionId);
    expect(new Set(sent.map((r) => r.servicingActionId)).size).toBe(sent.length);
  });
});
