// `npm run bench:ingest`: how fast webhooks are acknowledged and pulls processed, beside a
// raw-INSERT baseline measured in the same run on the same database.
//
// Acknowledgement: an HTTP endpoint running the app's receiver (signature check, size limit,
// envelope validation, dedup insert) under open-loop load, against one that only INSERTs the
// body. Processing: the app's worker cycle fetching each pull from the sandbox over HTTP and
// storing it. Uses PostgreSQL when DATABASE_URL is set (a scratch database), PGlite otherwise.
// The sandbox and the load generator run in processes of their own, as they would in life.
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { openDatabase, queryRows, type Connection } from "@/db/connect";
import { installSealedJsonCodec } from "@/lib/security/sealed-json-codec";
import { webhookEvents } from "@/db/schema";
import { processDueEvents } from "@/lib/ingest/process-events";
import { receiveWebhook } from "@/lib/ingest/receive-webhook";
import type { ServiceConfig } from "@/lib/service/client";
import { fetchPullPayload, iteratePulls } from "@/lib/service/pulls-api";
import { signPayload } from "@/lib/service/signature";
import { percentile, serveBodies, type LoadResult } from "./load";

// Sealed columns need the key ring's codec (lib/security/sealed-json-codec.ts).
installSealedJsonCodec();

const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PULLS = Number(process.env.BENCH_PULLS ?? 500);
const SECRET = "bench-webhook-secret";
const TEAM = "b3c4d5e6-f708-4192-a3b4-c5d6e7f80912";

async function scratchDatabase(): Promise<Connection & { drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) return { ...(await openDatabase({ kind: "pglite", dir: null })), drop: async () => {} };
  const name = `coverdesk_bench_${randomBytes(4).toString("hex")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const connection = await openDatabase({ kind: "postgres", url: target.toString(), maxConnections: 10 });
  return {
    ...connection,
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address();
  await new Promise((r) => server.close(r));
  return typeof address === "object" && address ? address.port : 0;
}

/** The sandbox as its own process, on a free port; resolves once it answers. */
async function startSandboxProcess(service: Omit<ServiceConfig, "baseUrl">) {
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
      SANDBOX_PULL_COUNT: String(PULLS),
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
      return { baseUrl, stop: () => child.kill("SIGTERM") };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill("SIGKILL");
  throw new Error("The sandbox did not start.");
}

async function loadInChild(url: string, bodies: string[], dir: string): Promise<LoadResult> {
  const file = path.join(dir, `bodies-${randomBytes(3).toString("hex")}.json`);
  writeFileSync(file, JSON.stringify(bodies));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "bench/load-child.ts", url, String(RATE), file],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return JSON.parse(stdout) as LoadResult;
}

function summarize(label: string, result: LoadResult) {
  return {
    label,
    "acked/s": Math.round(result.ok / result.seconds),
    "p50 ms": Number(percentile(result.latenciesMs, 50).toFixed(1)),
    "p99 ms": Number(percentile(result.latenciesMs, 99).toFixed(1)),
    errors: result.sent - result.ok,
  };
}

async function main() {
  const database = await scratchDatabase();
  const { db } = database;
  const credentials = { teamId: TEAM, clientId: "bench", clientSecret: "bench-secret", timeoutMs: 5_000 };
  const sandbox = await startSandboxProcess(credentials);
  const service: ServiceConfig = { ...credentials, baseUrl: sandbox.baseUrl };
  const ids: string[] = [];
  for await (const pull of iteratePulls(service)) ids.push(pull.pull_id);
  const scratch = mkdtempSync(path.join(tmpdir(), "coverdesk-bench-"));
  const count = RATE * SECONDS;
  const bodies = Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      event_type: i % 3 === 0 ? "POLICIES_AVAILABLE" : "COMPLETE",
      pull_id: ids[i % ids.length],
      status: "SUCCESS",
      data: {},
      n: i,
    }),
  );

  try {
    await db.execute(sql`create table bench_raw (id bigserial primary key, body jsonb not null)`);
    const raw = await serveBodies(async (body) => {
      await db.execute(sql`insert into bench_raw (body) values (${body}::jsonb)`);
      return 202;
    });
    // Signed like the service signs, so the receiver does all of its work.
    const now = Math.floor(Date.now() / 1000);
    const signatures = new Map(bodies.map((b) => [b, signPayload(SECRET, b, now)]));
    const app = await serveBodies(
      async (body) =>
        (await receiveWebhook(db, body, { webhookSecret: SECRET, signatureHeader: signatures.get(body) ?? null }))
          .status,
    );

    await loadInChild(raw.url, bodies.slice(0, 200), scratch); // warm-up of both paths
    await loadInChild(
      app.url,
      bodies.slice(0, 200).map((b) => b.replace('"n":', '"warm":1,"n":')),
      scratch,
    );
    await db.delete(webhookEvents);

    const baseline = await loadInChild(raw.url, bodies, scratch);
    const receiver = await loadInChild(app.url, bodies, scratch);
    await raw.close();
    await app.close();

    const started = performance.now();
    let stored = 0;
    for (;;) {
      const summary = await processDueEvents(db, (id) => fetchPullPayload(service, id), { workerId: "bench" });
      stored += summary.done;
      if (summary.claimed === 0) break;
    }
    const processSeconds = (performance.now() - started) / 1000;
    const [pullCount] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from pulls`);

    const rows = [summarize("raw INSERT (baseline)", baseline), summarize("webhook receiver", receiver)];
    console.log(`\ningest benchmark: ${count} webhooks at ${RATE}/s for ${ids.length} pulls on ${database.kind}`);
    console.table(rows);
    const processing = {
      events: stored,
      pulls: pullCount?.n ?? 0,
      seconds: Number(processSeconds.toFixed(2)),
      "pulls/s": Math.round((pullCount?.n ?? 0) / processSeconds),
    };
    console.table([processing]);
    const ratio = (rows[1]?.["p99 ms"] ?? NaN) / (rows[0]?.["p99 ms"] ?? NaN);
    console.log(`receiver p99 is ${ratio.toFixed(2)}× the raw INSERT's p99`);
    mkdirSync("bench", { recursive: true }); // results.local.json is not committed
    writeFileSync(
      "bench/results.local.json",
      JSON.stringify(
        { at: new Date().toISOString(), database: database.kind, rate: RATE, ack: rows, processing },
        null,
        2,
      ),
    );
  } finally {
    sandbox.stop();
    rmSync(scratch, { recursive: true, force: true });
    await database.close();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
