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
  return { id: user.id, name: user.name, role: user.role, sessionId, ...(address ? { address } : {}) };
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

/** For pages: the user, or a redirect to the login page. */
export async function requireUser(): Promise<Actor> {
  const user = await getSessionUser();
  if (!user) redirect("/login");
  return user;
}

/** For pages: the user if the permission table allows the action; otherwise a 404. */
export async function requirePermission(action: Action): Promise<Actor> {
  const user = await requireUser();
  if (!can(user, action)) notFound();
  return user;
}
