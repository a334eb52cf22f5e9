// When a failed event is tried again: exponential backoff with jitter, then parked as failed.
export const MAX_EVENT_ATTEMPTS = 8;
const BASE_DELAY_MS = 2_000;
const MAX_DELAY_MS = 15 * 60_000;
/** A Retry-After longer than this is taken as this: an event is never put off for days by one answer. */
const MAX_RATE_LIMIT_WAIT_MS = 6 * 60 * 60_000;

export function nextRetryDelayMs(attempts: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}

/**
 * How long the inbox waits after the service refused with 429: as its Retry-After says, or,
 * when it gave no time, the same backoff with jitter, growing with each limited cycle in a row.
 * A 429 is never an attempt: it says nothing about the event.
 */
export function rateLimitDelayMs(
  retryAfterMs: number | null,
  limitedInARow: number,
  random: () => number = Math.random,
): number {
  return retryAfterMs !== null
    ? Math.min(retryAfterMs, MAX_RATE_LIMIT_WAIT_MS)
    : nextRetryDelayMs(limitedInARow, random);
}
