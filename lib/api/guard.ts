import "server-only";
import type { z } from "zod";
import type { Db } from "@/db/types";
import { recordAudit } from "@/lib/audit/audit-log";
import type { Actor } from "@/lib/core/actor";
import { getDb } from "@/lib/database";
import { hitRateLimit } from "@/lib/security/rate-limit";
import { apiError, invalidInput, toResponse, type ApiAnswer } from "./errors";
import { claimIdempotencyKey, releaseIdempotencyKey, requestHash, saveIdempotentAnswer } from "./idempotency";
import { apiKeyActor, authenticateApiKey, touchApiKey, type AuthenticatedKey } from "./keys";
import type { ApiScope } from "./scopes";

// The one way into a route of the public API (app/api/v1/**/route.ts), as withUser is for the
// app's own routes:
//
//   export const GET = withApiKey({ scope: "pulls:read", route: "GET /api/v1/pulls", query: schema }, async ({ actor, query, db }) => …);
//
// In order: the key (`Authorization: Bearer cdk_…`: 401 when missing, unknown or revoked), its
// rate limit (429 with Retry-After), the route's scope (403), the path, query and body, each
// parsed by the same zod schema the OpenAPI document is written from (400 naming the field),
// and for POST and PATCH an Idempotency-Key (a retry gets the first answer again). Only then the
// handler, which acts as the key's actor through the pages' own commands and permission rules.
// Every call past the key check is audited under the key's name (API_CALLED), reads included:
// reading a pull is reading a consumer's data.

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const REPLAY_HEADER = "Idempotent-Replayed";

export type ApiContext<P, Q, B> = {
  request: Request;
  db: Db;
  actor: Actor;
  key: AuthenticatedKey;
  params: P;
  query: Q;
  body: B;
};

/** A handler's answer, and what the audit entry of the call should name. */
export type ApiResult = ApiAnswer & {
  audit?: { pullId?: string; details?: Record<string, unknown> };
  /** The answer kept for an Idempotency-Key retry when it must differ from this one (a secret shown once is not kept). */
  replay?: ApiAnswer;
};

export type ApiRouteOptions<P, Q, B> = {
  scope: ApiScope;
  /** The route as the audit trail names it: "PATCH /api/v1/pulls/{pull_id}". */
  route: string;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** The pull a call is about, from its parsed path: its audit entry names it, refusals and replays included. */
  pullIdOf?: (params: P) => string;
};

type NextRouteContext = { params: Promise<unknown> };

const bearer = (request: Request): string | null => {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
};

/** Query parameters as an object of their first values (a repeated parameter counts once). */
function queryOf(request: Request): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of new URL(request.url).searchParams) if (!(name in query)) query[name] = value;
  return query;
}

const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function withApiKey<P = Record<string, never>, Q = Record<string, never>, B = undefined>(
  options: ApiRouteOptions<P, Q, B>,
  handler: (context: ApiContext<P, Q, B>) => Promise<ApiResult>,
): (request: Request, context?: NextRouteContext) => Promise<Response> {
  return async (request, context) => {
    const db = await getDb();
    const presented = bearer(request);
    const key = presented ? await authenticateApiKey(db, presented) : null;
    if (!key)
      return toResponse(
        apiError(
          "UNAUTHORIZED",
          presented ? "This API key is unknown or revoked." : "Send an API key: Authorization: Bearer <key>.",
        ),
        { "www-authenticate": 'Bearer realm="coverdesk"' },
      );
    const limit = await hitRateLimit(db, `api-key:${key.id}`, { limit: key.rateLimitPerMinute, windowSeconds: 60 });
    // Refused calls past the limit are not audited one by one: a runaway client would flood the trail.
    if (!limit.allowed)
      return toResponse(
        apiError("RATE_LIMITED", `This key may make ${key.rateLimitPerMinute} calls a minute. Try again shortly.`),
        { "retry-after": String(limit.retryAfterSeconds) },
      );
    await touchApiKey(db, key.id);
    const actor = apiKeyActor(key);
    const method = request.method.toUpperCase();
    let aboutPull: string | null = null;
    const audited = async (result: ApiResult, replayed = false): Promise<Response> => {
      await recordAudit(db, actor, "API_CALLED", {
        pullId: result.audit?.pullId ?? aboutPull,
        details: {
          method,
          route: options.route,
          status: result.status,
          ...(replayed ? { replayed: true } : {}),
          ...result.audit?.details,
        },
      });
      return toResponse(result, replayed ? { [REPLAY_HEADER.toLowerCase()]: "true" } : {});
    };

    if (!key.scopes.includes(options.scope))
      return audited(apiError("FORBIDDEN", `This API key lacks the scope ${options.scope}.`));

    let params = {} as P;
    if (options.params) {
      const parsed = options.params.safeParse(await context?.params);
      // A malformed id names nothing: answered like a missing pull.
      if (!parsed.success) return audited(apiError("NOT_FOUND", "That linked account does not exist."));
      params = parsed.data;
      aboutPull = options.pullIdOf?.(params) ?? null;
    }
    let query = {} as Q;
    if (options.query) {
      const parsed = options.query.safeParse(queryOf(request));
      if (!parsed.success) return audited(invalidInput(parsed.error));
      query = parsed.data;
    }
    const text = method === "GET" || method === "HEAD" ? "" : await request.text();
    let body = undefined as B;
    if (options.body) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return audited(apiError("INVALID", "The body must be a JSON object.", "body"));
      }
      const parsed = options.body.safeParse(json);
      if (!parsed.success) return audited(invalidInput(parsed.error, "body"));
      body = parsed.data;
    }

    const idempotencyKey = method === "POST" || method === "PATCH" ? request.headers.get(IDEMPOTENCY_HEADER) : null;
    if (idempotencyKey !== null) {
      if (!IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey))
        return audited(
          apiError("INVALID", "Idempotency-Key must be 1 to 255 visible ASCII characters.", IDEMPOTENCY_HEADER),
        );
      const claim = await claimIdempotencyKey(
        db,
        key.id,
        idempotencyKey,
        requestHash(method, new URL(request.url).pathname, text),
      );
      if (claim.kind === "mismatch")
        return audited(
          apiError(
            "IDEMPOTENCY_MISMATCH",
            "This Idempotency-Key was used with another request. Use a new key for a new request.",
            IDEMPOTENCY_HEADER,
          ),
        );
      if (claim.kind === "in-progress")
        return audited(
          apiError(
            "CONFLICT",
            "A request with this Idempotency-Key is still being answered. Retry shortly.",
            IDEMPOTENCY_HEADER,
          ),
        );
      if (claim.kind === "replay") return audited(claim.answer, true);
    }

    let result: ApiResult;
    try {
      result = await handler({ request, db, actor, key, params, query, body });
    } catch (error) {
      if (idempotencyKey !== null) await releaseIdempotencyKey(db, key.id, idempotencyKey);
      console.error(`${options.route} failed:`, error instanceof Error ? error.message : error);
      return audited(apiError("INTERNAL", "Something went wrong on our side. Try again."));
    }
    // A failure on our side or upstream (5xx) is not kept: a retry with the same key tries again.
    if (idempotencyKey !== null) {
      if (result.status >= 500) await releaseIdempotencyKey(db, key.id, idempotencyKey);
      else await saveIdempotentAnswer(db, key.id, idempotencyKey, result.replay ?? result);
    }
    return audited(result);
  };
}
