import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time.
  serverExternalPackages: ["@electric-sql/pglite"],
  // `next dev` opened at 127.0.0.1 otherwise blocks its own dev resources as cross-origin.
  allowedDevOrigins: ["127.0.0.1"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
