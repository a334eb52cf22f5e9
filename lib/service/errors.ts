// One error type for every failed call to the service: the HTTP status (0 when no answer came)
// and the service's own error code, so callers can decide between retry, give up and tell.
export class ServiceError extends Error {
  readonly status: number;
  readonly code: string;
  readonly retryable: boolean;

  constructor(params: { status: number; code: string; message: string; retryable: boolean }) {
    super(params.message);
    this.name = "ServiceError";
    this.status = params.status;
    this.code = params.code;
    this.retryable = params.retryable;
  }

  /** The service says the thing does not exist (it answers 400 NOT_FOUND for unknown pulls). */
  get isNotFound(): boolean {
    return this.code === "NOT_FOUND" || this.status === 404;
  }
}

export function isRetryableStatus(status: number): boolean {
  return status === 0 || status === 408 || status === 429 || status >= 500;
}
