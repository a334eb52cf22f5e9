import "server-only";
import type { z } from "zod";
import { getDb, rememberWrite } from "@/lib/database";
import type { Db } from "@/db/types";
import { can, type Action } from "./permissions";
import { getSessionUser, secondFactorMissing } from "./session";
import type { Actor } from "@/lib/core/actor";

// The one way into a route handler that needs a signed-in user (app/api/**/route.ts):
//
//   export const GET = withUser("reports:view", async ({ request, user, db }) => …);
//   export const GET = withUser("pulls:view", async ({ user, params, db }) => …, { params: schema });
//
// It parses the route's params (when a schema is given), resolves the user from the session,
// asks the permission table, and only then calls the handler. Signed out, not allowed and
// malformed params all get the same answer (404 unless the route names another), so a refusal
// tells nothing about what exists. Checks that depend on the row (is this pull theirs?) stay
// with the query, in lib/. Public routes (webhook receiver, health, reconnect status,
// next-auth) are not wrapped: each carries its own protection.

/**
 * An action of the permission table, or "signed-in" for anything any signed-in user may call, or
 * "enrolment" for setting up one's own second factor: the one thing a user who must have a
 * second factor and has none yet may do (every other permission refuses them until then).
 */
export type Permission = Action | "signed-in" | "enrolment";

export type RouteContext<P> = {
  request: Request;
  user: Actor;
  /** The route's params as the schema parsed them (an empty object without one). */
  params: P;
  db: Db;
};

/** What Next.js passes a route handler beside the request. */
type NextRouteContext = { params: Promise<unknown> };

export type RouteGuardOptions<P> = {
  /** Parses the route's dynamic segments; a mismatch is answered like a refusal. */
  params?: z.ZodType<P>;
  /** The refusal, when this route's callers expect another than `{ "error": "NOT_FOUND" }` with 404. */
  refused?: () => Response;
};

export const notFoundJson = (): Response => Response.json({ error: "NOT_FOUND" }, { status: 404 });

/**
 * Whether a user who may pass must still set up a second factor first: everything but enrolment
 * refuses them then (lib/auth/second-factor-requirement.ts).
 */
export async function heldForEnrolment(user: Actor, permission: Permission): Promise<boolean> {
  return permission !== "enrolment" && (await secondFactorMissing(user.id));
}

/** True when the user may pass the route's permission (the second factor aside: heldForEnrolment). */
export function allows(user: Actor, permission: Permission): boolean {
  return permission === "signed-in" || permission === "enrolment" || can(user, permission);
}

export function withUser<P = Record<string, never>>(
  permission: Permission,
  handler: (context: RouteContext<P>) => Promise<Response>,
  options: RouteGuardOptions<P> = {},
): (request?: Request, context?: NextRouteContext) => Promise<Response> {
  const refused = options.refused ?? notFoundJson;
  // Next.js always passes the request; a test may call a handler that reads none as GET().
  return async (request = new Request("http://localhost/"), context) => {
    let params = {} as P;
    if (options.params) {
      const parsed = options.params.safeParse(await context?.params);
      if (!parsed.success) return refused();
      params = parsed.data;
    }
    const user = await getSessionUser();
    if (!user || !allows(user, permission) || (await heldForEnrolment(user, permission))) return refused();
    const guarded = { request, user, params, db: await getDb() };
    if (request.method === "GET" || request.method === "HEAD") return handler(guarded);
    // A write: this user's reports wait for a replica that has replayed it (lib/replicas/own-writes.ts).
    try {
      return await handler(guarded);
    } finally {
      await rememberWrite();
    }
  };
}
