import "server-only";
import { isRetryableStatus, ServiceError } from "./errors";
import { recordServiceAnswered, recordServiceUnreachable } from "./health";

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
  fetch?: typeof fetch;
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Full jitter: a random wait up to base·2^attempt, capped, so retrying instances spread out. */
export function backoffDelay(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(30_000, baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
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

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
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

export async function serviceRequest(config: ServiceConfig, options: RequestOptions): Promise<ServiceResponse> {
  const doFetch = config.fetch ?? fetch;
  const url = buildUrl(config, options);
  const maxAttempts = options.idempotent ? (config.maxAttempts ?? 3) : 1;
  const credentials = authHeaders(config, options.auth ?? { kind: "basic" });
  // Logged and thrown messages name the route, never the credentials.
  const label = `${options.method} ${options.path}`;

  let lastError: ServiceError | undefined;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    if (attempt > 0) await sleep(backoffDelay(attempt - 1, config.retryBaseMs ?? 250));
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
      continue;
    }
    // Any answer below 500 (a 404 or a 429 included) means the service is up and talking.
    if (response.status >= 500) recordServiceUnreachable(`${label}: ${response.status}`);
    else recordServiceAnswered();
    const body =
      options.binary && response.status < 400 ? Buffer.from(await response.arrayBuffer()) : await readBody(response);
    if (response.status < 400) return { status: response.status, body, headers: response.headers };

    const { code, message } = errorCode(body);
    lastError = new ServiceError({
      status: response.status,
      code: code ?? `HTTP_${response.status}`,
      message: `${label}: ${response.status} ${code ?? ""}${message ? ` (${message})` : ""}`.trim(),
      retryable: isRetryableStatus(response.status),
    });
    if (!lastError.retryable) throw lastError;
  }
  throw (
    lastError ?? new ServiceError({ status: 0, code: "NETWORK_ERROR", message: `${label}: failed`, retryable: true })
  );
}
