import type { ServerResponse } from "node:http";
import { z } from "zod";
import { describeIssues, type RateLimit, type RateLimitState, type RouteRequest, type SandboxContext } from "./context";
import { fail, send } from "./http";

// The service's rate limit, on demand: it documents none, but answers 429 with a Retry-After
// when called too often, and a client that comes back sooner only stays refused. Off unless
// SANDBOX_RATE_LIMIT or the control API (POST /_sandbox/rate-limit) turns it on. Team routes
// only: the reference routes and the consumer's widget calls are not the team's budget.

export function initialRateLimitState(limit: RateLimit | null): RateLimitState {
  return { limit, windowStartedAt: 0, windowRequests: 0, refused: 0, early: 0, notBefore: 0 };
}

const MINUTE_MS = 60_000;

/** Answers 429 when the team is over its limit (and returns true); counts a client that did not wait. */
export function limitRate(ctx: SandboxContext, { res }: RouteRequest): boolean {
  const state = ctx.state.rateLimit;
  const now = Date.now();
  if (state.notBefore > now) state.early++;
  const limit = state.limit;
  if (!limit) return false;
  if (limit.requestsPerMinute !== null) {
    if (now - state.windowStartedAt >= MINUTE_MS) {
      state.windowStartedAt = now;
      state.windowRequests = 0;
    }
    if (state.windowRequests < limit.requestsPerMinute) {
      state.windowRequests++;
      return false;
    }
  }
  const retryAfterMs =
    limit.retryAfterSeconds !== null
      ? limit.retryAfterSeconds * 1000
      : limit.requestsPerMinute !== null
        ? state.windowStartedAt + MINUTE_MS - now
        : MINUTE_MS;
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  // An HTTP-date has whole seconds: the next whole second on or after the wait, never sooner.
  const until =
    limit.retryAfterForm === "date" ? Math.ceil((now + seconds * 1000) / 1000) * 1000 : now + seconds * 1000;
  const headers: Record<string, string> =
    limit.retryAfterForm === "none"
      ? {}
      : { "retry-after": limit.retryAfterForm === "date" ? new Date(until).toUTCString() : String(seconds) };
  if (limit.retryAfterForm !== "none") state.notBefore = Math.max(state.notBefore, until);
  state.refused++;
  send(res, 429, { error: "RATE_LIMITED" }, headers);
  return true;
}

const rateLimitSchema = z
  .strictObject({
    requestsPerMinute: z.number().int().min(1).max(1_000_000).optional(),
    retryAfterSeconds: z.number().int().min(1).max(86_400).optional(),
    retryAfterForm: z.enum(["seconds", "date", "none"]).optional(),
    off: z.literal(true).optional(),
  })
  .refine((body) => (body.off ? Object.keys(body).length === 1 : Object.keys(body).length > 0), {
    message: "send {off: true} alone, or at least one of requestsPerMinute, retryAfterSeconds, retryAfterForm",
  });

/**
 * POST /_sandbox/rate-limit: the limit as given (replacing the one before, with a new window),
 * or off. The counters and the Retry-After already given stand: lifting the limit does not
 * excuse a client that comes back before the time it was told. POST /_sandbox/reset clears them.
 */
export function rateLimitControl(ctx: SandboxContext, body: unknown, res: ServerResponse): true {
  const parsed = rateLimitSchema.safeParse(body);
  if (!parsed.success) return fail(res, 400, "INVALID_INPUT", describeIssues(parsed.error.issues));
  const { off, requestsPerMinute, retryAfterSeconds, retryAfterForm } = parsed.data;
  const state = ctx.state.rateLimit;
  state.limit = off
    ? null
    : {
        requestsPerMinute: requestsPerMinute ?? null,
        retryAfterSeconds: retryAfterSeconds ?? null,
        retryAfterForm: retryAfterForm ?? "seconds",
      };
  state.windowStartedAt = 0;
  state.windowRequests = 0;
  return send(res, 200, { rateLimit: rateLimitView(state) });
}

/** The limit and its counters, as GET /_sandbox/state shows them. */
export function rateLimitView(state: RateLimitState) {
  return { limit: state.limit, refused: state.refused, early: state.early };
}

/** SANDBOX_RATE_LIMIT: `60/min` (a per-minute limit), or `off`. */
export function parseRateLimitSetting(text: string): RateLimit | null | "invalid" {
  const value = text.trim().toLowerCase();
  if (value === "" || value === "off") return null;
  const match = /^(\d+)\s*\/\s*min$/.exec(value);
  const perMinute = match ? Number(match[1]) : NaN;
  if (!Number.isSafeInteger(perMinute) || perMinute < 1) return "invalid";
  return { requestsPerMinute: perMinute, retryAfterSeconds: null, retryAfterForm: "seconds" };
}
