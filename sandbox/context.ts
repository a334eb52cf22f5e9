import type { IncomingMessage, ServerResponse } from "node:http";
import type { SandboxPull } from "./data/pulls";
import type { WebhookRegistry } from "./webhook-registry";
import type { DeliveryQueue } from "./webhooks";

// What every route module of the sandbox shares: its options, its mutable state, a clock that
// the control API can move forward, and the webhook queue.

export type SandboxOptions = {
  port: number;
  /** The storage server's port, where download links are signed (0 or unset: any free port). */
  storagePort?: number;
  host?: string;
  clientId: string;
  clientSecret: string;
  teamId: string;
  /**
   * The webhook the team set up on the service's dashboard: a registration of its own, signed
   * with `webhookSecret` (a random secret when null), for `webhookEventTypes` (every type,
   * the dashboard-only ones included, when unset). Null: no such webhook.
   */
  webhookUrl: string | null;
  webhookSecret: string | null;
  webhookEventTypes?: readonly string[];
  signatureHeader?: string;
  seed: number;
  pullCount?: number;
  /** The day the seeded data is relative to (tests pin it); today by default. */
  now?: Date;
  /** Scales every wait (webhook retries, link progress): 1 is real time. */
  speed: number;
  deliverOnStart: boolean;
  deliveryTimeoutMs?: number;
  log?: (line: string) => void;
  /** Plan-gated features (policy check, policy search, enrichment); all included unless set false. */
  plan?: { policyCheck?: boolean; policySearch?: boolean; enrichment?: boolean; whitelabel?: boolean };
  /** The team's rate limit from the start (SANDBOX_RATE_LIMIT); none unless set. */
  rateLimit?: RateLimit | null;
};

/** `duplicateRate` and `reorder` act on webhook delivery (the service promises neither order nor once-only). */
export type Faults = {
  errorRate: number;
  timeoutRate: number;
  latencyMs: number;
  duplicateRate: number;
  reorder: boolean;
};
export const NO_FAULTS: Faults = { errorRate: 0, timeoutRate: 0, latencyMs: 0, duplicateRate: 0, reorder: false };

export type SandboxState = {
  pulls: Map<string, SandboxPull>;
  /** Pulls injected through the control API (`POST /_sandbox/pulls`): served as given. */
  givenPullIds: Set<string>;
  faults: Faults;
  /** Pull fetches (GET …/pulls/{id}) held by the latency fault right now: a test can wait until a worker is mid-fetch. */
  delayedPullFetches: number;
  /** The rate limit on team routes (rate-limit.ts) and what it has counted. */
  rateLimit: RateLimitState;
};

/** Real time plus whatever the control API has added; monitoring schedules read it. */
export type Clock = { now: () => Date; advance: (ms: number) => void; offsetMs: () => number };

export function createClock(): Clock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance: (ms) => {
      offset += ms;
    },
    offsetMs: () => offset,
  };
}

export type SandboxContext = {
  options: SandboxOptions;
  state: SandboxState;
  clock: Clock;
  deliveries: DeliveryQueue;
  /** The team's webhook registrations, through the API and on the dashboard. */
  webhooks: WebhookRegistry;
  log: (line: string) => void;
  /** `http://host:port`, known once the server listens. */
  origin: () => string;
  /** The storage server's `http://host:port`, where download links point. */
  storageOrigin: () => string;
  /** The pull as the service serves it: download URLs absolute on this server, no `account_identifier`. */
  served: (pull: SandboxPull) => Record<string, unknown>;
  /** A webhook body with the common fields of service-notes ("Webhooks"). */
  webhookBody: (pull: SandboxPull, eventType: string, data: Record<string, unknown>) => Record<string, unknown>;
};

/** A route module answers the request and returns true, or returns false to pass it on. */
export type RouteRequest = { req: IncomingMessage; res: ServerResponse; method: string; path: string; url: URL };
export type Routes = (ctx: SandboxContext, request: RouteRequest) => Promise<boolean>;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** zod issues as one line for the `message` of a 400 answer. */
export function describeIssues(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  return issues.map((i) => `${i.path.map(String).join(".") || "body"}: ${i.message}`).join("; ");
}

/** The rate limit on team routes (rate-limit.ts applies it), here with the state it is part of. */
export type RateLimit = {
  /** Requests a minute (a fixed window from its first request); null: every request is refused while on. */
  requestsPerMinute: number | null;
  /** The Retry-After of every 429; null: the rest of the window (60 s when every request is refused). */
  retryAfterSeconds: number | null;
  /** How Retry-After is written: delta-seconds, an HTTP-date, or left out (the client backs off on its own). */
  retryAfterForm: "seconds" | "date" | "none";
};

export type RateLimitState = {
  limit: RateLimit | null;
  windowStartedAt: number;
  windowRequests: number;
  /** 429s answered. */
  refused: number;
  /**
   * Team requests that came before the Retry-After of an earlier 429 had passed: a client that
   * did not wait. Requests sent side by side count too once one of them was refused (the
   * sandbox cannot tell when each was sent), so a test that asserts none sends one at a time.
   */
  early: number;
  /** The latest time a 429 told the team to come back at (epoch ms). */
  notBefore: number;
};
