import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Sandbox } from "./server";

// Test support for the flow and monitoring suites: a local webhook receiver that records
// every delivery in arrival order, and small HTTP helpers for the sandbox.

export type Hook = {
  event_type: string;
  pull_id: string;
  status: string;
  is_monitored: boolean;
  monitoring?: { initial_pull_id: string; monitoring_id: string };
  account_identifier: string | null;
  meta_data: unknown;
  data: Record<string, unknown>;
};

export type Receiver = {
  url: string;
  hooks: Hook[];
  forPull: (pullId: string) => Hook[];
  /** Resolves once `done` holds for the hooks received so far; fails after `ms`. */
  waitFor: (done: (hooks: Hook[]) => boolean, ms?: number) => Promise<Hook[]>;
  /** The pull's hooks once its last expected event has arrived. */
  waitForEvent: (pullId: string, eventType: string, count?: number) => Promise<Hook[]>;
  close: () => Promise<void>;
};

export async function startReceiver(): Promise<Receiver> {
  const hooks: Hook[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      hooks.push(JSON.parse(body) as Hook);
      res.writeHead(200).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const forPull = (pullId: string) => hooks.filter((h) => h.pull_id === pullId);
  const waitFor = async (done: (hooks: Hook[]) => boolean, ms = 5000) => {
    const until = Date.now() + ms;
    while (!done(hooks)) {
      if (Date.now() > until)
        throw new Error(
          `timed out waiting for webhooks; got ${hooks.map((h) => `${h.event_type}:${h.pull_id.slice(0, 8)}`).join(", ")}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return hooks;
  };
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    hooks,
    forPull,
    waitFor,
    waitForEvent: async (pullId, eventType, count = 1) => {
      await waitFor(() => forPull(pullId).filter((h) => h.event_type === eventType).length >= count);
      await new Promise((resolve) => setTimeout(resolve, 20)); // let stragglers (duplicates, late events) land
      return forPull(pullId);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export const TEAM = "5f0c3c55-6d2a-4c8e-9a55-2d8f1b7c9e01";
export const BASIC = `Basic ${Buffer.from("id:secret").toString("base64")}`;

let seeds = 11;
/** Each sandbox gets its own seed, so two in one suite never issue the same pull ids. */
export function sandboxOptions(webhookUrl: string, speed = 0.0001) {
  return {
    port: 0,
    clientId: "id",
    clientSecret: "secret",
    teamId: TEAM,
    webhookUrl,
    webhookSecret: null,
    seed: seeds++,
    speed,
    deliverOnStart: false,
  };
}

export type Answer = { status: number; body: Record<string, unknown> };

/** A call to the sandbox: JSON in, status and JSON out; Basic auth unless headers say otherwise. */
export async function call(
  sandbox: Sandbox,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = { authorization: BASIC },
): Promise<Answer> {
  const response = await fetch(path.startsWith("/_sandbox") ? `${sandbox.url}${path}` : `${sandbox.baseUrl}${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** Links a scenario account through the control API; answers its pull id and pull_jwt. */
export async function link(
  sandbox: Sandbox,
  username: string,
  password?: string,
): Promise<{ pullId: string; jwt: string }> {
  const answer = await call(sandbox, "POST", "/_sandbox/links", {
    username,
    ...(password === undefined ? {} : { password }),
  });
  if (answer.status !== 200) throw new Error(`link failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return { pullId: String(answer.body.pull_id), jwt: String(answer.body.pull_jwt) };
}

export const types = (hooks: Hook[]) => hooks.map((h) => h.event_type);
