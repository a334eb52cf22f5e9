// One error type for every failed call to the service: the HTTP status (0 when no answer came)
// and the service's own error code, so callers can decide between retry, give up and tell.
export class ServiceError extends Error {
  readonly status: number;
  readonly code: string;
  readonly retryable: boolean;
  /**
   * How long the service asked us to wait (its `Retry-After`, from when this error was thrown),
   * so a caller can schedule the next try instead of sleeping; null when it did not say.
   */
  readonly retryAfterMs: number | null;

  constructor(params: {
    status: number;
    code: string;
    message: string;
    retryable: boolean;
    retryAfterMs?: number | null;
  }) {
    super(params.message);
    this.name = "ServiceError";
    this.status = params.status;
    this.code = params.code;
    this.retryable = params.retryable;
    this.retryAfterMs = params.retryAfterMs ?? null;
  }

  /** The service says the thing does not exist (it answers 400 NOT_FOUND for unknown pulls). */
  get isNotFound(): boolean {
    return this.code === "NOT_FOUND" || this.status === 404;
  }
}

/** The code of every 429, whatever the body said: the service is limiting how often Coverdesk calls. */
export const RATE_LIMITED = "RATE_LIMITED";

export function isRetryableStatus(status: number): boolean {
  return status === 0 || status === 408 || status === 429 || status >= 500;
}

export function isRateLimited(error: unknown): error is ServiceError {
  return error instanceof ServiceError && error.code === RATE_LIMITED;
}

/** "40 s", "3 min", "2 h": a wait as a person reads it, rounded up. */
function roughly(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 90 ? `${minutes} min` : `${Math.ceil(minutes / 60)} h`;
}

/**
 * What a person waiting on a page is told when the service limits requests; null for any other
 * failure. Every place that puts a service failure into words asks this first, so the wording
 * and the wait shown are the same on every page.
 */
export function rateLimitedMessage(error: unknown): string | null {
  if (!isRateLimited(error)) return null;
  return error.retryAfterMs === null
    ? "The service is limiting requests; try again in a minute."
    : `The service is limiting requests; try again in ${roughly(error.retryAfterMs)}.`;
}
