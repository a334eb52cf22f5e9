import "server-only";
// What this process last saw of the data-link service: did its last call get an answer?
// Written by the client on every attempt (network errors, timeouts and 5xx count as the
// service not answering; any other status as answering), read by the signed-in layout to say
// that pages show stored data. It also keeps until when the service is limiting requests (a 429,
// or the inbox worker waiting one out): the client sends nothing before then, and the Events
// page says so. In memory, per process, on globalThis: Next.js may load this
// module in more than one bundle, and they must all share one record.

export type ServiceHealth = {
  /** Null until the first call of this process. */
  lastOutcome: "answered" | "unreachable" | null;
  lastCallAt: Date | null;
  lastFailureAt: Date | null;
  /** The route and reason of the last failure, never credentials (the client's own message). */
  lastFailure: string | null;
  /** Failed calls since the last answer. */
  failuresInARow: number;
  /** No call goes out before this (the service's Retry-After); null or past: not limited. */
  rateLimitedUntil: Date | null;
};

/** How long after the last failed call the service still counts as unreachable, unless a later call succeeded. */
export const UNREACHABLE_NOTICE_MS = 10 * 60_000;

const EMPTY: ServiceHealth = {
  lastOutcome: null,
  lastCallAt: null,
  lastFailureAt: null,
  lastFailure: null,
  failuresInARow: 0,
  rateLimitedUntil: null,
};
const store = globalThis as unknown as { __coverdeskServiceHealth?: ServiceHealth };

export function readServiceHealth(): ServiceHealth {
  return { ...(store.__coverdeskServiceHealth ?? EMPTY) };
}

export function recordServiceAnswered(at: Date = new Date()): void {
  store.__coverdeskServiceHealth = {
    ...readServiceHealth(),
    lastOutcome: "answered",
    lastCallAt: at,
    failuresInARow: 0,
  };
}

export function recordServiceUnreachable(reason: string, at: Date = new Date()): void {
  const previous = readServiceHealth();
  store.__coverdeskServiceHealth = {
    ...previous,
    lastOutcome: "unreachable",
    lastCallAt: at,
    lastFailureAt: at,
    lastFailure: reason,
    failuresInARow: previous.failuresInARow + 1,
  };
}

/** The service limits requests until `until`; a later limit already recorded is kept. */
export function recordServiceRateLimited(until: Date): void {
  const previous = readServiceHealth();
  if (previous.rateLimitedUntil && previous.rateLimitedUntil >= until) return;
  store.__coverdeskServiceHealth = { ...previous, rateLimitedUntil: until };
}

/** Until when calls wait for the service's rate limit, or null when they need not. */
export function rateLimitedUntil(health: ServiceHealth = readServiceHealth(), now: number = Date.now()): Date | null {
  return health.rateLimitedUntil && health.rateLimitedUntil.getTime() > now ? health.rateLimitedUntil : null;
}

/** True while the last call failed, and failed recently enough to still say so. */
export function isServiceUnreachable(health: ServiceHealth = readServiceHealth(), now: number = Date.now()): boolean {
  return (
    health.lastOutcome === "unreachable" &&
    health.lastFailureAt !== null &&
    now - health.lastFailureAt.getTime() <= UNREACHABLE_NOTICE_MS
  );
}

/** For tests: forget everything. */
export function resetServiceHealth(): void {
  store.__coverdeskServiceHealth = undefined;
}

/** What the signed-in layout's banner polls: whether the service is unreachable now, and since when it last failed. */
export function serviceHealthView(health: ServiceHealth = readServiceHealth()): {
  unreachable: boolean;
  lastFailureAt: string | null;
} {
  return { unreachable: isServiceUnreachable(health), lastFailureAt: health.lastFailureAt?.toISOString() ?? null };
}
