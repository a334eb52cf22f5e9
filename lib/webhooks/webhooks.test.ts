import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { pulls, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import type { Actor } from "@/lib/core/actor";
import { createApiKey } from "@/lib/api/keys";
import { storePull } from "@/lib/ingest/store-pull";
import { assignPulls } from "@/lib/workflow/assignment";
import { setPullStage } from "@/lib/workflow/funnel";
import { generatePulls } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { loadWebhooksPage } from "@/lib/loaders/webhooks";
import { resendDelivery } from "./admin";
import { deliverDueWebhooks, pruneFinishedDeliveries, retryDelayMs, RETRY_DELAYS_MS } from "./deliver";
import { createWebhookEndpoint, webhookUrlPolicy } from "./endpoints";
import { enqueueEvent } from "./events";

// Outgoing webhooks end to end: an endpoint registered through the API on a real HTTP receiver
// that verifies every delivery with the Standard Webhooks reference library, a pull moved to WON
// through the API, the outbox written with the change, the retries' schedule, 410, redirects,
// refused addresses and the rotation's two signatures.

let database: TestDatabase;
vi.mock("@/lib/database", () => ({ getDb: async () => database.db }));

const endpointsRoute = await import("@/app/api/v1/webhook-endpoints/route");
const endpointRoute = await import("@/app/api/v1/webhook-endpoints/[endpoint_id]/route");
const rotateRoute = await import("@/app/api/v1/webhook-endpoints/[endpoint_id]/rotate-secret/route");
const pullRoute = await import("@/app/api/v1/pulls/[pull_id]/route");

type Received = { path: string; body: string; headers: IncomingHttpHeaders };
let server: Server;
let base = "";
const received: Received[] = [];
/** Answers per path, in order; past the list, 200. */
const script = new Map<string, number[]>();

const local = webhookUrlPolicy("development");
const production = webhookUrlPolicy("production");
let admin: Actor;
let agent: Actor;
let pullIds: string[] = [];
let hooksKey = "";
let pullsKey = "";

const auth = (key: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, ...extra });

async function register(url: string, events: string[], key = hooksKey): Promise<Response> {
  return endpointsRoute.POST(
    new Request("http://app/api/v1/webhook-endpoints", {
      method: "POST",
      headers: auth(key, { "content-type": "application/json" }),
      body: JSON.stringify({ url, events }),
    }),
  );
}

const deliveriesOf = (endpointId: string) =>
  database.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(webhookDeliveries.createdAt);

/** The receiver's side: verifies a delivery with the reference library, as a receiver would. */
const verify = (secret: string, delivery: Received) =>
  new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);

beforeAll(async () => {
  database = await createTestDatabase();
  ({ admin, agent } = await createStaff(database.db));
  const seeded = generatePulls(12, 7, new Date()).filter((p) => !p.parent_pull_id && p.type !== "SERVICING");
  for (const pull of seeded) await storePull(database.db, pull);
  const listed = await database.db
    .select({ pullId: pulls.pullId })
    .from(pulls)
    .where(sql`${pulls.listed} and ${pulls.stage} <> 'WON'`);
  pullIds = listed.map((row) => row.pullId);
  const hooks = await createApiKey(database.db, { name: "Zapier hooks", scopes: ["webhooks:write"] });
  const rw = await createApiKey(database.db, { name: "Zapier", scopes: ["pulls:read", "pulls:write"] });
  if (!hooks.ok || !rw.ok) throw new Error("no key");
  hooksKey = hooks.key;
  pullsKey = rw.key;
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      received.push({ path, body: Buffer.concat(chunks).toString("utf8"), headers: request.headers });
      const queue = script.get(path) ?? [];
      const status = queue.shift() ?? 200;
      if (status === 0) return; // never answers
      if (status === 302) response.writeHead(302, { location: `${base}/landed` }).end();
      else response.writeHead(status).end(status >= 400 ? "no" : "ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await database?.close();
});

describe("webhook endpoints through the API", () => {
  it("registers an endpoint (201 with a whsec_ secret once), lists it without the secret and deletes it", async () => {
    const made = await register(`${base}/crud`, ["pull.created"]);
    expect(made.status).toBe(201);
    const body = (await made.json()) as { id: string; secret: string; events: string[]; url: string };
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(body).toMatchObject({ url: `${base}/crud`, events: ["pull.created"], disabled_at: null });

    const listed = (await (
      await endpointsRoute.GET(new Request("http://app/api/v1/webhook-endpoints", { headers: auth(hooksKey) }))
    ).json()) as { data: Array<Record<string, unknown>> };
    const mine = listed.data.find((endpoint) => endpoint.id === body.id);
    expect(mine).toMatchObject({ url: `${base}/crud` });
    expect(mine).not.toHaveProperty("secret");
    expect(JSON.stringify(listed)).not.toContain(body.secret);

    const params = { params: Promise.resolve({ endpoint_id: body.id }) };
    const url = `http://app/api/v1/webhook-endpoints/${body.id}`;
    expect((await endpointRoute.GET(new Request(url, { headers: auth(hooksKey) }), params)).status).toBe(200);
    const deleted = await endpointRoute.DELETE(new Request(url, { method: "DELETE", headers: auth(hooksKey) }), params);
    expect(deleted.status).toBe(200);
    expect((await endpointRoute.GET(new Request(url, { headers: auth(hooksKey) }), params)).status).toBe(404);
    expect(
      (await endpointRoute.DELETE(new Request(url, { method: "DELETE", headers: auth(hooksKey) }), params)).status,
    ).toBe(404);
  });

  it("keeps no secret for an Idempotency-Key retry: the replay names the endpoint with a null secret", async () => {
    const send = () =>
      endpointsRoute.POST(
        new Request("http://app/api/v1/webhook-endpoints", {
          method: "POST",
          headers: auth(hooksKey, { "content-type": "application/json", "idempotency-key": "hook-once" }),
          body: JSON.stringify({ url: `${base}/once`, events: ["pull.created"] }),
        }),
      );
    const first = (await (await send()).json()) as { id: string; secret: string | null };
    expect(first.secret).toMatch(/^whsec_/);
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toMatchObject({ id: first.id, secret: null });
    const kept = await database.db.execute(sql`select response_body::text as body from api_idempotency`);
    expect(JSON.stringify(kept)).not.toContain(first.secret ?? "none");
    await database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, first.id));
  });

  it("refuses unknown events, a non-URL, no events and a key without webhooks:write", async () => {
    for (const [url, events, field] of [
      [`${base}/x`, ["pull.deleted"], "events.0"],
      ["not a url", ["pull.created"], "url"],
      [`${base}/x`, [], "events"],
    ] as const) {
      const answer = await register(url, [...events]);
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: { field: string } }).error.field).toBe(field);
    }
    const forbidden = await register(`${base}/x`, ["pull.created"], pullsKey);
    expect(forbidden.status).toBe(403);
  });

  it("refuses private and loopback addresses in production, and accepts loopback in development", async () => {
    for (const url of [
      "http://127.0.0.1:9/hook",
      "https://127.0.0.1/hook",
      "https://10.0.0.8/hook",
      "https://[::1]/x",
    ]) {
      const refused = await createWebhookEndpoint(
        database.db,
        { url, events: ["pull.created"] },
        { name: "t" },
        production,
      );
      expect(refused).toMatchObject({ ok: false, field: "url" });
    }
    const accepted = await createWebhookEndpoint(
      database.db,
      { url: `${base}/dev`, events: ["pull.created"] },
      { name: "t" },
      local,
    );
    expect(accepted.ok).toBe(true);
    if (accepted.ok) await database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, accepted.id));
  });
});

describe("delivering events", () => {
  it("delivers a verified pull.stage_changed for a pull moved to WON through the API, after the receiver's 500s", async () => {
    const made = (await (await register(`${base}/flaky`, ["pull.stage_changed"])).json()) as {
      id: string;
      secret: string;
    };
    script.set("/flaky", [500, 500]);
    const pullId = pullIds[0] ?? "";
    const patched = await pullRoute.PATCH(
      new Request(`http://app/api/v1/pulls/${pullId}`, {
        method: "PATCH",
        headers: auth(pullsKey, { "content-type": "application/json" }),
        body: JSON.stringify({ stage: "WON", premium_cents: 150000 }),
      }),
      { params: Promise.resolve({ pull_id: pullId }) },
    );
    expect(patched.status).toBe(200);

    // The outbox row was written with the change, before any HTTP call.
    const [queued] = await deliveriesOf(made.id);
    expect(queued).toMatchObject({ status: "PENDING", attempts: 0, eventType: "pull.stage_changed" });
    expect(queued?.id).toMatch(/^msg_/);

    const t0 = new Date();
    const half = () => 0.5;
    expect(await deliverDueWebhooks(database.db, { policy: local, now: t0, random: half })).toMatchObject({
      retrying: 1,
    });
    let [row] = await deliveriesOf(made.id);
    expect(row).toMatchObject({ attempts: 1, lastStatusCode: 500, status: "PENDING" });
    // The second attempt within about 10 seconds: 5 s.
    expect((row?.nextAttemptAt.getTime() ?? 0) - t0.getTime()).toBe(5_000);
    // Not due before then.
    expect(await deliverDueWebhooks(database.db, { policy: local, now: new Date(t0.getTime() + 4_000) })).toEqual({
      delivered: 0,
      retrying: 0,
      failed: 0,
    });
    const t1 = new Date(t0.getTime() + 5_000);
    await deliverDueWebhooks(database.db, { policy: local, now: t1, random: half });
    [row] = await deliveriesOf(made.id);
    expect(row).toMatchObject({ attempts: 2, lastStatusCode: 500 });
    expect((row?.nextAttemptAt.getTime() ?? 0) - t1.getTime()).toBe(5 * 60_000);

    // Five minutes pass (the row is made due, so the signature's timestamp stays current).
    await database.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date(Date.now() - 1000) })
      .where(eq(webhookDeliveries.endpointId, made.id));
    expect(await deliverDueWebhooks(database.db, { policy: local })).toMatchObject({ delivered: 1 });
    [row] = await deliveriesOf(made.id);
    expect(row).toMatchObject({ status: "DELIVERED", attempts: 3, lastStatusCode: 200 });

    const attempts = received.filter((delivery) => delivery.path === "/flaky");
    expect(attempts).toHaveLength(3);
    // The same message id on every attempt, so the receiver can de-duplicate.
    expect(new Set(attempts.map((attempt) => attempt.headers["webhook-id"]))).toEqual(new Set([queued?.id]));
    const event = verify(made.secret, attempts[2] as Received);
    expect(event).toMatchObject({
      type: "pull.stage_changed",
      data: { pull_id: pullId, from_stage: expect.any(String), to_stage: "WON", won_premium_cents: 150000 },
    });
    // Thin: nothing about the consumer travels.
    expect(Object.keys((event as { data: object }).data).sort()).toEqual([
      "from_stage",
      "pull_id",
      "to_stage",
      "won_premium_cents",
    ]);
    // A forged or altered body is refused by the receiver's check.
    expect(() =>
      verify(made.secret, { ...(attempts[2] as Received), body: attempts[2]?.body.replace("WON", "LOST") ?? "" }),
    ).toThrow();
  });

  it("queues pull.created when a new pull is stored, and nothing for the same pull stored again", async () => {
    const made = (await (await register(`${base}/created`, ["pull.created"])).json()) as { id: string };
    const [fresh] = generatePulls(1, 99, new Date()).filter((p) => !p.parent_pull_id);
    if (!fresh) throw new Error("no pull");
    await storePull(database.db, fresh);
    await storePull(database.db, fresh);
    const rows = await deliveriesOf(made.id);
    expect(rows.map((row) => row.payload)).toEqual([
      expect.objectContaining({ type: "pull.created", data: { pull_id: fresh.pull_id, status: fresh.status } }),
    ]);
    await database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, made.id));
  });

  it("queues pull.assigned with the owner before and after when a pull is assigned, and nothing when unchanged", async () => {
    const made = (await (await register(`${base}/assigned`, ["pull.assigned"])).json()) as { id: string };
    const pullId = pullIds[2] ?? "";
    const [before] = await database.db
      .select({ assigneeId: pulls.assigneeId })
      .from(pulls)
      .where(eq(pulls.pullId, pullId));
    expect(await assignPulls(database.db, admin, { pullIds: [pullId], assigneeId: agent.id })).toMatchObject({
      ok: true,
    });
    await assignPulls(database.db, admin, { pullIds: [pullId], assigneeId: agent.id });
    expect((await deliveriesOf(made.id)).map((row) => row.payload)).toEqual([
      expect.objectContaining({
        type: "pull.assigned",
        data: { pull_id: pullId, from_assignee_id: before?.assigneeId ?? null, to_assignee_id: agent.id },
      }),
    ]);
    await database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, made.id));
  });

  it("shows admins each endpoint's deliveries, and Resend sends a given-up delivery again", async () => {
    const made = (await (await register(`${base}/resend`, ["alert.raised"])).json()) as { id: string; secret: string };
    await database.db.transaction((tx) =>
      enqueueEvent(tx, "alert.raised", { alert_id: "9", pull_id: pullIds[0] ?? "", kind: "CANCELLED" }),
    );
    await database.db
      .update(webhookDeliveries)
      .set({ status: "FAILED", attempts: 8, lastStatusCode: 503 })
      .where(eq(webhookDeliveries.endpointId, made.id));
    const [delivery] = await deliveriesOf(made.id);
    const page = await loadWebhooksPage(database.db, admin);
    if (!page.ok) throw new Error("refused");
    expect(page.endpoints.find((endpoint) => endpoint.id === made.id)?.deliveries).toEqual([
      expect.objectContaining({ id: delivery?.id, status: "FAILED", attempts: 8, lastStatusCode: 503 }),
    ]);
    expect((await loadWebhooksPage(database.db, { role: "AGENT" })).ok).toBe(false);
    expect(await resendDelivery(database.db, { id: "msg_nothing" }, admin)).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
    expect(await resendDelivery(database.db, { id: "not a message" }, admin)).toMatchObject({
      ok: false,
      code: "INVALID",
    });
    expect(await resendDelivery(database.db, { id: delivery?.id ?? "" }, admin)).toMatchObject({ ok: true });
    expect(await deliverDueWebhooks(database.db, { policy: local })).toMatchObject({ delivered: 1 });
    const sent = received.find((item) => item.path === "/resend") as Received;
    expect(verify(made.secret, sent)).toMatchObject({ type: "alert.raised", data: { alert_id: "9" } });
    await database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, made.id));
  });

  it("is sent within seconds by the worker's sender, without anyone calling it", async () => {
    const { startWebhookSender, stopWebhookSender } = await import("@/lib/jobs/webhook-sender");
    const made = (await (await register(`${base}/loop`, ["pull.assigned"])).json()) as { id: string };
    await database.db.transaction((tx) =>
      enqueueEvent(tx, "pull.assigned", { pull_id: pullIds[0] ?? "", from_assignee_id: null, to_assignee_id: null }),
    );
    startWebhookSender();
    try {
      await vi.waitFor(() => expect(received.some((item) => item.path === "/loop")).toBe(true), {
        timeout: 10_000,
        interval: 200,
      });
    } finally {
      await stopWebhookSender(5_000);
    }
    await vi.waitFor(async () => expect((await deliveriesOf(made.id))[0]?.status).toBe("DELIVERED"));
    await database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, made.id));
  });

  it("retries on Svix's schedule with ±10% jitter, over more than a day, then gives up", () => {
    expect(RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0)).toBeGreaterThan(24 * 3600_000);
    expect(retryDelayMs(1, () => 0)).toBe(4_500);
    expect(retryDelayMs(1, () => 1)).toBe(5_500);
    expect(retryDelayMs(2, () => 0.5)).toBe(300_000);
    expect(retryDelayMs(RETRY_DELAYS_MS.length + 1)).toBeNull();
  });

  it("writes no outbox row when the change is rolled back", async () => {
    const made = (await (await register(`${base}/rollback`, ["pull.stage_changed"])).json()) as { id: string };
    const pullId = pullIds[1] ?? "";
    const [before] = await database.db.select({ stage: pulls.stage }).from(pulls).where(eq(pulls.pullId, pullId));
    await expect(
      database.db.transaction(async (tx) => {
        const changed = await setPullStage(tx, admin, { pullId, stage: "LOST", lostReason: "price" });
        expect(changed.ok).toBe(true);
        throw new Error("crash before commit");
      }),
    ).rejects.toThrow("crash before commit");
    const [after] = await database.db.select({ stage: pulls.stage }).from(pulls).where(eq(pulls.pullId, pullId));
    expect(after?.stage).toBe(before?.stage);
    expect(await deliveriesOf(made.id)).toHaveLength(0);
    await database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, made.id));
  });

  it("forgets finished deliveries after 30 days, and never one still due", async () => {
    const made = (await (await register(`${base}/prune`, ["pull.assigned"])).json()) as { id: string };
    const old = new Date(Date.now() - 31 * 86_400_000);
    const row = (id: string, status: "DELIVERED" | "FAILED" | "PENDING", at: Date) => ({
      id,
      endpointId: made.id,
      eventType: "pull.assigned",
      payload: { type: "pull.assigned", data: {} },
      status,
      nextAttemptAt: at,
      createdAt: at,
      deliveredAt: status === "DELIVERED" ? at : null,
    });
    await database.db
      .insert(webhookDeliveries)
      .values([
        row("msg_prune_0", "DELIVERED", old),
        row("msg_prune_1", "FAILED", old),
        row("msg_prune_2", "PENDING", old),
        row("msg_prune_recent", "DELIVERED", new Date()),
      ]);
    expect(await pruneFinishedDeliveries(database.db)).toBe(2);
    expect((await deliveriesOf(made.id)).map((d) => d.id).sort()).toEqual(["msg_prune_2", "msg_prune_recent"]);
    await database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, made.id));
  });

  it("disables an endpoint that answers 410 Gone, and queues nothing more for it", async () => {
    const made = (await (await register(`${base}/gone`, ["alert.raised"])).json()) as { id: string };
    script.set("/gone", [410]);
    await database.db.transaction((tx) =>
      enqueueEvent(tx, "alert.raised", { alert_id: "1", pull_id: pullIds[0] ?? "", kind: "PREMIUM_JUMP" }),
    );
    await deliverDueWebhooks(database.db, { policy: local });
    const [endpoint] = await database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, made.id));
    expect(endpoint?.disabledAt).not.toBeNull();
    expect((await deliveriesOf(made.id))[0]).toMatchObject({ status: "FAILED", lastStatusCode: 410 });
    const queued = await database.db.transaction((tx) =>
      enqueueEvent(tx, "alert.raised", { alert_id: "2", pull_id: pullIds[0] ?? "", kind: "PREMIUM_JUMP" }),
    );
    expect(queued).toBe(0);
  });

  it("does not follow a redirect: it counts as a failure and is retried", async () => {
    const made = (await (await register(`${base}/moved`, ["alert.raised"])).json()) as { id: string };
    script.set("/moved", [302]);
    await database.db.transaction((tx) =>
      enqueueEvent(tx, "alert.raised", { alert_id: "3", pull_id: pullIds[0] ?? "", kind: "CANCELLED" }),
    );
    await deliverDueWebhooks(database.db, { policy: local });
    expect((await deliveriesOf(made.id))[0]).toMatchObject({
      status: "PENDING",
      attempts: 1,
      lastStatusCode: 302,
      lastError: "redirect 302 not followed",
    });
    expect(received.some((delivery) => delivery.path === "/landed")).toBe(false);
    await database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, made.id));
  });

  it("gives up an attempt that gets no answer within the timeout, and retries it later", async () => {
    const made = (await (await register(`${base}/silent`, ["alert.raised"])).json()) as { id: string };
    script.set("/silent", [0]);
    await database.db.transaction((tx) =>
      enqueueEvent(tx, "alert.raised", { alert_id: "5", pull_id: pullIds[0] ?? "", kind: "CANCELLED" }),
    );
    const started = Date.now();
    expect(await deliverDueWebhooks(database.db, { policy: local, timeoutMs: 300 })).toMatchObject({ retrying: 1 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await deliveriesOf(made.id))[0]).toMatchObject({ status: "PENDING", attempts: 1, lastStatusCode: null });
    await database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, made.id));
  });

  it("refuses to send to a loopback address in production, without calling it", async () => {
    const made = (await (await register(`${base}/prod`, ["alert.raised"])).json()) as { id: string };
    await database.db.transaction((tx) =>
      enqueueEvent(tx, "alert.raised", { alert_id: "4", pull_id: pullIds[0] ?? "", kind: "CANCELLED" }),
    );
    await deliverDueWebhooks(database.db, { policy: production });
    const [row] = await deliveriesOf(made.id);
    expect(row).toMatchObject({ status: "PENDING", attempts: 1, lastStatusCode: null });
    expect(row?.lastError).toMatch(/^refused: /);
    expect(received.some((delivery) => delivery.path === "/prod")).toBe(false);
    await database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, made.id));
  });

  it("signs with both secrets for a day after a rotation, so a receiver with either verifies", async () => {
    const made = (await (await register(`${base}/rotating`, ["pull.assigned"])).json()) as {
      id: string;
      secret: string;
    };
    const rotated = await rotateRoute.POST(
      new Request(`http://app/api/v1/webhook-endpoints/${made.id}/rotate-secret`, {
        method: "POST",
        headers: auth(hooksKey),
      }),
      { params: Promise.resolve({ endpoint_id: made.id }) },
    );
    expect(rotated.status).toBe(200);
    const { secret } = (await rotated.json()) as { secret: string };
    expect(secret).not.toBe(made.secret);
    await database.db.transaction((tx) =>
      enqueueEvent(tx, "pull.assigned", { pull_id: pullIds[0] ?? "", from_assignee_id: null, to_assignee_id: null }),
    );
    await deliverDueWebhooks(database.db, { policy: local });
    const delivery = received.find((item) => item.path === "/rotating") as Received;
    expect(String(delivery.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verify(made.secret, delivery)).toMatchObject({ type: "pull.assigned" });
    expect(verify(secret, delivery)).toMatchObject({ type: "pull.assigned" });
    expect(() => verify(`whsec_${Buffer.alloc(32, 7).toString("base64")}`, delivery)).toThrow();
  });
});
