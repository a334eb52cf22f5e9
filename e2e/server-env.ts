import serviceEnv from "./service-env.json";

// What the e2e app server runs with: playwright.config.ts starts it (and the sandbox) with these,
// and specs that must know the real secrets (e2e/secrets.spec.ts) read them here.
// scripts/test.mjs passes the same service values to `next build`, so a secret inlined into a
// client bundle at build time would be the one the scan looks for.
export const SERVICE_ENV = serviceEnv;

export const NEXTAUTH_SECRET = process.env.NEXTAUTH_SECRET ?? "e2e-only-secret-0123456789abcdef";

/** The password Coverdesk signs in to the AgencyZoom stand-in with (its user, not a person's). */
export const AGENCYZOOM_USERNAME = "e2e@agency.example";
export const AGENCYZOOM_PASSWORD = "e2e-only-agencyzoom-password-7c2d";

/** The secrets no browser may ever receive. */
export const SECRETS = {
  SERVICE_CLIENT_SECRET: SERVICE_ENV.SERVICE_CLIENT_SECRET,
  SERVICE_WEBHOOK_SECRET: SERVICE_ENV.SERVICE_WEBHOOK_SECRET,
  NEXTAUTH_SECRET,
  AGENCYZOOM_PASSWORD,
} as const;
