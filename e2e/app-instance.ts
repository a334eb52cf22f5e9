import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SERVICE_BASE, TEAM_ID } from "./sandbox-urls";

// A second instance of the built app, for tests that must stop and start it (the main e2e
// server lives for the whole run). It talks to the same sandbox, on an embedded database of
// its own that outlives a restart.

export const SECOND_APP_PORT = Number(process.env.E2E_APP_PORT ?? 3100) + 50;
export const SECOND_APP_URL = `http://127.0.0.1:${SECOND_APP_PORT}`;
export const E2E_WEBHOOK_SECRET = "coverdesk-e2e-webhook-secret";

export type AppInstance = { stop: () => Promise<void> };

export function newDataDir(): string {
  return path.join(mkdtempSync(path.join(tmpdir(), "coverdesk-restart-")), "pglite");
}

/** `port` and `env` change the instance for a spec of its own (e2e/demo-agency.spec.ts). */
export async function startApp(
  dataDir: string,
  options: { port?: number; env?: Record<string, string> } = {},
): Promise<AppInstance> {
  const port = options.port ?? SECOND_APP_PORT;
  const appUrl = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ["server.mjs", "-p", String(port), "-H", "127.0.0.1"], {
    stdio: "ignore",
    env: {
      ...process.env,
      NODE_ENV: "test", // the production build with the demo users and PGlite, which production refuses
      COVERDESK_TEST_MODE: "true",
      DATABASE_URL: "",
      PGLITE_DIR: dataDir,
      COVERDESK_MAIL_DIR: path.join(path.dirname(dataDir), "mail"), // the digests' outbox, beside the database
      SERVICE_BASE_URL: SERVICE_BASE,
      SERVICE_TEAM_ID: TEAM_ID,
      SERVICE_CLIENT_ID: "coverdesk-e2e-client",
      SERVICE_CLIENT_SECRET: "coverdesk-e2e-secret",
      SERVICE_WEBHOOK_SECRET: E2E_WEBHOOK_SECRET,
      NEXTAUTH_URL: appUrl,
      NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? "e2e-only-secret-0123456789abcdef",
      ...options.env,
    },
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`the app exited on start (code ${child.exitCode})`);
    const up = await fetch(`${appUrl}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) {
      return {
        stop: async () => {
          child.kill("SIGTERM");
          const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
          await exited;
          clearTimeout(killer);
        },
      };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill("SIGKILL");
  throw new Error("the app did not answer within 60 s");
}
