import { getToken } from "next-auth/jwt";
import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/env";

// Sends visitors without a session to the login page. It only redirects: every page, route
// handler and server action still checks the session and the permission table itself.

// /connect/ and /api/connect/ are the consumer's reconnect page: guarded by the token in its address.
const PUBLIC_PREFIXES = ["/login", "/api/auth/", "/api/webhooks/", "/api/health", "/connect/", "/api/connect/"];

export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (PUBLIC_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(prefix))) {
    return NextResponse.next();
  }
  const token = await getToken({ req: request, secret: env().auth.secret });
  if (token?.userId) return NextResponse.next();

  if (pathname.startsWith("/api/")) {
    return NextResponse.json({ error: "UNAUTHENTICATED", message: "Sign in first." }, { status: 401 });
  }
  const login = new URL("/login", request.url);
  if (pathname !== "/") login.searchParams.set("callbackUrl", `${pathname}${search}`);
  return NextResponse.redirect(login);
}

export const config = {
  // Everything but Next's own assets and static files.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|.*\\.(?:svg|png|ico|txt)$).*)"],
};
