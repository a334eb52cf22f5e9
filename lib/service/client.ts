import "server-only";
import { isRetryableStatus, RATE_LIMITED, ServiceError } from "./errors";
import { MAX_FILE_ANSWER_BYTES, MAX_JSON_ANSWER_BYTES, readCappedBytes, readCappedJson } from "./read-body";
import { rateLimitedUntil, recordServiceAnswered, recordServiceRateLimited, recordServiceUnreachable } from "./health";

// The HTTP client for the data-link service. It holds the server's credentials, so it must
// only ever run on the server; it is free of `server-only` so the sandbox's contract tests and
// benchmarks can drive it directly.

export type ServiceConfig = {
  baseUrl: string; // ends in /v1.0.0
  teamId: string | null;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
  /** Attempts for idempotent calls, the first included. */
  maxAttempts?: number;
  /** Base of the exponential backoff between attempts. */
  retryBaseMs?: number;
  /**
   * The longest one call may spend waiting between its attempts, in total (Retry-After and
   * backoff alike). A longer wait ends the call with its error and when to try again: a person
   * waiting on a page must not wait for minutes. 10 s unless said otherwise.
   */
  maxWaitMs?: number;
  fetch?: typeof fetch;
  /** The largest JSON answer read (MAX_JSON_ANSWER_BYTES unless said otherwise); files get MAX_FILE_ANSWER_BYTES. */
  maxAnswerBytes?: number;
};

/**
 * How a call proves who it is: team calls use HTTP Basic with the client id and secret; the
 * whitelabel follow-ups (connect, idvoptions, idv) a `pull-jwt` header and nothing else; the
 * reconnect-token exchange the `x-service-client-*` headers (sent with Basic as well, which
 * the service's reference uses); tos, carriers and health nothing.
 */
export type ServiceAuth =
  { kind: "basic" } | { kind: "pull-jwt"; token: string } | { kind: "client-headers" } | { kind: "none" };

export type RequestOptions = {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string; // relative to the base, e.g. "/pulls/<id>"
  /** Team-scoped routes get `/teams/{teamId}` in front when a team id is configured. */
  teamScoped: boolean;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Only idempotent calls are retried. */
  idempotent: boolean;
  /** Basic unless said otherwise. */
  auth?: ServiceAuth;
  signal?: AbortSignal;
  /** A successful answer is a file (a PDF report): read as bytes. Error answers are JSON still. */
  binary?: boolean;
};

export type ServiceResponse = { status: number; body: unknown; headers: Headers };

/** Waits `ms`, or until the caller gives up on the call (a browser that went away). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

const DEFAULT_MAX_WAIT_MS = 10_000;

/** Full jitter: a random wait up to base·2^attempt, capped, so retrying instances spread out. */
export function backoffDelay(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(30_000, baseMs * 2 ** attempt);
  return Math.round(random() * ceiling);
}

/**
 * A `Retry-After` header as a wait from `now`: delta-seconds ("120") or an HTTP-date; null when
 * absent or unreadable (the caller then backs off on its own). A date in the past is no wait.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date names its day and month ("Sun, 06 Nov 1994 08:49:37 GMT"); Date.parse alone would take "-5".
  const at = /[a-z]/i.test(text) ? Date.parse(text) : NaN;
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export function buildUrl(
  config: Pick<ServiceConfig, "baseUrl" | "teamId">,
  options: Pick<RequestOptions, "path" | "teamScoped" | "query">,
): string {
  const prefix = options.teamScoped && config.teamId ? `/teams/${encodeURIComponent(config.teamId)}` : "";
  const url = new URL(`${config.baseUrl}${prefix}${options.path}`);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  return url.toString();
}

function authHeaders(config: ServiceConfig, auth: ServiceAuth): Record<string, string> {
  const basic = () => `Basic ${Buffer.from(`${config.clientId}:${config.clientSecret}`).toString("base64")}`;
  switch (auth.kind) {
    case "basic":
      return { authorization: basic() };
    case "client-headers":
      return {
        authorization: basic(),
        "x-service-client-id": config.clientId,
        "x-service-client-secret": config.clientSecret,
      };
    case "pull-jwt":
      return { "pull-jwt": auth.token };
    case "none":
      return {};
  }
}

function errorCode(body: unknown): { code: string | null; message: string | null } {
  if (body && typeof body === "object") {
    const record = body as Record<string, unknown>;
    return {
      code: typeof record.error === "string" ? record.error : null,
      message: typeof record.message === "string" ? record.message : null,
    };
  }
  return { code: null, message: null };
}

/**
 * A 429 (`answered`: the service's own code), or a call not sent because the limit a 429 set
 * lasts longer than the call may wait: to callers both are RATE_LIMITED, with when to try again.
 */
function rateLimitedError(
  label: string,
  retryAfterMs: number | null,
  answered: { code: string | null } | null,
): ServiceError {
  const after = retryAfterMs === null ? "" : ` (retry after ${Math.ceil(retryAfterMs / 1000)} s)`;
  return new ServiceError({
    status: 429,
    code: RATE_LIMITED,
    message: answered
      ? `${label}: 429 ${answered.code ?? RATE_LIMITED}${after}`
      : `${label}: not sent, the service is limiting requests${after}`,
    retryable: true,
    retryAfterMs,
  });
}

export async function serviceRequest(config: ServiceConfig, options: RequestOptions): Promise<ServiceResponse> {
  const doFetch = config.fetch ?? fetch;
  const url = buildUrl(config, options);
  const maxAttempts = options.idempotent ? (config.maxAttempts ?? 3) : 1;
  const maxWaitMs = config.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const credentials = authHeaders(config, options.auth ?? { kind: "basic" });
  // Logged and thrown messages name the route, never the credentials.
  const label = `${options.method} ${options.path}`;

  let lastError: ServiceError | undefined;
  let waitedMs = 0;
  /** The wait before the next attempt: the service's Retry-After when it sent one, else backoff. */
  let nextWaitMs = 0;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    // While the service limits requests (this call's 429 or any other's in this process), nothing
    // is sent before the time it gave: a request sent earlier only prolongs the limit.
    const limitedMs = Math.max(0, (rateLimitedUntil()?.getTime() ?? 0) - Date.now());
    const waitMs = Math.max(attempt > 0 ? nextWaitMs : 0, limitedMs);
    if (waitMs > 0) {
      if (waitedMs + waitMs > maxWaitMs) {
        if (limitedMs > 0 && limitedMs >= waitMs) throw rateLimitedError(label, limitedMs, null);
        break;
      }
      await sleep(waitMs, options.signal);
      waitedMs += waitMs;
    }
    const signal = options.signal
      ? AbortSignal.any([options.signal, AbortSignal.timeout(config.timeoutMs)])
      : AbortSignal.timeout(config.timeoutMs);
    let response: Response;
    try {
      response = await doFetch(url, {
        method: options.method,
        headers: {
          ...credentials,
          accept: "application/json",
          ...(options.body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        redirect: "manual",
        signal,
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      lastError = new ServiceError({
        status: 0,
        code: timedOut ? "TIMEOUT" : "NETWORK_ERROR",
        message: timedOut
          ? `${label}: no answer within ${config.timeoutMs} ms`
          : `${label}: the service could not be reached`,
        retryable: true,
      });
      recordServiceUnreachable(lastError.message);
      nextWaitMs = backoffDelay(attempt, config.retryBaseMs ?? 250);
      continue;
    }
    // Any answer below 500 (a 404 or a 429 included) means the service is up and talking.
    if (response.status >= 500) recordServiceUnreachable(`${label}: ${response.status}`);
    else recordServiceAnswered();
    const body =
      options.binary && response.status < 400
        ? await readCappedBytes(response, MAX_FILE_ANSWER_BYTES, label)
        : await readCappedJson(response, config.maxAnswerBytes ?? MAX_JSON_ANSWER_BYTES, label);
    if (response.status < 400) return { status: response.status, body, headers: response.headers };

    const { code, message } = errorCode(body);
    // Retry-After is honoured where the service sends it with a refusal to come back later.
    const retryAfterMs =
      response.status === 429 || response.status === 503 ? parseRetryAfter(response.headers.get("retry-after")) : null;
    nextWaitMs = retryAfterMs ?? backoffDelay(attempt, config.retryBaseMs ?? 250);
    if (response.status === 429) {
      recordServiceRateLimited(new Date(Date.now() + nextWaitMs));
      lastError = rateLimitedError(label, retryAfterMs, { code });
      continue;
    }
    lastError = new ServiceError({
      status: response.status,
      code: code ?? `HTTP_${response.status}`,
      message: `${label}: ${response.status} ${code ?? ""}${message ? ` (${message})` : ""}`.trim(),
      retryable: isRetryableStatus(response.status),
      retryAfterMs,
    });
    if (!lastError.retryable) throw lastError;
  }
  throw (
    lastError ?? new ServiceError({ status: 0, code: "NETWORK_ERROR", message: `${label}: failed`, retryable: true })
  );
}
