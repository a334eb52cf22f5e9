import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { generatePulls, type SandboxPull } from "./data/pulls";
import { basicAuthOk, fail, readJson, send } from "./http";
import { DeliveryQueue } from "./webhooks";

// The stand-in for the data-link service: the same paths, envelopes, status codes and error
// bodies as the real one, seeded data, webhook delivery, and a control API for tests and demos.

export type SandboxOptions = {
  port: number;
  host?: string;
  clientId: string;
  clientSecret: string;
  teamId: string;
  webhookUrl: string | null;
  webhookSecret: string | null;
  signatureHeader?: string;
  seed: number;
  pullCount?: number;
  now?: Date;
  speed: number;
  deliverOnStart: boolean;
  deliveryTimeoutMs?: number;
  log?: (line: string) => void;
};

export type Faults = { errorRate: number; timeoutRate: number; latencyMs: number };

export type Sandbox = {
  url: string;
  baseUrl: string;
  state: { pulls: Map<string, SandboxPull>; faults: Faults };
  deliveries: DeliveryQueue;
  deliverComplete: (pullIds?: string[]) => number;
  close: () => Promise<void>;
};

const API_PREFIX = "/api/v1.0.0";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NO_FAULTS: Faults = { errorRate: 0, timeoutRate: 0, latencyMs: 0 };

const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  offset: z.coerce.number().int().min(0).default(0),
  since: z.iso.datetime({ offset: true }).optional(),
  before: z.iso.datetime({ offset: true }).optional(),
});
const faultsSchema = z.object({
  errorRate: z.number().min(0).max(1).optional(),
  timeoutRate: z.number().min(0).max(1).optional(),
  latencyMs: z.number().int().min(0).max(60_000).optional(),
});
const deliverSchema = z.object({ pull_ids: z.array(z.string().regex(UUID)).optional() });

function todayUtc(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const log = options.log ?? (() => {});
  const now = options.now ?? todayUtc();
  const seeded = () =>
    new Map<string, SandboxPull>(generatePulls(options.seed, options.pullCount ?? 36, now).map((p) => [p.pull_id, { ...p, team_id: options.teamId }]));
  const state = { pulls: seeded(), faults: { ...NO_FAULTS } };
  const sockets = new Set<import("node:net").Socket>();
  let origin = "";

  const deliveries = new DeliveryQueue({
    url: options.webhookUrl,
    secret: options.webhookSecret,
    signatureHeader: options.signatureHeader ?? "canopy-signature",
    speed: options.speed,
    timeoutMs: options.deliveryTimeoutMs ?? 30_000,
    concurrency: 4,
    log,
  });

  /** The pull as the service serves it: download URLs absolute on this server. */
  function served(pull: SandboxPull): SandboxPull {
    const absolute = (u: unknown) => (typeof u === "string" && u.startsWith("/") ? `${origin}${API_PREFIX}${u}` : u);
    const documents = (pull.documents as Array<Record<string, unknown>>).map((d) => ({ ...d, download_url: absolute(d.download_url) }));
    const answers = (pull.answers as Array<{ fields: Array<Record<string, unknown>> }>).map((section) => ({
      ...section,
      fields: section.fields.map((f) => (Array.isArray(f.value) ? { ...f, value: (f.value as Array<Record<string, unknown>>).map((file) => ({ ...file, download_url: absolute(file.download_url) })) } : f)),
    }));
    return { ...pull, documents, answers };
  }

  function webhookBody(pull: SandboxPull, eventType: string, data: Record<string, unknown>) {
    return { widget_id: pull.widget_id, team_id: options.teamId, pull_id: pull.pull_id, status: pull.status, meta_data: pull.meta_data, event_type: eventType, account_identifier: pull.account_identifier, is_monitored: false, data };
  }

  function deliverComplete(pullIds?: string[]): number {
    const targets = pullIds
      ? pullIds.map((id) => state.pulls.get(id)).filter((p): p is SandboxPull => Boolean(p))
      : [...state.pulls.values()].filter((p) => p.status === "SUCCESS");
    let queued = 0;
    for (const pull of targets) {
      if (pull.parent_pull_id) continue; // child pulls fire no customer-facing webhooks
      if (pull.status === "PROVIDER_ERROR" || pull.status === "INTERNAL_ERROR") deliveries.enqueue(webhookBody(pull, "ERROR", { type: pull.status }));
      else deliveries.enqueue(webhookBody(pull, "COMPLETE", {}));
      queued++;
    }
    return queued;
  }

  async function injectFaults(res: ServerResponse): Promise<boolean> {
    const { errorRate, timeoutRate, latencyMs } = state.faults;
    if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));
    if (timeoutRate > 0 && Math.random() < timeoutRate) return true; // never answer; the client times out
    if (errorRate > 0 && Math.random() < errorRate) {
      fail(res, 500, "INTERNAL_ERROR");
      return true;
    }
    return false;
  }

  async function serviceRoute(req: IncomingMessage, res: ServerResponse, path: string, url: URL): Promise<void> {
    if (path === "/health") return send(res, 200, { ok: true });
    let rest = path;
    const team = /^\/teams\/([^/]+)(\/.*)$/.exec(path);
    if (team) {
      if (!basicAuthOk(req, options.clientId, options.clientSecret)) return fail(res, 401, "UNAUTHORIZED");
      if (team[1] !== options.teamId) return fail(res, 403, "FORBIDDEN");
      rest = team[2] ?? "";
    } else if (!basicAuthOk(req, options.clientId, options.clientSecret)) return fail(res, 401, "UNAUTHORIZED");

    if (rest === "/pulls") {
      if (req.method !== "GET") return fail(res, 405, "METHOD_NOT_ALLOWED");
      const query = listQuerySchema.safeParse(Object.fromEntries(url.searchParams));
      if (!query.success) return fail(res, 400, "INVALID_INPUT", query.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
      const { limit, offset, since, before } = query.data;
      const matching = [...state.pulls.values()]
        .filter((p) => (!since || p.created_at >= new Date(since).toISOString()) && (!before || p.created_at <= new Date(before).toISOString()))
        .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
      return send(res, 200, { total_pulls: matching.length, pulls: matching.slice(offset, offset + limit).map(served) });
    }
    const one = /^\/pulls\/([^/]+)$/.exec(rest);
    if (one) {
      if (req.method !== "GET") return fail(res, 405, "METHOD_NOT_ALLOWED");
      if (await injectFaults(res)) return;
      const pull = UUID.test(one[1] ?? "") ? state.pulls.get(one[1] ?? "") : undefined;
      if (!pull) return fail(res, 400, "NOT_FOUND"); // as the real service answers unknown ids
      return send(res, 200, { success: true, pull: served(pull) });
    }
    return fail(res, 404, "NOT_FOUND");
  }

  async function controlRoute(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (path === "/state" && req.method === "GET") {
      return send(res, 200, { pulls: state.pulls.size, deliveries: deliveries.counts, faults: state.faults });
    }
    if (req.method !== "POST") return fail(res, 405, "METHOD_NOT_ALLOWED");
    const body = await readJson(req);
    if (!body.ok) return fail(res, 400, "INVALID_INPUT", "The body is not valid JSON.");
    if (path === "/faults") {
      const parsed = faultsSchema.safeParse(body.value);
      if (!parsed.success) return fail(res, 400, "INVALID_INPUT", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
      state.faults = { ...state.faults, ...parsed.data };
      return send(res, 200, { faults: state.faults });
    }
    if (path === "/deliver") {
      const parsed = deliverSchema.safeParse(body.value);
      if (!parsed.success) return fail(res, 400, "INVALID_INPUT", "pull_ids must be a list of UUIDs");
      return send(res, 200, { queued: deliverComplete(parsed.data.pull_ids) });
    }
    if (path === "/reset") {
      state.pulls = seeded();
      state.faults = { ...NO_FAULTS };
      return send(res, 200, { reset: true });
    }
    return fail(res, 404, "NOT_FOUND");
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://sandbox");
    const route = url.pathname.startsWith(`${API_PREFIX}/`) || url.pathname === API_PREFIX
      ? serviceRoute(req, res, url.pathname.slice(API_PREFIX.length) || "/", url)
      : url.pathname.startsWith("/_sandbox/")
        ? controlRoute(req, res, url.pathname.slice("/_sandbox".length))
        : Promise.resolve(fail(res, 404, "NOT_FOUND"));
    route.catch((error: unknown) => {
      log(`internal error: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) fail(res, 500, "INTERNAL_ERROR");
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://${options.host ?? "127.0.0.1"}:${port}`;
  if (options.deliverOnStart) deliverComplete();

  return {
    url: origin,
    baseUrl: `${origin}${API_PREFIX}`,
    state,
    deliveries,
    deliverComplete,
    close: async () => {
      deliveries.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
