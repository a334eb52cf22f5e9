import "server-only";
// What this process last saw of the data-link service: did its last call get an answer?
// Written by the client on every attempt (network errors, timeouts and 5xx count as the
// service not answering; any other status as answering), read by the signed-in layout to say
// that pages show stored data. In memory, per process, on globalThis: Next.js may load this
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
};

/** How long after the last failed call the service still counts as unreachable, unless a later call succeeded. */
export const UNREACHABLE_NOTICE_MS = 10 * 60_000;

const EMPTY: ServiceHealth = {
  lastOutcome: null,
  lastCallAt: null,
  lastFailureAt: null,
  lastFailure: null,
  failuresInARow: 0,
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
    lastOutcome: "unreachable",
    lastCallAt: at,
    lastFailureAt: at,
    lastFailure: reason,
    failuresInARow: previous.failuresInARow + 1,
  };
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
