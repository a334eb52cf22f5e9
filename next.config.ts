import type { NextConfig } from "next";
import { commonSecurityHeaders } from "./lib/security/headers";

const production = process.env.NODE_ENV === "production";

/** Next's own assets and static files, which proxy.ts does not see; it secures everything else. */
const staticHeaders = (pathname: string) =>
  Object.entries({
    ...commonSecurityHeaders({ pathname, production }),
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
  }).map(([key, value]) => ({ key, value }));

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time; pg-boss
  // loads pg (and its optional native binding) the same way.
  serverExternalPackages: ["@electric-sql/pglite", "pg-boss"],
  // `next dev` opened at 127.0.0.1 otherwise blocks its own dev resources as cross-origin.
  allowedDevOrigins: ["127.0.0.1"],
  poweredByHeader: false,
  typedRoutes: false,
  async headers() {
    return [
      { source: "/_next/static/:path*", headers: staticHeaders("/_next/static/") },
      { source: "/_next/image", headers: staticHeaders("/_next/image") },
      { source: "/favicon.ico", headers: staticHeaders("/favicon.ico") },
      // A private dashboard: no page, file or route of it belongs in a search engine (robots.txt
      // asks crawlers to stay out; this covers a link to it found elsewhere).
      { source: "/:path*", headers: [{ key: "X-Robots-Tag", value: "noindex, nofollow" }] },
    ];
  },
};

export default nextConfig;
