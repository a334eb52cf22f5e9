import { createServer } from "node:http";
import { listen } from "./listen";
import {
  createClock,
  NO_FAULTS,
  type RouteRequest,
  type Routes,
  type SandboxContext,
  type SandboxOptions,
  type SandboxState,
} from "./context";
import { generatePulls, type SandboxPull } from "./data/pulls";
import { fail, send, teamAuthOk } from "./http";
import { controlRoutes } from "./routes/control";
import { downloadRoutes } from "./routes/downloads";
import { enrichmentRoutes } from "./routes/enrichment";
import { referenceRoutes } from "./routes/reference";
import { webhookRegistrationRoutes } from "./routes/webhook-registrations";
import { pullRoutes } from "./routes/pulls";
import { widgetRoutes } from "./routes/widget";
import { monitoringRoutes } from "./routes/monitorings";
import { TEAM_FAMILY_ROUTES, PUBLIC_FAMILY_ROUTES } from "./routes/families";
import { webhookMonitoring } from "./flows/monitorings";
import { startStorageServer } from "./storage-server";
import { DeliveryQueue } from "./webhooks";
import { initialRateLimitState, limitRate } from "./rate-limit";
import { ALL_EVENT_TYPES, createWebhookRegistry } from "./webhook-registry";

// The stand-in for the data-link service: the same paths, envelopes, status codes and error
// bodies as the real one, seeded data, webhook delivery, and a control API for tests and demos.
// Route modules live in routes/; this file authenticates, picks the module and injects faults.

export type { Faults, SandboxOptions } from "./context";

export type Sandbox = {
  url: string;
  baseUrl: string;
  /** The storage server's origin, where download links point. */
  storageUrl: string;
  state: SandboxState;
  context: SandboxContext;
  deliveries: DeliveryQueue;
  deliverComplete: (pullIds?: string[]) => number;
  close: () => Promise<void>;
};

const API_PREFIX = "/api/v1.0.0";

/** Routes with no team prefix and their own authentication (none, or a pull-jwt). */
const PUBLIC_ROUTES: Routes[] = [referenceRoutes, widgetRoutes, ...PUBLIC_FAMILY_ROUTES];
/** Team routes: Basic or x-canopy-client-* auth, served only under /teams/{teamId}, as the service does. */
const TEAM_ROUTES: Routes[] = [
  pullRoutes,
  downloadRoutes,
  enrichmentRoutes,
  webhookRegistrationRoutes,
  monitoringRoutes,
  ...TEAM_FAMILY_ROUTES,
];

function todayUtc(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const log = options.log ?? (() => {});
  const seededAt = options.now ?? todayUtc();
  const seeded = () =>
    new Map<string, SandboxPull>(
      generatePulls(options.seed, options.pullCount ?? 36, seededAt).map((p) => [
        p.pull_id,
        { ...p, team_id: options.teamId },
      ]),
    );
  const state: SandboxState = {
    pulls: seeded(),
    givenPullIds: new Set(),
    faults: { ...NO_FAULTS },
    delayedPullFetches: 0,
    rateLimit: initialRateLimitState(options.rateLimit ?? null),
  };
  let origin = "";
  let storageOrigin = "";

  const webhooks = createWebhookRegistry();
  if (options.webhookUrl)
    webhooks.add({
      url: options.webhookUrl,
      eventTypes: options.webhookEventTypes ?? ALL_EVENT_TYPES,
      secret: options.webhookSecret,
    });
  const deliveries = new DeliveryQueue({
    recipients: (eventType) => webhooks.recipients(eventType),
    signatureHeader: options.signatureHeader ?? "canopy-signature",
    speed: options.speed,
    timeoutMs: options.deliveryTimeoutMs ?? 30_000,
    concurrency: 4,
    log,
  });

  const context: SandboxContext = {
    options,
    state,
    clock: createClock(),
    deliveries,
    webhooks,
    log,
    origin: () => origin,
    storageOrigin: () => storageOrigin,
    served(pull) {
      // Relative download paths become absolute team routes on this server. Pulls injected
      // through the control API are served as given, so anything unexpected passes untouched.
      const absolute = (u: unknown) =>
        typeof u === "string" && u.startsWith("/") ? `${origin}${API_PREFIX}/teams/${options.teamId}${u}` : u;
      const isObject = (v: unknown): v is Record<string, unknown> =>
        Boolean(v) && typeof v === "object" && !Array.isArray(v);
      const objects = (value: unknown) => (Array.isArray(value) && value.every(isObject) ? value : null);
      const documents =
        objects(pull.documents)?.map((d) => ({ ...d, download_url: absolute(d.download_url) })) ?? pull.documents;
      const answers =
        objects(pull.answers)?.map((section) => {
          const fields = objects(section.fields);
          if (!fields) return section;
          return {
            ...section,
            fields: fields.map((f) => {
              const files = objects(f.value);
              return files
                ? { ...f, value: files.map((file) => ({ ...file, download_url: absolute(file.download_url) })) }
                : f;
            }),
          };
        }) ?? pull.answers;
      if (state.givenPullIds.has(pull.pull_id)) return { ...pull, documents, answers };
      // The service's published pulls carry no account_identifier: its webhooks do (webhookBody).
      const { account_identifier: _onWebhooksOnly, ...thin } = pull;
      return { ...thin, documents, answers };
    },
    webhookBody(pull, eventType, data) {
      // `monitoring` only on a monitored account's pulls (service-notes, "Webhooks").
      const monitoring = webhookMonitoring(context, pull.pull_id);
      return {
        widget_id: pull.widget_id,
        team_id: options.teamId,
        pull_id: pull.pull_id,
        status: pull.status,
        meta_data: pull.meta_data,
        event_type: eventType,
        account_identifier: pull.account_identifier,
        is_monitored: monitoring !== null,
        ...(monitoring ? { monitoring } : {}),
        data,
      };
    },
  };

  function deliverComplete(pullIds?: string[]): number {
    const targets = pullIds
      ? pullIds.map((id) => state.pulls.get(id)).filter((p): p is SandboxPull => Boolean(p))
      : [...state.pulls.values()].filter((p) => p.status === "SUCCESS");
    let queued = 0;
    for (const pull of targets) {
      if (pull.parent_pull_id) continue; // child pulls fire no customer-facing webhooks
      if (pull.status === "PROVIDER_ERROR" || pull.status === "INTERNAL_ERROR")
        deliveries.enqueue(context.webhookBody(pull, "ERROR", { type: pull.status }));
      else deliveries.enqueue(context.webhookBody(pull, "COMPLETE", {}));
      queued++;
    }
    return queued;
  }

  /** Latency, timeouts and 500s on demand, so the client's retries can be tested. */
  async function injectFaults(request: RouteRequest): Promise<boolean> {
    const { errorRate, timeoutRate, latencyMs } = state.faults;
    if (latencyMs > 0) {
      // Only a pull fetch counts: other calls (a health check, a link list) say nothing of the worker.
      const pullFetch = request.method === "GET" && /\/pulls\/[^/]+$/.test(request.path);
      if (pullFetch) state.delayedPullFetches++;
      // A client that goes away (a stopped app) ends the wait: nobody is left to answer.
      const clientLeft = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), latencyMs);
        request.res.once("close", () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      if (pullFetch) state.delayedPullFetches--;
      if (clientLeft) return true;
    }
    if (timeoutRate > 0 && Math.random() < timeoutRate) return true; // never answer; the client times out
    if (errorRate > 0 && Math.random() < errorRate) return fail(request.res, 500, "INTERNAL_ERROR");
    return false;
  }

  async function serviceRoute(request: RouteRequest): Promise<void> {
    const { req, res, path } = request;
    if (path === "/health") {
      // As published: 200 {healthy:true}, or 500 {healthy:false} while the sandbox is told to fail.
      if (request.method !== "GET") {
        fail(res, 405, "METHOD_NOT_ALLOWED");
        return;
      }
      if (state.faults.errorRate >= 1) send(res, 500, { healthy: false });
      else send(res, 200, { healthy: true });
      return;
    }
    for (const routes of PUBLIC_ROUTES) if (await routes(context, request)) return;

    const team = /^\/teams\/([^/]+)(\/.*)$/.exec(path);
    if (!teamAuthOk(req, options.clientId, options.clientSecret)) {
      fail(res, 401, "UNAUTHORIZED");
      return;
    }
    // Without the team id the service answers 404 on every team route (service-notes).
    if (!team) {
      fail(res, 404, "NOT_FOUND");
      return;
    }
    if (team[1] !== options.teamId) {
      fail(res, 403, "FORBIDDEN");
      return;
    }
    const teamPath = team[2] ?? "";
    if (limitRate(context, request)) return;
    if (await injectFaults(request)) return;
    for (const routes of TEAM_ROUTES) if (await routes(context, { ...request, path: teamPath })) return;
    fail(res, 404, "NOT_FOUND");
  }

  const hooks = {
    deliverComplete,
    reset: () => {
      state.pulls = seeded();
      state.givenPullIds.clear();
      state.rateLimit = initialRateLimitState(options.rateLimit ?? null);
    },
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://sandbox");
    const method = req.method ?? "GET";
    const request = (path: string): RouteRequest => ({ req, res, method, path, url });
    const route =
      url.pathname.startsWith(`${API_PREFIX}/`) || url.pathname === API_PREFIX
        ? serviceRoute(request(url.pathname.slice(API_PREFIX.length) || "/"))
        : url.pathname.startsWith("/_sandbox/")
          ? controlRoutes(context, hooks, request(url.pathname.slice("/_sandbox".length)))
          : Promise.resolve(fail(res, 404, "NOT_FOUND"));
    route.catch((error: unknown) => {
      log(`internal error: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) fail(res, 500, "INTERNAL_ERROR");
    });
  });
  const api = await listen(server, options.port, options.host ?? "127.0.0.1");
  origin = api.origin;
  const storage = await startStorageServer(context, {
    port: options.storagePort ?? 0,
    host: options.host ?? "127.0.0.1",
  }).catch(async (error: unknown) => {
    await api.close();
    throw error;
  });
  storageOrigin = storage.origin;
  if (options.deliverOnStart) deliverComplete();

  return {
    url: origin,
    baseUrl: `${origin}${API_PREFIX}`,
    storageUrl: storage.origin,
    state,
    context,
    deliveries,
    deliverComplete,
    close: async () => {
      deliveries.close();
      await Promise.all([api.close(), storage.close()]);
    },
  };
}
