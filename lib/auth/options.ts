import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "@/db/client";
import { env } from "@/lib/env";
import { authenticate } from "./credentials";

export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60; // one working day

let cached: NextAuthOptions | undefined;

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
  // next-auth reads its base URL from process.env itself. Production must name it (the env
  // module enforces that); in development the request's own host is trusted so that
  // localhost and 127.0.0.1 both work.
  if (config.nodeEnv === "production") process.env.NEXTAUTH_URL ??= config.auth.url;
  else process.env.AUTH_TRUST_HOST ??= "true";
  return {
    secret: config.auth.secret,
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: "/login" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials) {
        const db = await getDb();
        return authenticate(db, credentials, { demoMode: config.demoMode });
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) {
        token.userId = user.id;
        token.role = user.role;
      }
      return token;
    },
    // The browser's session carries only who is signed in; role and active flag are re-read
    // from the database on every request (lib/auth/session.ts).
    session({ session, token }) {
      return { expires: session.expires, user: { ...session.user, id: token.userId ?? "" } };
    },
  },
  };
}
