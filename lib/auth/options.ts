import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { users } from "@/db/schema";
import type { Db } from "@/db/types";
import { env, shareAuthUrlWithNextAuth } from "@/lib/env";
import { clientAddress } from "@/lib/security/client-address";
import { safeRedirectPath } from "@/lib/security/safe-redirect";
import { CODE_REFUSED_ERROR, CODE_REQUIRED_ERROR, throttledError } from "@/lib/security/sign-in-errors";
import { recordAudit } from "@/lib/audit/audit-log";
import { signInWithPassword } from "./credentials";
import { endUserSession, startUserSession } from "./user-sessions";

/** The rolling limit: a session idle this long ends (the absolute one is COVERDESK_SESSION_MAX_HOURS). */
export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60; // one working day

let cached: NextAuthOptions | undefined;

/**
 * The session cookie: never readable by scripts, not sent on cross-site subrequests, and, when
 * the app is served over https, Secure with the __Secure- prefix so plain http can never set it.
 */
export function sessionCookie(publicUrl: string) {
  const secure = publicUrl.startsWith("https://");
  return {
    useSecureCookies: secure,
    sessionToken: {
      name: `${secure ? "__Secure-" : ""}next-auth.session-token`,
      options: { httpOnly: true, sameSite: "lax" as const, path: "/", secure },
    },
  };
}

/** Records a sign-out for the user the session named (a token naming no user records nothing). */
export async function recordSignOut(db: Db, userId: unknown): Promise<void> {
  if (typeof userId !== "string" || !z.uuid().safeParse(userId).success) return;
  const [user] = await db
    .select({ id: users.id, name: users.name, role: users.role })
    .from(users)
    .where(eq(users.id, userId));
  await recordAudit(db, user ?? null, "SIGNED_OUT", { subjectUserId: userId });
}

/** Where next-auth may send the browser: `url` if it stays on `baseUrl`'s origin, else its home. */
export function redirectWithinApp(url: string, baseUrl: string): string {
  return `${new URL(baseUrl).origin}${safeRedirectPath(url, baseUrl)}`;
}

/** next-auth hands authorize() the request headers as a plain record. */
function headerReader(headers: Record<string, unknown> | undefined): Pick<Headers, "get"> {
  return {
    get: (name) => {
      const value = headers?.[name.toLowerCase()];
      return typeof value === "string" ? value : Array.isArray(value) && typeof value[0] === "string" ? value[0] : null;
    },
  };
}

/**
 * Built on first use rather than at import, so that `next build` (which imports every route)
 * needs none of the runtime secrets.
 */
export function getAuthOptions(): NextAuthOptions {
  cached ??= buildAuthOptions();
  return cached;
}

function buildAuthOptions(): NextAuthOptions {
  const config = env();
  shareAuthUrlWithNextAuth(config);
  const cookie = sessionCookie(config.auth.url);
  return {
    secret: config.auth.secret,
    useSecureCookies: cookie.useSecureCookies,
    cookies: { sessionToken: cookie.sessionToken },
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/login" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
          // Only for an account with a second factor (lib/auth/second-factor.ts): its code, or a recovery code.
          code: { label: "Code", type: "text" },
          // Or, instead of the code, a passkey's signed answer (lib/auth/passkeys.ts), as JSON text.
          passkey: { label: "Passkey", type: "text" },
        },
        async authorize(credentials, request) {
          const db = await getDb();
          const address = clientAddress(headerReader(request?.headers));
          const outcome = await signInWithPassword(db, credentials, { demoMode: config.demoMode, address });
          // next-auth passes a thrown message to the login form as its error; null reads as a plain refusal.
          if (outcome.status === "throttled") throw new Error(throttledError(outcome.retryAfterSeconds));
          if (outcome.status === "code-required") throw new Error(CODE_REQUIRED_ERROR);
          if (outcome.status === "code-refused") throw new Error(CODE_REFUSED_ERROR);
          if (outcome.status !== "signed-in") return null;
          const sessionId = await startUserSession(db, outcome.user.id, {
            address,
            lifetimeSeconds: config.auth.sessionMaxSeconds,
          });
          return { ...outcome.user, sessionId };
        },
      }),
    ],
    events: {
      // Signing out ends the session on the server too, so a copy of the cookie stops working;
      // and it goes on the audit trail beside sign-ins (lib/auth/credentials.ts).
      async signOut({ token }) {
        const db = await getDb();
        await endUserSession(db, token?.sid, "SIGNED_OUT");
        await recordSignOut(db, token?.userId);
      },
    },
    callbacks: {
      // next-auth's own redirects (after sign-out, or a callbackUrl posted to it) follow the same
      // rule as the login page: a place on this app, else its home page.
      redirect({ url, baseUrl }) {
        return redirectWithinApp(url, baseUrl);
      },
      jwt({ token, user }) {
        if (user) {
          token.userId = user.id;
          token.role = user.role;
          token.sid = user.sessionId;
        }
        return token;
      },
      // The browser's session carries only who is signed in and which server-side session this
      // is; the session's state, the role and the active flag are re-read from the database on
      // every request (lib/auth/session.ts).
      session({ session, token }) {
        return { expires: session.expires, user: { ...session.user, id: token.userId ?? "" }, sessionId: token.sid };
      },
    },
  };
}
