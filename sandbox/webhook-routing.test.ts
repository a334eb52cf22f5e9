import { createHmac, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "./server";
import { call, sandboxOptions, TEAM } from "./test-receiver";
import { ALL_EVENT_TYPES } from "./webhook-registry";

// Who gets which webhook, as the service decides it: each event type goes only to the active
// registrations that asked for it, each signed with its own secret; the dashboard-only types
// go nowhere until they are switched on on the dashboard.

type Delivery = { path: string; type: string; pullId: string; body: string; signature: string };
let server: Server;
let base = "";
let deliveries: Delivery[] = [];
/** Paths whose next answers are 500, to see a retry. */
const failing = new Map<string, number>();

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const path = req.url ?? "";
      const event = JSON.parse(body) as { event_type: string; pull_id: string };
      deliveries.push({
        path,
        type: event.event_type,
        pullId: event.pull_id,
        body,
        signature: String(req.headers["canopy-signature"] ?? ""),
      });
      const fails = failing.get(path) ?? 0;
      if (fails > 0) failing.set(path, fails - 1);
      res.writeHead(fails > 0 ? 500 : 200).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  deliveries = [];
  failing.clear();
});

const team = (path: string) => `/teams/${TEAM}${path}`;
/** A team with no webhook set up on the dashboard. */
const noDashboardWebhook = () => ({ ...sandboxOptions(""), webhookUrl: null });
function signedWith(secret: string, delivery: Delivery): boolean {
  const [, t, s] = /^t=(\d+),s=([0-9a-f]{64})$/.exec(delivery.signature) ?? [];
  return Boolean(t) && s === createHmac("sha256", secret).update(`${t}.${delivery.body}`).digest("hex");
}

/** A finished pull and a failed one, each served and then delivered: COMPLETE and ERROR. */
async function deliverCompleteAndError(running: Sandbox): Promise<{ ok: string; failed: string }> {
  const ok = randomUUID();
  const failed = randomUUID();
  await call(running, "POST", "/_sandbox/pulls", { pull_id: ok, status: "SUCCESS" });
  await call(running, "POST", "/_sandbox/pulls", { pull_id: failed, status: "PROVIDER_ERROR" });
  await call(running, "POST", "/_sandbox/deliver", { pull_ids: [ok, failed] });
  await running.deliveries.idle();
  return { ok, failed };
}

async function register(running: Sandbox, path: string, eventTypes: string[]) {
  const answer = await call(running, "POST", team("/webhooks"), { hookUrl: `${base}${path}`, eventTypes });
  expect(answer.status).toBe(200);
  return { id: String(answer.body.webhook_id), secret: String(answer.body.signing_secret) };
}

describe("webhook routing by registration", () => {
  it("sends an API registration only the types it asked for, signed with its own secret", async () => {
    sandbox = await startSandbox(noDashboardWebhook());
    const complete = await register(sandbox, "/complete", ["COMPLETE"]);
    const auth = await register(sandbox, "/auth", ["AUTH_STATUS"]);
    const paused = await register(sandbox, "/paused", ["COMPLETE"]);
    await call(sandbox, "PATCH", team(`/webhooks/${paused.id}`), { isActive: false });
    expect(complete.secret).not.toBe(auth.secret);

    const { ok, failed } = await deliverCompleteAndError(sandbox);

    expect(deliveries.map((d) => [d.path, d.type, d.pullId])).toEqual([["/complete", "COMPLETE", ok]]);
    expect(deliveries.every((d) => signedWith(complete.secret, d))).toBe(true);
    expect(deliveries.some((d) => signedWith(auth.secret, d))).toBe(false);
    expect(
      deliveries.some((d) => d.pullId === failed),
      "ERROR is dashboard-only: not switched on",
    ).toBe(false);
  });

  it("delivers dashboard-only types once they are switched on on the dashboard, to that webhook only", async () => {
    sandbox = await startSandbox(noDashboardWebhook());
    const ours = await register(sandbox, "/ours", ["COMPLETE"]);
    const made = await call(sandbox, "POST", "/_sandbox/dashboard/webhooks", {
      url: `${base}/dashboard`,
      eventTypes: ["MONITORING_RECONNECT"],
    });
    expect(made.status).toBe(200);
    const dashboardSecret = String(made.body.signing_secret);
    expect((await call(sandbox, "GET", team("/webhooks"))).body.webhooks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ webhook_id: made.body.webhook_id, signing_secret: dashboardSecret, is_active: true }),
      ]),
    );

    const edited = await call(sandbox, "POST", `/_sandbox/dashboard/webhooks/${ours.id}`, {
      eventTypes: ["COMPLETE", "ERROR"],
    });
    expect(edited.body.webhook).toMatchObject({ event_types: ["COMPLETE", "ERROR"] });
    const { ok, failed } = await deliverCompleteAndError(sandbox);

    const sorted = deliveries.map((d) => [d.path, d.type, d.pullId]).sort();
    expect(sorted).toEqual([
      ["/ours", "COMPLETE", ok],
      ["/ours", "ERROR", failed],
    ]);
    expect(deliveries.every((d) => signedWith(ours.secret, d))).toBe(true);
  });

  it("refuses a dashboard change it cannot make", async () => {
    sandbox = await startSandbox(noDashboardWebhook());
    const bad = [
      ["/_sandbox/dashboard/webhooks", { url: "not a url", eventTypes: ["ERROR"] }, 400],
      ["/_sandbox/dashboard/webhooks", { url: `${base}/x`, eventTypes: ["NOPE"] }, 400],
      ["/_sandbox/dashboard/webhooks", { url: `${base}/x`, eventTypes: [] }, 400],
      [`/_sandbox/dashboard/webhooks/${randomUUID()}`, { eventTypes: ["ERROR"] }, 404],
      ["/_sandbox/dashboard/webhooks/not-an-id", { eventTypes: ["ERROR"] }, 404],
    ] as const;
    for (const [path, body, status] of bad) expect((await call(sandbox, "POST", path, body)).status).toBe(status);
    expect((await call(sandbox, "GET", team("/webhooks"))).body.webhooks).toEqual([]);
  });

  it("makes the startup webhook a dashboard registration with its secret and every type", async () => {
    sandbox = await startSandbox({ ...sandboxOptions(`${base}/startup`), webhookSecret: "whsec_startup" });
    const [listed] = (await call(sandbox, "GET", team("/webhooks"))).body.webhooks as Array<Record<string, unknown>>;
    expect(listed).toMatchObject({ url: `${base}/startup`, signing_secret: "whsec_startup", is_active: true });
    expect([...(listed?.event_types as string[])].sort()).toEqual([...ALL_EVENT_TYPES].sort());
    const { failed } = await deliverCompleteAndError(sandbox);
    expect(deliveries.find((d) => d.pullId === failed)?.type).toBe("ERROR");
    expect(deliveries.every((d) => signedWith("whsec_startup", d))).toBe(true);
  });

  it("sends a retry with the first attempt's signature", async () => {
    // At this speed the first retry waits 61 s × 0.02 = 1.2 s: a fresh signature would carry a later t.
    sandbox = await startSandbox(sandboxOptions(`${base}/flaky`, 0.02));
    failing.set("/flaky", 1);
    const pullId = randomUUID();
    await call(sandbox, "POST", "/_sandbox/pulls", { pull_id: pullId, status: "SUCCESS" });
    await call(sandbox, "POST", "/_sandbox/deliver", { pull_ids: [pullId] });
    await sandbox.deliveries.idle();
    expect(deliveries).toHaveLength(2);
    expect(deliveries[1]?.signature).toBe(deliveries[0]?.signature);
  });
});
