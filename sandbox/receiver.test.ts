import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "./server";

// The control API's stand-in for a Zapier hook: it takes the agency's outgoing webhooks only
// with a valid Standard Webhooks signature once it knows the secret, and refuses the first
// attempt of every fifth message so a sender's retry shows.

const SECRET = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
let sandbox: Sandbox;
let receiver: string;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    clientId: "receiver-client",
    clientSecret: "receiver-secret",
    teamId: "6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2e",
    webhookUrl: null,
    webhookSecret: null,
    seed: 3,
    pullCount: 1,
    speed: 0.001,
    deliverOnStart: false,
  });
  receiver = `${sandbox.url}/_sandbox/receiver`;
});
afterAll(async () => {
  await sandbox?.close();
});

function deliver(id: string, body: string, secret = SECRET) {
  const timestamp = new Date();
  const signature = new Webhook(secret).sign(id, timestamp, body);
  return fetch(receiver, {
    method: "POST",
    headers: {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
      "webhook-signature": signature,
    },
    body,
  });
}

describe("the sandbox's webhook receiver", () => {
  it("refuses a secret that is not a whsec_ secret", async () => {
    const answer = await fetch(`${receiver}/secret`, { method: "PUT", body: JSON.stringify({ secret: "hunter2" }) });
    expect(answer.status).toBe(400);
  });

  it("takes signed deliveries, refuses a forged one, and makes every fifth message's first attempt fail", async () => {
    expect(
      (await fetch(`${receiver}/secret`, { method: "PUT", body: JSON.stringify({ secret: SECRET }) })).status,
    ).toBe(200);
    const forged = await deliver(
      "msg_forged",
      '{"type":"pull.created"}',
      `whsec_${Buffer.alloc(32, 9).toString("base64")}`,
    );
    expect(forged.status).toBe(401);
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++) statuses.push((await deliver(`msg_${i}`, `{"type":"pull.created","n":${i}}`)).status);
    expect(statuses).toEqual([204, 204, 204, 204, 503]);
    expect((await deliver("msg_5", '{"type":"pull.created","n":5}')).status).toBe(204);
    const seen = (await (await fetch(receiver)).json()) as { received: Array<{ id: string; verified: boolean }> };
    expect(seen.received.map((r) => r.id)).toEqual(["msg_5", "msg_4", "msg_3", "msg_2", "msg_1"]);
    expect(seen.received.every((r) => r.verified)).toBe(true);
  });
});
