import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookListResponseSchema } from "@/lib/service/schemas";
import { startSandbox, type Sandbox } from "./server";

// Registering webhooks over real HTTP, as published: camelCase bodies, snake_case answers,
// only the API-settable event types, and a code of its own for each bad part.

const TEAM = "5f0c3c55-6d2a-4c8e-9a55-2d8f1b7c9e01";
const auth = `Basic ${Buffer.from("id:secret").toString("base64")}`;
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    clientId: "id",
    clientSecret: "secret",
    teamId: TEAM,
    webhookUrl: null,
    webhookSecret: null,
    seed: 42,
    speed: 0.0001,
    deliverOnStart: false,
  });
});
afterAll(async () => {
  await sandbox?.close();
});

const call = (
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = { authorization: auth },
) =>
  fetch(`${sandbox.baseUrl}/teams/${TEAM}${path}`, {
    method,
    headers: { ...headers, "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
const json = async (response: Response) => (await response.json()) as Record<string, unknown>;
async function expectError(response: Response, status: number, error: string) {
  expect(response.status).toBe(status);
  expect((await json(response)).error).toBe(error);
}
const listed = async () => (await json(await call("GET", "/webhooks"))).webhooks as Array<Record<string, unknown>>;

describe("webhook registrations", () => {
  it("registers, lists with its secret, switches off, changes its events and deletes a webhook", async () => {
    const created = await call("POST", "/webhooks", {
      hookUrl: "https://agency.example.com/hooks",
      eventTypes: ["COMPLETE", "AUTH_STATUS", "COMPLETE"],
    });
    expect(created.status).toBe(200);
    const body = await json(created);
    expect(Object.keys(body).sort()).toEqual(["signing_secret", "webhook_id"]);
    const id = String(body.webhook_id);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const entry = (await listed()).find((w) => w.webhook_id === id);
    expect(entry).toEqual({
      webhook_id: id,
      signing_secret: body.signing_secret,
      url: "https://agency.example.com/hooks",
      is_sandbox: true,
      is_active: true,
      event_types: ["COMPLETE", "AUTH_STATUS"],
    });
    expect(
      webhookListResponseSchema.parse(await json(await call("GET", "/webhooks"))).map((w) => w.webhook_id),
    ).toContain(id);

    expect(await json(await call("PATCH", `/webhooks/${id}`, { isActive: false }))).toEqual({ success: true });
    expect(
      await json(await call("PATCH", `/webhooks/${id}`, { eventTypes: ["POLICIES_AVAILABLE", "VALIDATION_COMPLETE"] })),
    ).toEqual({ success: true });
    expect((await listed()).find((w) => w.webhook_id === id)).toMatchObject({
      is_active: false,
      event_types: ["POLICIES_AVAILABLE", "VALIDATION_COMPLETE"],
    });

    expect(await json(await call("DELETE", `/webhooks/${id}`))).toEqual({ success: true });
    await expectError(await call("DELETE", `/webhooks/${id}`), 400, "NOT_FOUND");
    expect((await listed()).some((w) => w.webhook_id === id)).toBe(false);
  });

  it("refuses bad registrations with INVALID_URL or INVALID_EVENT_TYPE; dashboard-only events too", async () => {
    for (const body of [
      { eventTypes: ["COMPLETE"] },
      { hookUrl: "not a url", eventTypes: ["COMPLETE"] },
      { hookUrl: "ftp://x.example.com", eventTypes: ["COMPLETE"] },
    ]) {
      await expectError(await call("POST", "/webhooks", body), 400, "INVALID_URL");
    }
    for (const eventTypes of [
      undefined,
      [],
      ["NOPE"],
      "COMPLETE",
      ["ERROR"],
      ["MONITORING_EVENTS"],
      ["COMPLETE", "DATA_UPDATED"],
    ]) {
      await expectError(
        await call("POST", "/webhooks", { hookUrl: "https://x.example.com", eventTypes }),
        400,
        "INVALID_EVENT_TYPE",
      );
    }
    await expectError(await call("POST", "/webhooks", "{"), 400, "INVALID_INPUT");
    // snake_case is not the request's casing.
    await expectError(
      await call("POST", "/webhooks", { hook_url: "https://x.example.com", event_types: ["COMPLETE"] }),
      400,
      "INVALID_URL",
    );
  });

  it("refuses bad changes and unknown ids with their own codes", async () => {
    const { webhook_id: id } = await json(
      await call("POST", "/webhooks", { hookUrl: "https://x.example.com", eventTypes: ["COMPLETE"] }),
    );
    await expectError(await call("PATCH", `/webhooks/${String(id)}`, { isActive: "no" }), 400, "INVALID_IS_ACTIVE");
    await expectError(
      await call("PATCH", `/webhooks/${String(id)}`, { eventTypes: ["ERROR"] }),
      400,
      "INVALID_EVENT_TYPE",
    );
    await expectError(await call("PATCH", `/webhooks/${String(id)}`, {}), 400, "INVALID_INPUT");
    await expectError(
      await call("PATCH", "/webhooks/00000000-0000-4000-8000-000000000000", { isActive: true }),
      400,
      "NOT_FOUND",
    );
    await expectError(await call("PATCH", "/webhooks/nope", { isActive: true }), 400, "INVALID_WEBHOOK_ID");
    await expectError(await call("DELETE", "/webhooks/nope"), 400, "INVALID_WEBHOOK_ID");
    await expectError(await call("PUT", "/webhooks"), 405, "METHOD_NOT_ALLOWED");
    await expectError(await call("GET", "/webhooks", undefined, {}), 401, "UNAUTHORIZED");
  });
});
