import "server-only";
import { env } from "@/lib/env";
import { safeRedirectPath } from "@/lib/security/safe-redirect";
import { z } from "zod";
import { parseSearchFields, type SearchParams } from "@/lib/url/search-params";
import { DEMO_PASSWORD, DEMO_USERS } from "@/lib/auth/demo-users";
import { getSessionUser } from "@/lib/auth/session";
import type { Actor } from "@/lib/core/actor";

/** A demo login the sign-in page offers as one button (development and tests only). */
export type DemoLogin = { email: string; name: string; role: string };

/**
 * The login page: where to go after signing in (only places on this app are followed; "/"
 * sends each role to its start page), and whether the visitor is signed in already (then the
 * page sends them there at once).
 */
export async function loadLoginPage(params: SearchParams): Promise<{
  callbackUrl: string;
  signedIn: boolean;
  /** In demo mode (never in production): the demo logins and their published password, for one-click sign-in. */
  demo: { users: DemoLogin[]; password: string } | null;
}> {
  const { values } = parseSearchFields({ callbackUrl: z.string() }, params);
  const config = env();
  const callbackUrl = safeRedirectPath(values.callbackUrl, config.auth.url);
  const demo = config.demoMode
    ? { users: DEMO_USERS.map(({ email, name, role }) => ({ email, name, role })), password: DEMO_PASSWORD }
    : null;
  return { callbackUrl, signedIn: (await getSessionUser()) !== null, demo };
}

/** Where a signed-in user starts: agents from their own pulls, managers and admins from the whole book. */
export function startPage(user: Pick<Actor, "role">): string {
  return user.role === "AGENT" ? "/my" : "/pulls";
}
