// `npm run bench:ingest`: how fast webhooks are acknowledged and pulls processed, beside a
// raw-INSERT baseline measured in the same run on the same database.
//
// 1. Acknowledgement: an HTTP endpoint running the app's receiver (signature check, size limit,
//    envelope validation, dedup insert) under open-loop load, against one that only INSERTs the
//    body, with no worker running.
// 2. Backlog: BENCH_BACKLOG webhooks (one pull each) waiting in the inbox, as after a bulk
//    refresh, drained by BENCH_WORKERS worker processes (the app's worker loop, each with its own
//    pool, fetching each pull from the sandbox over HTTP): pulls per second, and the CPU each
//    process used per pull.
// 3. Live: the same workers running while webhooks about new pulls arrive at BENCH_RATE: the
//    receiver's latency while the workers write, how far behind the workers are when the load
//    ends, and that every event was processed (nothing lost).
// PostgreSQL only for 2 and 3 (the embedded database opens in one process); PGlite runs 1 alone.
// The sandbox and the load generator run in processes of their own, as they would in life.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { queryRows, type Connection } from "@/db/connect";
import { webhookEvents } from "@/db/schema";
import { receiveWebhook } from "@/lib/ingest/receive-webhook";
import { installSealedJsonCodec } from "@/lib/security/sealed-json-codec";
import type { ServiceConfig } from "@/lib/service/client";
import { iteratePulls } from "@/lib/service/pulls-api";
import { signPayload } from "@/lib/service/signature";
import { BENCH_TEAM, scratchDatabase, startSandboxProcess } from "./ingest-setup";
import { percentile, serveBodies, type LoadResult } from "./load";

// Sealed columns need the key ring's codec (lib/security/sealed-json-codec.ts).
installSealedJsonCodec();

const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 2000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const SECRET = "bench-webhook-secret";

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

/** CPU seconds a process has used (user + system), from /proc; 0 where there is none. */
function cpuSecondsOf(pid: number | undefined, part: "all" | "system" = "all"): number {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    // utime, stime in clock ticks; the system part is mostly the sockets (HTTP, PostgreSQL)
    return ((part === "all" ? Number(fields[11]) : 0) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds of the PostgreSQL backends serving `database` (the machine is shared: other
 * databases' work is not ours). Backends that ended meanwhile are not counted, so read it while
 * the workers' connections are still open.
 */
function postgresCpuSeconds(database: string): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (title.startsWith("postgres:") && title.includes(` ${database} `)) total += cpuSecondsOf(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

type Worker = {
  child: ChildProcess;
  cpuAtStart: number;
  systemAtStart: number;
  stop: () => Promise<Record<string, unknown>>;
};

/** A worker process on the scratch database; resolves once its loop runs. */
async function startWorkerProcess(databaseUrl: string, baseUrl: string, id: string): Promise<Worker> {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_CPU_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`] : []),
      "--conditions=react-server",
      "--import",
      "tsx",
      "bench/ingest-worker.ts",
      databaseUrl,
      baseUrl,
      id,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  child.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  for (let i = 0; !out.includes("ready\n"); i++) {
    if (i > 300 || child.exitCode !== null) throw new Error(`The worker ${id} did not start.`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    // What loading the code cost is not the pulls' work.
    cpuAtStart: cpuSecondsOf(child.pid),
    systemAtStart: cpuSecondsOf(child.pid, "system"),
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
      const last = out.trim().split("\n").at(-1) ?? "{}";
      return JSON.parse(last) as Record<string, unknown>;
    },
  };
}

async function inboxCounts(db: Connection["db"]) {
  const [row] = await queryRows<{ total: number; done: number; failed: number }>(
    db,
    sql`select count(*)::int as total, (count(*) filter (where status = 'DONE'))::int as done,
               (count(*) filter (where status = 'FAILED'))::int as failed from ${webhookEvents}`,
  );
  return row ?? { total: 0, done: 0, failed: 0 };
}

/** Waits until every event in the inbox is settled; resolves with when the last one was. */
async function drained(db: Connection["db"], timeoutMs: number): Promise<number> {
  const until = performance.now() + timeoutMs;
  for (;;) {
    const counts = await inboxCounts(db);
    if (counts.done + counts.failed >= counts.total) return performance.now();
    if (performance.now() > until) throw new Error(`The workers did not drain the inbox: ${JSON.stringify(counts)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const webhookBody = (pullId: string, n: number) =>
  JSON.stringify({
    event_type: n % 3 === 0 ? "POLICIES_AVAILABLE" : "COMPLETE",
    pull_id: pullId,
    status: "SUCCESS",
    data: {},
    n,
  });

async function main() {
  const database = await scratchDatabase();
  const { db } = database;
  const live = RATE * SECONDS;
  const credentials = { teamId: BENCH_TEAM, clientId: "bench", clientSecret: "bench-secret", timeoutMs: 5_000 };
  const sandbox = await startSandboxProcess(credentials, BACKLOG + live);
  const service: ServiceConfig = { ...credentials, baseUrl: sandbox.baseUrl };
  const ids: string[] = [];
  for await (const pull of iteratePulls(service)) ids.push(pull.pull_id);
  const scratch = mkdtempSync(path.join(tmpdir(), "coverdesk-bench-"));
  // The acknowledgement phase's bodies name pulls of the live phase; its events are cleared after.
  const liveIds = ids.slice(BACKLOG, BACKLOG + live);
  const ackBodies = Array.from({ length: live }, (_, i) => webhookBody(liveIds[i % liveIds.length] as string, i));
  const now = Math.floor(Date.now() / 1000);
  const signatures = new Map<string, string>();
  const receive = (body: string) =>
    receiveWebhook(db, body, {
      webhookSecret: SECRET,
      signatureHeader: signatures.get(body) ?? signPayload(SECRET, body, now),
    });
  const workers: Worker[] = [];

  try {
    await db.execute(sql`create table bench_raw (id bigserial primary key, body jsonb not null)`);
    const raw = await serveBodies(async (body) => {
      await db.execute(sql`insert into bench_raw (body) values (${body}::jsonb)`);
      return 202;
    });
    // Signed like the service signs, so the receiver does all of its work.
    for (const body of ackBodies) signatures.set(body, signPayload(SECRET, body, now));
    const app = await serveBodies(async (body) => (await receive(body)).status);

    await loadInChild(raw.url, ackBodies.slice(0, 200), scratch); // warm-up of both paths
    await loadInChild(
      app.url,
      ackBodies.slice(0, 200).map((b) => b.replace('"n":', '"warm":1,"n":')),
      scratch,
    );
    await db.delete(webhookEvents);
    const baseline = await loadInChild(raw.url, ackBodies, scratch);
    const receiver = await loadInChild(app.url, ackBodies, scratch);
    await db.delete(webhookEvents);
    const ackRows = [
      summarize("raw INSERT (baseline)", baseline),
      summarize("webhook receiver, workers idle", receiver),
    ];
    console.log(`\ningest benchmark on ${database.kind}: acknowledgement, ${live} webhooks at ${RATE}/s`);
    console.table(ackRows);

    const results: Record<string, unknown> = {
      at: new Date().toISOString(),
      database: database.kind,
      rate: RATE,
      ack: ackRows,
    };
    if (!database.url) {
      console.log("Processing needs PostgreSQL (DATABASE_URL): the embedded database opens in one process.");
    } else {
      // 2. A backlog, as a bulk refresh leaves it, drained by the worker processes.
      for (const [i, id] of ids.slice(0, BACKLOG).entries()) await receive(webhookBody(id, i));
      const databaseName = new URL(database.url).pathname.slice(1);
      const cpuBefore = { postgres: postgresCpuSeconds(databaseName), sandbox: cpuSecondsOf(sandbox.pid) };
      const started = performance.now();
      for (let i = 0; i < WORKERS; i++)
        workers.push(await startWorkerProcess(database.url, sandbox.baseUrl, `bench-worker-${i + 1}`));
      const finished = await drained(db, 300_000);
      const seconds = (finished - started) / 1000;
      const workerCpu = workers.reduce((sum, w) => sum + cpuSecondsOf(w.child.pid) - w.cpuAtStart, 0);
      const workerSystem = workers.reduce((sum, w) => sum + cpuSecondsOf(w.child.pid, "system") - w.systemAtStart, 0);
      const [stored] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from pulls`);
      const counts = await inboxCounts(db);
      const perPullMs = (cpu: number) => Number(((cpu * 1000) / BACKLOG).toFixed(2));
      const backlog = {
        workers: WORKERS,
        events: counts.total,
        done: counts.done,
        failed: counts.failed,
        "pulls stored": stored?.n ?? 0,
        seconds: Number(seconds.toFixed(2)),
        "pulls/s": Math.round((stored?.n ?? 0) / seconds),
        "CPU ms/pull: workers": perPullMs(workerCpu),
        "of which kernel": perPullMs(workerSystem),
        "CPU ms/pull: postgres": perPullMs(postgresCpuSeconds(databaseName) - cpuBefore.postgres),
        "CPU ms/pull: sandbox": perPullMs(cpuSecondsOf(sandbox.pid) - cpuBefore.sandbox),
      };
      console.log(`\nbacklog: ${BACKLOG} webhooks about ${BACKLOG} pulls, drained by ${WORKERS} worker processes`);
      console.table([backlog]);

      // 3. Webhooks arriving at RATE while the same workers keep up.
      const liveBodies = liveIds.map((id, i) => webhookBody(id, BACKLOG + i));
      for (const body of liveBodies) signatures.set(body, signPayload(SECRET, body, now));
      const app2 = await serveBodies(async (body) => (await receive(body)).status);
      const loadStarted = performance.now();
      const underLoad = await loadInChild(app2.url, liveBodies, scratch);
      const loadEnded = loadStarted + underLoad.seconds * 1000;
      const caughtUp = await drained(db, 300_000);
      await app2.close();
      const after = await inboxCounts(db);
      const [storedAfter] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from pulls`);
      const liveRow = {
        ...summarize(`webhook receiver, ${WORKERS} workers busy`, underLoad),
        "events in": after.total - counts.total,
        processed: after.done - counts.done,
        failed: after.failed - counts.failed,
        "pulls stored": (storedAfter?.n ?? 0) - (stored?.n ?? 0),
        "behind at end, s": Number((Math.max(0, caughtUp - loadEnded) / 1000).toFixed(2)),
        "pulls/s": Math.round(((storedAfter?.n ?? 0) - (stored?.n ?? 0)) / ((caughtUp - loadStarted) / 1000)),
      };
      console.log(`\nlive: ${live} webhooks about new pulls at ${RATE}/s while ${WORKERS} workers process them`);
      console.table([liveRow]);
      const lost =
        liveRow["events in"] - liveRow.processed - liveRow.failed + (backlog.events - backlog.done - backlog.failed);
      console.log(lost === 0 ? "nothing lost: every event in was processed" : `LOST ${lost} events`);
      Object.assign(results, { backlog, live: liveRow, lost });
    }
    await raw.close();
    await app.close();
    mkdirSync("bench", { recursive: true }); // results.local.json is not committed
    writeFileSync("bench/results.local.json", JSON.stringify(results, null, 2));
  } finally {
    const stops = await Promise.all(workers.map((w) => w.stop().catch((): Record<string, unknown> => ({}))));
    if (stops.some((s) => Number(s.failedCycles ?? 0) > 0)) console.log("worker cycles failed:", stops);
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
