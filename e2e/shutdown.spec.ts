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

// A deploy in the middle of ingestion: the built app (`npm start`: server.mjs, a server of its own with a
// database of its own) receives webhooks and is sent SIGTERM while its worker is fetching,
// twice: once when the cycle in flight can finish within the grace period, once when its
// fetches outlast it and the claims must be given back. A claim left behind would wait out the
// 2-minute stale-claim timeout; after the last restart every event must be DONE well before.

const TEAM = "0b6f3f1e-8d4c-4c1a-9e2f-5a7b9c1d3e5f";
const CLIENT = { id: "shutdown-client", secret: "shutdown-secret" };
const FETCH_LATENCY_MS = 1_500; // a cycle's fetches are in flight long enough to be interrupted
// Far longer than the 10-second grace period of a stopping worker, however late the signal comes
// (the sandbox ends a held request when its client goes away).
const SLOW_FETCH_MS = 100_000;

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
  const child = spawn(process.execPath, ["server.mjs", "-p", String(port), "-H", "127.0.0.1"], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "test",
      COVERDESK_TEST_MODE: "true",
      ...env,
    },
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
const storedIn = (output: string) =>
  [...output.matchAll(/\[ingest worker-\w+\] claimed \d+: (\d+) stored/g)].reduce((sum, m) => sum + Number(m[1]), 0);

test.describe("graceful shutdown", () => {
  test.describe.configure({ timeout: 240_000 });

  let sandbox: Sandbox;
  let appEnv: Record<string, string>;
  let dropDatabase: () => Promise<void> = async () => {};
  const running: RunningApp[] = [];

  test.beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
      teamId: TEAM,
      webhookUrl: null,
      webhookSecret: null,
      seed: 404,
      pullCount: 120,
      speed: 1,
      deliverOnStart: false,
    });
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
      COVERDESK_SYNC_INTERVAL_MINUTES: "0", // only webhooks bring pulls in this test
      SERVICE_TIMEOUT_MS: "120000", // the slow fetches must outlast the grace period, not time out
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
    const setLatency = (latencyMs: number) => (sandbox.state.faults = { ...sandbox.state.faults, latencyMs });
    const deliver = async (bodies: object[]) => {
      for (let i = 0; i < bodies.length; i += 20) {
        const statuses = await Promise.all(
          bodies.slice(i, i + 20).map(
            async (body) =>
              (
                await fetch(`${url}/api/webhooks/service`, {
                  method: "POST",
                  headers: { "content-type": "application/json" },
                  body: JSON.stringify(body),
                })
              ).status,
          ),
        );
        expect(new Set(statuses)).toEqual(new Set([202]));
      }
    };
    const stop = async (app: RunningApp) => {
      app.process.kill("SIGTERM");
      const code = await app.exited;
      const log = app.output();
      expect(log).toContain("[shutdown] SIGTERM: stopping the worker and the sync schedule");
      expect(code, log.slice(-2_000)).toBe(143); // server.mjs's exit code for SIGTERM (as next start's), after ours
      const stopped = /\[shutdown\] worker stopped \((.*)\); (\d+) claims given back/.exec(log);
      expect(stopped, log.slice(-2_000)).not.toBeNull();
      return { log, finished: stopped?.[1] === "its last cycle finished", givenBack: Number(stopped?.[2]) };
    };
    const start = async () => {
      const app = startApp(port, env);
      running.push(app);
      await waitHealthy(url, app);
      return app;
    };
    const pullIds = [...sandbox.state.pulls.values()].filter((p) => !p.parent_pull_id).map((p) => p.pull_id);

    // 1. Stopped between two cycles' worth of work: the cycle in flight finishes, the rest waits.
    const first = await start();
    setLatency(FETCH_LATENCY_MS);
    await deliver(pullIds.map((pullId) => ({ event_type: "COMPLETE", pull_id: pullId, status: "SUCCESS", data: {} })));
    await expect.poll(() => storedIn(first.output()), { timeout: 60_000 }).toBeGreaterThan(0);
    const firstStop = await stop(first);
    const storedBeforeStop = storedIn(firstStop.log);
    expect(storedBeforeStop, "the stop came in the middle of the work").toBeLessThan(pullIds.length);
    expect(firstStop.finished).toBe(true);

    // 2. Stopped while fetches outlast the grace period: the claims are given back.
    // The first app's cut requests stay counted until their latency elapses: wait them out, so
    // the count below is this app's own fetches.
    await expect.poll(() => sandbox.state.delayedPullFetches, { timeout: 30_000 }).toBe(0);
    // Slow before the start: the events the first app left are claimed at once, and every
    // fetch of this app's must outlast the grace period.
    setLatency(SLOW_FETCH_MS);
    const second = await start();
    const updated = pullIds.slice(0, 20);
    await deliver(
      updated.map((pullId) => ({
        event_type: "DATA_UPDATED",
        pull_id: pullId,
        status: "SUCCESS",
        data: { updates: ["first_name"] },
      })),
    );
    // The route wakes the worker at once; the signal goes when its fetches are held in the sandbox.
    await expect.poll(() => sandbox.state.delayedPullFetches, { timeout: 30_000 }).toBeGreaterThan(0);
    const secondStop = await stop(second);
    expect(secondStop.finished).toBe(false);
    expect(secondStop.givenBack).toBeGreaterThan(0);
    // The stopped app's fetches went with it: the sandbox holds nothing for it any longer.
    await expect.poll(() => sandbox.state.delayedPullFetches, { timeout: 10_000 }).toBe(0);

    // Started again on the same database: everything is done, with no wait for stale claims.
    setLatency(0);
    const third = await start();
    await page.goto(`${url}/login`);
    await page.getByLabel("Email").fill(ROLES.admin.email);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/pulls$/);
    const total = pullIds.length + updated.length;
    // Well under the 2-minute stale-claim timeout: a claim left PROCESSING would fail this.
    await expect(async () => {
      await page.goto(`${url}/events`);
      await expect(page.getByTestId("count-DONE")).toHaveText(String(total), { timeout: 1_000 });
    }).toPass({ timeout: 60_000, intervals: [1_000] });
    for (const status of ["PENDING", "PROCESSING", "FAILED"])
      await expect(page.getByTestId(`count-${status}`)).toHaveText("0");

    await stop(third);
    console.info(
      `[shutdown e2e] SIGTERM 1: ${storedBeforeStop} of ${pullIds.length} pulls stored, last cycle finished; SIGTERM 2: ${secondStop.givenBack} claims given back after the grace period; all ${total} events DONE after the restart`,
    );
  });
});
