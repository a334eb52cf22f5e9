import { defineConfig, devices } from "@playwright/test";
import { AGENCYZOOM_PASSWORD, AGENCYZOOM_USERNAME, NEXTAUTH_SECRET, SERVICE_ENV } from "./e2e/server-env";

// End-to-end tests run Chromium against the built app (`npm start`: server.mjs) and the sandbox, on ports
// of their own so that a running `npm run dev` does not interfere.
// E2E_APP_PORT / E2E_SANDBOX_PORT let two runs share a machine.
const APP_PORT = Number(process.env.E2E_APP_PORT ?? 3100);
const SANDBOX_PORT = Number(process.env.E2E_SANDBOX_PORT ?? 4110);
const appUrl = `http://127.0.0.1:${APP_PORT}`;
const sandboxUrl = `http://127.0.0.1:${SANDBOX_PORT}`;
// The AgencyZoom stand-in, ten ports past the sandbox (whose storage server takes the next one).
const AGENCYZOOM_PORT = Number(process.env.E2E_AGENCYZOOM_PORT ?? SANDBOX_PORT + 10);
const agencyzoomUrl = `http://127.0.0.1:${AGENCYZOOM_PORT}`;
const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

// The secrets live in e2e/server-env.ts so that e2e/secrets.spec.ts can look for them.
const serviceEnv = { SERVICE_BASE_URL: `${sandboxUrl}/api/v1.0.0`, ...SERVICE_ENV };

const LAST = /(deal-returns|servicing)\.spec\.ts/;

export default defineConfig({
  testDir: "./e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["./e2e/summary-reporter.ts"]],
  use: {
    baseURL: appUrl,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts/ },
    {
      name: "chromium",
      use: { ...devices["Desktop Chrome"] },
      dependencies: ["setup"],
      testIgnore: LAST,
    },
    // Specs that win deals of their own, after the ones that assert the book's won totals to the cent.
    { name: "last", testMatch: LAST, use: { ...devices["Desktop Chrome"] }, dependencies: ["chromium"] },
  ],
  webServer: [
    {
      command: "node --import tsx sandbox/main.ts",
      url: `${sandboxUrl}/api/v1.0.0/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        SANDBOX_PORT: String(SANDBOX_PORT),
        SANDBOX_CLIENT_ID: serviceEnv.SERVICE_CLIENT_ID,
        SANDBOX_CLIENT_SECRET: serviceEnv.SERVICE_CLIENT_SECRET,
        SANDBOX_TEAM_ID: serviceEnv.SERVICE_TEAM_ID,
        SANDBOX_WEBHOOK_URL: `${appUrl}/api/webhooks/service`,
        SANDBOX_WEBHOOK_SECRET: serviceEnv.SERVICE_WEBHOOK_SECRET,
        SANDBOX_SPEED: "0.01",
      },
    },
    {
      command: "node --import tsx sandbox/agencyzoom/main.ts",
      url: `${agencyzoomUrl}/_sandbox/leads`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        SANDBOX_AGENCYZOOM_PORT: String(AGENCYZOOM_PORT),
        SANDBOX_AGENCYZOOM_USERNAME: AGENCYZOOM_USERNAME,
        SANDBOX_AGENCYZOOM_PASSWORD: AGENCYZOOM_PASSWORD,
      },
    },
    {
      command: `node server.mjs -p ${APP_PORT} -H 127.0.0.1`,
      url: `${appUrl}/api/health`,
      reuseExistingServer: false,
      timeout: 90_000,
      env: {
        ...serviceEnv,
        NEXTAUTH_URL: appUrl,
        NEXTAUTH_SECRET,
        AGENCYZOOM_BASE_URL: agencyzoomUrl,
        AGENCYZOOM_USERNAME,
        AGENCYZOOM_PASSWORD,
        NODE_ENV: "test", // the production build with the demo users, which production refuses
        COVERDESK_TEST_MODE: "true", // without it server.mjs serves the build in production
        DATABASE_URL: process.env.DATABASE_URL ?? "",
        // Its copy on a streaming replica, when CI runs one (scripts/e2e-database.mjs).
        DATABASE_REPLICA_URLS: process.env.E2E_DATABASE_REPLICA_URLS ?? "",
        PGLITE_DIR: process.env.PGLITE_DIR ?? ".data/e2e-pglite",
      },
    },
  ],
});
