// A complete, safe production environment, as the tests of production's refusals start from:
// each test changes one variable and expects the app to stop (or not) naming it.
export const PRODUCTION_ENV: Readonly<Record<string, string>> = {
  NODE_ENV: "production",
  DATABASE_URL: "postgres://coverdesk_app@db.internal:5432/coverdesk",
  DATABASE_MIGRATION_URL: "postgres://coverdesk@db.internal:5432/coverdesk",
  SERVICE_BASE_URL: "https://service.example.com/api/v1.0.0",
  SERVICE_TEAM_ID: "team-1",
  SERVICE_CLIENT_ID: "id",
  SERVICE_CLIENT_SECRET: "secret",
  NEXTAUTH_SECRET: "k7Qe2xVt9Lr4Nw8Zp1Hs6Dj3Fm5Gb0Ca",
  NEXTAUTH_URL: "https://coverdesk.example.com",
  COVERDESK_SMTP_URL: "smtp://alerts:mail-password@smtp.example.com:587?requireTLS=true",
  COVERDESK_MAIL_FROM: "Coverdesk <alerts@example.com>",
  TRUSTED_PROXY_HOPS: "1", // behind one TLS-terminating proxy
  COVERDESK_ENCRYPTION_KEYS: "k1:" + Buffer.alloc(32, 7).toString("base64"),
  COVERDESK_INDEX_KEY: Buffer.alloc(32, 9).toString("base64"),
};
