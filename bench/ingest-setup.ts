// What the ingest benchmarks share: a scratch database (PostgreSQL when DATABASE_URL is set,
// PGlite otherwise) and the sandbox in a process of its own, as the service would be.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import postgres from "postgres";
import { openDatabase, type Connection } from "@/db/connect";
import type { ServiceConfig } from "@/lib/service/client";

export const BENCH_TEAM = "b3c4d5e6-f708-4192-a3b4-c5d6e7f80912";

export type ScratchDatabase = Connection & { url: string | null; drop: () => Promise<void> };

export async function scratchDatabase(maxConnections = 10): Promise<ScratchDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url) return { ...(await openDatabase({ kind: "pglite", dir: null })), url: null, drop: async () => {} };
  const name = `coverdesk_bench_${randomBytes(4).toString("hex")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const connection = await openDatabase({ kind: "postgres", url: target.toString(), maxConnections });
  return {
    ...connection,
    url: target.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address();
  await new Promise((r) => server.close(r));
  return typeof address === "object" && address ? address.port : 0;
}

/** The sandbox as its own process, on a free port, serving `pulls` pulls; resolves once it answers. */
export async function startSandboxProcess(service: Omit<ServiceConfig, "baseUrl">, pulls: number) {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "sandbox/main.ts"], {
    stdio: "ignore",
    env: {
      ...process.env,
      SANDBOX_PORT: String(port),
      SANDBOX_CLIENT_ID: service.clientId,
      SANDBOX_CLIENT_SECRET: service.clientSecret,
      SANDBOX_TEAM_ID: service.teamId ?? "",
      SANDBOX_WEBHOOK_URL: "none",
      SANDBOX_PULL_COUNT: String(pulls),
      SANDBOX_DELIVER_ON_START: "false",
      SANDBOX_SEED: "1",
    },
  });
  const baseUrl = `http://127.0.0.1:${port}/api/v1.0.0`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${baseUrl}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { baseUrl, pid: child.pid, stop: () => child.kill("SIGTERM") };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill("SIGKILL");
  throw new Error("The sandbox did not start.");
}
