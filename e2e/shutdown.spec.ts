import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import postgres from "postgres";
import { startSandbox, type Sandbox } from "../sandbox/server";
import { DEMO_PASSWORD, ROLES } from "./roles";

// A deploy in the middle of ingestion: the built app (`next start`, a server of its own with a
// database of its own) receives webhooks, is sent SIGTERM while its worker is fetching, and is
// started again. The stop must give back or finish what the worker held (a claim left behind
// would wait out the 2-minute stale-claim timeout), and after the restart every event is DONE.

const TEAM = "0b6f3f1e-8d4c-4c1a-9e2f-5a7b9c1d3e5f";
const CLIENT = { id: "shutdown-client", secret: "shutdown-secret" };
const FETCH_LATENCY_MS = 1_500; // a cycle's fetches are in flight long enough to be interrupted

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

type RunningApp = { process: ChildProcess; output: () => string; exited: Promise<number | null> };

function startApp(port: number, env: Record<string, string>): RunningApp {
  let output = "";
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "production", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { process: child, output: () => output, exited };
}

async function waitHealthy(url: string, app: RunningApp): Promise<void> {
  await expect(async () => {
    const response = await fetch(`${url}/api/health`).catch(() => null);
    expect(response?.status, app.output().slice(-2_000)).toBe(200);
  }).toPass({ timeout: 90_000, intervals: [500] });
}

/** Sum of "N stored" over the worker's cycle lines. */
const storedIn = (output: string) => [...output.matchAll(/\[ingest worker-\w+\] claimed \d+: (\d+) stored/g)].reduce((sum, m) => sum + Number(m[1]), 0);

test.describe("graceful shutdown", () => {
  test.describe.configure({ timeout: 240_000 });

  let sandbox: Sandbox;
  let appEnv: Record<string, string>;
  let dropDatabase: () => Promise<void> = async () => {};
  const running: RunningApp[] = [];

  test.beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, clientId: CLIENT.id, clientSecret: CLIENT.secret, teamId: TEAM, webhookUrl: null, webhookSecret: null, seed: 404, pullCount: 120, speed: 1, deliverOnStart: false });
    let database: Record<string, string>;
    if (process.env.DATABASE_URL) {
      const name = `coverdesk_shutdown_${randomBytes(5).toString("hex")}`;
      const admin = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      await admin.end();
      const url = new URL(process.env.DATABASE_URL);
      url.pathname = `/${name}`;
      database = { DATABASE_URL: url.toString() };
      dropDatabase = async () => {
        const cleanup = postgres(process.env.DATABASE_URL ?? "", { max: 1, onnotice: () => {} });
        await cleanup.unsafe(`drop database if exists ${name} with (force)`);
        await cleanup.end();
      };
    } else {
      const dir = mkdtempSync(path.join(tmpdir(), "coverdesk-shutdown-"));
      database = { PGLITE_DIR: path.join(dir, "pglite") };
      dropDatabase = async () => rmSync(dir, { recursive: true, force: true });
    }
    appEnv = {
      ...database,
      SERVICE_BASE_URL: sandbox.baseUrl,
      SERVICE_TEAM_ID: TEAM,
      SERVICE_CLIENT_ID: CLIENT.id,
      SERVICE_CLIENT_SECRET: CLIENT.secret,
      NEXTAUTH_SECRET: "shutdown-e2e-secret-0123456789abcdef",
      COVERDESK_DEMO_MODE: "true",
      COVERDESK_SYNC_INTERVAL_MINUTES: "0", // only webhooks bring pulls in this test
    };
  });

  test.afterAll(async () => {
    for (const app of running) if (app.process.exitCode === null) app.process.kill("SIGKILL");
    await sandbox?.close();
    await dropDatabase();
  });

  test("SIGTERM mid-processing loses nothing: after a restart every event is DONE", async ({ page }) => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = { ...appEnv, NEXTAUTH_URL: url };

    const first = startApp(port, env);
    running.push(first);
    await waitHealthy(url, first);
    sandbox.state.faults = { ...sandbox.state.faults, latencyMs: FETCH_LATENCY_MS };

    const pullIds = [...sandbox.state.pulls.values()].filter((p) => !p.parent_pull_id).map((p) => p.pull_id);
    for (let i = 0; i < pullIds.length; i += 20) {
      const statuses = await Promise.all(
        pullIds.slice(i, i + 20).map(async (pullId) => (await fetch(`${url}/api/webhooks/service`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ event_type: "COMPLETE", pull_id: pullId, status: "SUCCESS", data: {} }) })).status),
      );
      expect(new Set(statuses)).toEqual(new Set([202]));
    }

    // The first cycle is stored and the next one is fetching: stop the server now.
    await expect.poll(() => storedIn(first.output()), { timeout: 60_000 }).toBeGreaterThan(0);
    first.process.kill("SIGTERM");
    const code = await first.exited;
    const log = first.output();
    expect(log).toContain("[shutdown] SIGTERM: stopping the worker and the sync schedule");
    expect(log).toMatch(/\[shutdown\] worker stopped \(.*\); \d+ claims given back/);
    expect(code, log.slice(-2_000)).toBe(143); // next start's own exit code for SIGTERM, after ours
    const storedBeforeStop = storedIn(log);
    expect(storedBeforeStop, "the stop came in the middle of the work").toBeLessThan(pullIds.length);

    // Started again on the same database: the rest is done, with no wait for stale claims.
    sandbox.state.faults = { ...sandbox.state.faults, latencyMs: 0 };
    const second = startApp(port, env);
    running.push(second);
    await waitHealthy(url, second);

    await page.goto(`${url}/login`);
    await page.getByLabel("Email").fill(ROLES.admin.email);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/pulls$/);
    // Well under the 2-minute stale-claim timeout: a claim left PROCESSING would fail this.
    await expect(async () => {
      await page.goto(`${url}/events`);
      await expect(page.getByTestId("count-DONE")).toHaveText(String(pullIds.length), { timeout: 1_000 });
    }).toPass({ timeout: 60_000, intervals: [1_000] });
    for (const status of ["PENDING", "PROCESSING", "FAILED"]) await expect(page.getByTestId(`count-${status}`)).toHaveText("0");

    second.process.kill("SIGTERM");
    expect(await second.exited).toBe(143);
    console.info(`[shutdown e2e] ${storedBeforeStop} of ${pullIds.length} pulls stored before SIGTERM; ${log.match(/(\d+) claims given back/)?.[1]} claims given back; all ${pullIds.length} events DONE after the restart`);
  });
});
