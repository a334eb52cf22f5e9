import "server-only";
import { env } from "@/lib/env";
import { safeRedirectPath } from "@/lib/security/safe-redirect";
import { z } from "zod";
import { parseSearchFields, type SearchParams } from "@/lib/url/search-params";
import { getSessionUser, type SessionUser } from "./session";

/**
 * The login page: where to go after signing in (only places on this app are followed; "/"
 * sends each role to its start page), and whether the visitor is signed in already (then the
 * page sends them there at once).
 */
export async function loadLoginPage(params: SearchParams): Promise<{ callbackUrl: string; signedIn: boolean }> {
  const { values } = parseSearchFields({ callbackUrl: z.string() }, params);
  const callbackUrl = safeRedirectPath(values.callbackUrl, env().auth.url);
  return { callbackUrl, signedIn: (await getSessionUser()) !== null };
}

/** Where a signed-in user starts: agents from their own pulls, managers and admins from the whole book. */
export function startPage(user: Pick<SessionUser, "role">): string {
  return user.role === "AGENT" ? "/my" : "/pulls";
}
