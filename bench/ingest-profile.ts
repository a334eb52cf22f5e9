// `npm run bench:ingest:profile`: where one pull's time goes on its way in, one pull at a time
// so that no stage hides behind another: the fetch from the sandbox over HTTP, reading it
// (envelope, zod, projection, content hash), sealing its sensitive fields, and the store
// transaction, with the statements that transaction sends. Then the sandbox's own ceiling: how
// many pulls a second it serves with many fetches in flight.
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "@/db/schema";
import type { Db } from "@/db/types";
import { storePull } from "@/lib/ingest/store-pull";
import { contentHash, projectPolicies, projectPull } from "@/lib/pulls/projection";
import { installSealedJsonCodec } from "@/lib/security/sealed-json-codec";
import { sealSensitive } from "@/lib/security/sensitive-fields";
import type { ServiceConfig } from "@/lib/service/client";
import { fetchPullPayload, iteratePulls } from "@/lib/service/pulls-api";
import { parsePull, unwrapPull } from "@/lib/service/schemas";
import { percentile } from "./load";
import { BENCH_TEAM, scratchDatabase, startSandboxProcess } from "./ingest-setup";

installSealedJsonCodec();

const PULLS = Number(process.env.BENCH_PULLS ?? 300);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 16);

const row = (label: string, values: number[]) => ({
  stage: label,
  "p50 ms": Number(percentile(values, 50).toFixed(2)),
  "p99 ms": Number(percentile(values, 99).toFixed(2)),
  "mean ms": Number((values.reduce((a, b) => a + b, 0) / Math.max(values.length, 1)).toFixed(2)),
});

async function main() {
  const database = await scratchDatabase();
  if (!database.url) throw new Error("The profile counts statements on PostgreSQL: set DATABASE_URL.");
  const credentials = { teamId: BENCH_TEAM, clientId: "bench", clientSecret: "bench-secret", timeoutMs: 5_000 };
  const sandbox = await startSandboxProcess(credentials, PULLS);
  const service: ServiceConfig = { ...credentials, baseUrl: sandbox.baseUrl };
  let statements = 0;
  const client = postgres(database.url, { max: 4, onnotice: () => {} });
  const db = drizzle(client, {
    schema,
    casing: "snake_case",
    logger: { logQuery: () => void statements++ },
  }) as unknown as Db;
  try {
    const ids: string[] = [];
    for await (const pull of iteratePulls(service)) ids.push(pull.pull_id);
    const times = {
      fetch: [] as number[],
      read: [] as number[],
      seal: [] as number[],
      store: [] as number[],
      again: [] as number[],
    };
    const counts = { created: [] as number[], unchanged: [] as number[] };
    let bytes = 0;
    for (const id of ids) {
      let t = performance.now();
      const payload = await fetchPullPayload(service, id);
      times.fetch.push(performance.now() - t);
      bytes += JSON.stringify(payload).length;
      t = performance.now();
      const raw = unwrapPull(payload);
      const parsed = parsePull(raw);
      if (!parsed.ok) throw new Error(parsed.error);
      contentHash(raw);
      projectPull(parsed.pull);
      projectPolicies(parsed.pull);
      times.read.push(performance.now() - t);
      t = performance.now();
      sealSensitive(raw);
      times.seal.push(performance.now() - t);
      statements = 0;
      t = performance.now();
      await storePull(db, payload, { fetchStartedAt: new Date() });
      times.store.push(performance.now() - t);
      counts.created.push(statements);
      statements = 0;
      t = performance.now();
      await storePull(db, payload, { fetchStartedAt: new Date() });
      times.again.push(performance.now() - t);
      counts.unchanged.push(statements);
    }
    // The sandbox's ceiling: every pull fetched again, IN_FLIGHT at a time.
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < ids.length) await fetchPullPayload(service, ids[next++] as string);
      }),
    );
    const sandboxPerSecond = Math.round(ids.length / ((performance.now() - started) / 1000));

    console.log(
      `\ningest profile: ${ids.length} pulls one at a time, ${Math.round(bytes / ids.length / 1024)} kB each on average`,
    );
    console.table([
      row("fetch from the sandbox (HTTP)", times.fetch),
      row("read: envelope, zod, projection, hash", times.read),
      row("seal sensitive fields", times.seal),
      row("store transaction (new pull)", times.store),
      row("store transaction (same pull again)", times.again),
    ]);
    const mean = (v: number[]) => (v.reduce((a, b) => a + b, 0) / v.length).toFixed(1);
    console.log(
      `statements per store: ${mean(counts.created)} for a new pull (max ${Math.max(...counts.created)}), ${mean(counts.unchanged)} for an unchanged one`,
    );
    console.log(`the sandbox serves ${sandboxPerSecond} pulls/s with ${IN_FLIGHT} fetches in flight`);
  } finally {
    sandbox.stop();
    await client.end({ timeout: 5 });
    await database.close();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
