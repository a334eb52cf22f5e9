// Telling "the database could not be reached" apart from every other failure: a lost
// connection says nothing about the event being processed, so it must not count as one of
// the event's attempts, nor park it as failed; a constraint violation or a bug must.

/** postgres-js's own connection codes, and the socket errors Node raises under them. */
const CONNECTION_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);

/** SQLSTATEs of a server that is going away or not taking connections (class 08, 57P01–57P03). */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123])$/;

export function isDatabaseUnavailable(error: unknown): boolean {
  // Drizzle wraps the driver's error in `cause`; follow the chain a few links at most.
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
