import { getToken } from "next-auth/jwt";
import { NextResponse, type NextRequest } from "next/server";
import { env, productionBuild } from "@/lib/env";
import { commonSecurityHeaders, createNonce, pagePolicy, routePolicy } from "@/lib/security/headers";

// Sends visitors without a session to the login page. It only redirects: every page, route
// handler and server action still checks the session and the permission table itself.
// It also puts the security headers on every page and route, with a fresh script nonce per
// page: Next.js reads the nonce from the request's policy and puts it on its own scripts.

// /connect/ and /api/connect/ are the consumer's reconnect page: guarded by the token in its address.
// /servicing/ is the consumer's page to confirm a servicing request: guarded the same way.
// /api/calendar/ is a user's X-date feed, read by calendar apps without cookies: its token is the key.
// /api/sign-in/ is sign-in's passkey step: guarded by the password, under sign-in's throttle.
// /api/v1/ is the public API: every route checks its API key itself (lib/api/guard.ts), and
// openapi.json is public.
const PUBLIC_PREFIXES = [
  "/login",
  "/api/auth/",
  "/api/sign-in/",
  "/api/webhooks/",
  "/api/health",
  "/connect/",
  "/api/connect/",
  "/servicing/",
  "/api/calendar/",
  "/api/v1/",
];
// The files of public/ that browsers and crawlers fetch without cookies (the manifest and its
// icons, robots.txt). Exact names: a page or token that merely ends in ".png" still needs a session.
const PUBLIC_FILES = new Set([
  "/robots.txt",
  "/favicon.ico",
  "/icon.svg",
  "/apple-touch-icon.png",
  "/site.webmanifest",
  "/icon-192.png",
  "/icon-512.png",
]);

export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const config = env();
  const context = { pathname, production: productionBuild, https: config.auth.url.startsWith("https:") };
  const isApi = pathname.startsWith("/api/");
  const policy = isApi ? routePolicy(pathname) : pagePolicy(createNonce(), context);
  const secured = <T extends NextResponse>(response: T): T => {
    for (const [name, value] of Object.entries(commonSecurityHeaders(context))) response.headers.set(name, value);
    response.headers.set("Content-Security-Policy", policy);
    return response;
  };
  const pass = () => {
    const headers = new Headers(request.headers);
    headers.set("Content-Security-Policy", policy);
    return secured(NextResponse.next({ request: { headers } }));
  };

  if (
    PUBLIC_FILES.has(pathname) ||
    PUBLIC_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(prefix))
  )
    return pass();
  // The cookie's name follows the public URL's scheme (lib/auth/options.ts sessionCookie).
  const token = await getToken({ req: request, secret: config.auth.secret, secureCookie: context.https });
  if (token?.userId) return pass();

  if (isApi) {
    return secured(NextResponse.json({ error: "UNAUTHENTICATED", message: "Sign in first." }, { status: 401 }));
  }
  const login = new URL("/login", request.url);
  if (pathname !== "/") login.searchParams.set("callbackUrl", `${pathname}${search}`);
  return secured(NextResponse.redirect(login));
}

export const config = {
  // Everything but Next's own build assets and the favicon (next.config.ts gives those their
  // headers). Folders, not extensions: a page, route or token ending in ".png" or ".txt" is no
  // static file, and must not go without the headers.
  matcher: ["/((?!_next/static/|_next/image$|favicon\\.ico$).*)"],
};
