import "server-only";
import { getServerSession } from "next-auth";
import { notFound, redirect } from "next/navigation";
import { headers } from "next/headers";
import { cache } from "react";
import { clientAddress } from "@/lib/security/client-address";
import { getDb } from "@/lib/database";
import { getOpenSessionUser } from "./user-sessions";
import { getAuthOptions } from "./options";
import { can, type Action } from "./permissions";
import { mustEnrolSecondFactor } from "./second-factor-requirement";
import type { Actor } from "@/lib/core/actor";

/**
 * The signed-in user as the database knows them now. The session token only names the user and
 * the server-side session: the session must still be open (not signed out, not ended by a
 * password change, not past its absolute end), and role and active flag are read fresh, so a
 * deactivation or a demotion applies at once.
 *
 * Read once per request: the layout, the page and anything else rendering in the same request
 * share the answer (React `cache`). Outside a request (tests, scripts) every call reads afresh.
 */
export const getSessionUser = cache(async (): Promise<Actor | null> => {
  const session = await getServerSession(getAuthOptions());
  const id = session?.user?.id;
  const sessionId = session?.sessionId;
  if (!id || !sessionId) return null;
  const user = await getOpenSessionUser(await getDb(), id, sessionId);
  if (!user) return null;
  const address = await requestAddress();
  return {
    id: user.id,
    name: user.name,
    role: user.role,
    officeId: user.officeId,
    sessionId,
    ...(address ? { address } : {}),
  };
});

/**
 * The address the request came from, for the audit trail (who saw what, from where), or
 * undefined outside a request (a test, a script) or when the request carries none.
 */
async function requestAddress(): Promise<string | undefined> {
  try {
    return clientAddress(await headers());
  } catch {
    return undefined;
  }
}

/** Where a user who must set up a second factor is sent, and the one page they may open. */
export const ENROL_PATH = "/account/security";

/**
 * Whether the user must set up a second factor before anything else (the requirement is on and
 * they have none): read once per request, like the user.
 */
export const secondFactorMissing = cache(
  async (userId: string): Promise<boolean> => await mustEnrolSecondFactor(await getDb(), userId),
);

/**
 * For pages: the user, or a redirect to the login page; a user who must first set up a second
 * factor is sent to set one up, whatever page they asked for.
 */
export async function requireUser(): Promise<Actor> {
  const { user, mustEnrol } = await requireUserWhileEnrolling();
  if (mustEnrol) redirect(ENROL_PATH);
  return user;
}

/**
 * For the security page and the layout around every page: the user even when they must still set
 * up a second factor, and whether they must (the layout then draws no more than the way there).
 */
export async function requireUserWhileEnrolling(): Promise<{ user: Actor; mustEnrol: boolean }> {
  const user = await getSessionUser();
  if (!user) redirect("/login");
  return { user, mustEnrol: await secondFactorMissing(user.id) };
}

/** For pages: the user if the permission table allows the action; otherwise a 404. */
export async function requirePermission(action: Action): Promise<Actor> {
  const user = await requireUser();
  if (!can(user, action)) notFound();
  return user;
}
