import { spawn } from "node:child_process";
import { expect, test } from "@playwright/test";
import postgres from "postgres";

// The built app started in production (`npm start`) with one unsafe setting at a time must stop at start,
// naming the variable, instead of serving. The baseline is a complete, safe configuration; the
// real service and database it names are never reached, since the refusal comes first.

const SAFE: Record<string, string> & { NODE_ENV: "production" } = {
  NODE_ENV: "production",
  DATABASE_URL: "postgres://coverdesk_app@127.0.0.1:1/never_reached",
  DATABASE_MIGRATION_URL: "postgres://coverdesk@127.0.0.1:1/never_reached",
  SERVICE_BASE_URL: "https://service.example.invalid/api/v1.0.0",
  SERVICE_TEAM_ID: "team",
  SERVICE_CLIENT_ID: "client",
  SERVICE_CLIENT_SECRET: "client-secret",
  NEXTAUTH_SECRET: "k7Qe2xVt9Lr4Nw8Zp1Hs6Dj3Fm5Gb0Ca",
  NEXTAUTH_URL: "https://coverdesk.example.invalid",
  COVERDESK_SMTP_URL: "smtp://alerts:mail-password@smtp.example.invalid:587?requireTLS=true",
  COVERDESK_MAIL_FROM: "Coverdesk <alerts@example.invalid>",
  COVERDESK_WORKER: "false",
  COVERDESK_SYNC_INTERVAL_MINUTES: "0",
  TRUSTED_PROXY_HOPS: "1",
  COVERDESK_ENCRYPTION_KEYS: "k1:" + Buffer.alloc(32, 7).toString("base64"),
  COVERDESK_INDEX_KEY: Buffer.alloc(32, 9).toString("base64"),
};

/** Starts the production server and waits for it to exit (up to 45 s); the output and exit code. */
async function startProduction(
  env: Record<string, string> & { NODE_ENV: "production" },
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["server.mjs", "-p", "0", "-H", "127.0.0.1"], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), 45_000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  return { code, output };
}

const without = (name: keyof typeof SAFE) => ({
  ...Object.fromEntries(Object.entries(SAFE).filter(([key]) => key !== name)),
  NODE_ENV: "production" as const,
});

const CASES: Array<[string, Record<string, string> & { NODE_ENV: "production" }, RegExp]> = [
  ["demo mode on", { ...SAFE, COVERDESK_DEMO_MODE: "true" }, /COVERDESK_DEMO_MODE: must be off in production/],
  [
    "a short session secret",
    { ...SAFE, NEXTAUTH_SECRET: "only-twenty-bytes-xx" },
    /NEXTAUTH_SECRET: must be at least 32 bytes/,
  ],
  [
    "a plain-http service",
    { ...SAFE, SERVICE_BASE_URL: "http://service.example.invalid/api/v1.0.0" },
    /SERVICE_BASE_URL: must be https/,
  ],
  [
    "a plain-http public address",
    { ...SAFE, NEXTAUTH_URL: "http://coverdesk.example.invalid" },
    /NEXTAUTH_URL: must be https/,
  ],
  [
    "mail without TLS",
    { ...SAFE, COVERDESK_SMTP_URL: "smtp://alerts:mail-password@smtp.example.invalid:587" },
    /COVERDESK_SMTP_URL: must use TLS in production/,
  ],
  ["the test-mode opt-in", { ...SAFE, COVERDESK_TEST_MODE: "true" }, /COVERDESK_TEST_MODE: must be unset/],
  [
    "no database (no silent embedded one)",
    without("DATABASE_URL"),
    /Missing required environment variable in production: DATABASE_URL/,
  ],
  [
    "an https address behind an unnamed number of proxies (everyone would share the proxy's address)",
    without("TRUSTED_PROXY_HOPS"),
    /TRUSTED_PROXY_HOPS: must be set in production when NEXTAUTH_URL is https/,
  ],
  [
    "no owner's address to migrate with (the app would run as the owner, able to rewrite the audit trail)",
    without("DATABASE_MIGRATION_URL"),
    /Missing required environment variable in production: DATABASE_MIGRATION_URL/,
  ],
  ["no team id", without("SERVICE_TEAM_ID"), /Missing required environment variable in production: SERVICE_TEAM_ID/],
  [
    "no mail server (the digests would never leave)",
    without("COVERDESK_SMTP_URL"),
    /Missing required environment variable in production: COVERDESK_SMTP_URL/,
  ],
  [
    "no key ring (licence numbers and birth dates would be stored in clear)",
    without("COVERDESK_ENCRYPTION_KEYS"),
    /Missing required environment variable in production: COVERDESK_ENCRYPTION_KEYS/,
  ],
];

test.describe("production refuses to start on an unsafe setting", () => {
  test.describe.configure({ mode: "serial" });
  for (const [what, env, message] of CASES) {
    test(what, async () => {
      const { code, output } = await startProduction(env);
      expect(output).toMatch(message);
      expect(code, output).toBe(1);
    });
  }

  test("active demo users in the database", async () => {
    // Only PostgreSQL can be shared with the e2e server, which has seeded the demo users into it.
    test.skip(!process.env.DATABASE_URL, "needs the e2e PostgreSQL database (PGlite is held by the e2e server)");
    const sql = postgres(process.env.DATABASE_URL ?? "", { max: 1, onnotice: () => {} });
    const active =
      await sql`select count(*)::int as n from users where lower(email) = 'agent@example.com' and is_active`;
    await sql.end();
    expect(active[0]?.n, "the e2e server seeded the demo users").toBe(1);
    const { code, output } = await startProduction({
      ...SAFE,
      DATABASE_URL: process.env.DATABASE_URL ?? "",
      DATABASE_MIGRATION_URL: process.env.DATABASE_URL ?? "",
    });
    expect(output).toMatch(
      /the demo users [^\n]*agent@example\.com[^\n]* are active in this database \(DATABASE_URL\)/,
    );
    expect(code, output).toBe(1);
  });
});
