// `npm run bench:replicas`: what a streaming replica costs and gives, on the benchmark's book
// (bench:seed; BENCH_PULLS, default 100,000) on DATABASE_URL's server and its copy on the
// replica named by TEST_REPLICA_URL (any database; the book's name replaces it).
//
// Prints, in plain lines: the reports page's loader on the primary and on the replica (median
// of BENCH_REPEAT runs), the same with a write load on the primary, the replica's lag in bytes
// and seconds sampled every 100 ms under that load, and what read-your-writes adds (the
// primary's position after a write; the replica's replay position when not cached).
// The load adds BENCH_WRITES pulls to the book: give the run a book of its own (BENCH_DB_NAME).
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { storePull } from "@/lib/ingest/store-pull";
import { loadReportsPage } from "@/lib/loaders/reports";
import { currentWalPosition } from "@/lib/replicas/own-writes";
import { replicaReads } from "@/lib/replicas/read-routing";
import { getReplicaLag } from "@/lib/replicas/replica-lag";
import { openReplicaSet } from "@/lib/replicas/replica-set";
import { walOffset } from "@/lib/replicas/wal-position";
import { generatePulls } from "@/sandbox/data/pulls";
import { benchTarget, openTarget } from "./database";

const repeat = Number(process.env.BENCH_REPEAT ?? 9);
const writers = Number(process.env.BENCH_WRITERS ?? 4);
const writes = Number(process.env.BENCH_WRITES ?? 2_000);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function timed(run: () => Promise<unknown>, times = repeat): Promise<number[]> {
  const spent: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    await run();
    spent.push(performance.now() - start);
  }
  return spent;
}

async function main() {
  const replicaServer = process.env.TEST_REPLICA_URL;
  if (!process.env.DATABASE_URL || !replicaServer) throw new Error("set DATABASE_URL and TEST_REPLICA_URL");
  const target = benchTarget();
  if (target.kind !== "postgres") throw new Error("PostgreSQL only");
  const primary = await openTarget(target);
  const replicaUrl = new URL(replicaServer);
  replicaUrl.pathname = `/${target.name}`;
  const set = openReplicaSet([replicaUrl.toString()], { maxConnections: 4 });
  const [replica] = set.replicas;
  if (!replica) throw new Error("no replica");
  const readDb: Db = replicaReads(primary.db, replica.db);
  const [{ pulls } = { pulls: 0 }] = await queryRows<{ pulls: number }>(
    primary.db,
    sql`select count(*)::int as pulls from pulls`,
  );
  console.log(`book: ${pulls} pulls in ${target.name}; replica ${replica.label}`);

  const report = (db: Db) => () => loadReportsPage(db, {});
  await report(primary.db)();
  await report(readDb)(); // warm both caches
  const idlePrimary = median(await timed(report(primary.db)));
  const idleReplica = median(await timed(report(readDb)));
  console.log(`reports page, idle: primary ${ms(idlePrimary)}, replica ${ms(idleReplica)} (median of ${repeat})`);

  // Read-your-writes' own costs.
  const position = median(await timed(() => currentWalPosition(primary.db), 50));
  const probe = median(
    await timed(() => queryRows(replica.db, sql`select pg_last_wal_replay_lsn()::text as replayed`), 50),
  );
  console.log(
    `pg_current_wal_lsn() on the primary: ${ms(position)}; pg_last_wal_replay_lsn() on the replica: ${ms(probe)}`,
  );

  // How soon one write, at rest, is on the replica: what a user who wrote waits on the primary.
  const single = generatePulls(4343, 20, new Date()).filter((p) => !p.parent_pull_id);
  const visible: number[] = [];
  for (const pull of single) {
    await storePull(primary.db, pull);
    const written = walOffset(await currentWalPosition(primary.db)) ?? 0n;
    const start = performance.now();
    for (;;) {
      const [row] = await queryRows<{ replayed: string }>(
        replica.db,
        sql`select pg_last_wal_replay_lsn()::text as replayed`,
      );
      if ((walOffset(row?.replayed ?? "") ?? -1n) >= written) break;
    }
    visible.push(performance.now() - start);
  }
  console.log(
    `one write, at rest, replayed on the replica after: median ${ms(median(visible))}, max ${ms(Math.max(...visible))} (${visible.length} writes)`,
  );

  // A write load: new pulls stored as the worker stores them, `writers` at a time.
  const book = generatePulls(4242, writes, new Date()).filter((p) => !p.parent_pull_id);
  let next = 0;
  let stored = 0;
  let done = false;
  const started = performance.now();
  const load = Promise.all(
    Array.from({ length: writers }, async () => {
      for (let pull = book[next++]; pull; pull = book[next++]) {
        await storePull(primary.db, pull);
        stored++;
      }
    }),
  ).finally(() => {
    done = true;
  });
  const samples: Array<{ bytes: number; seconds: number }> = [];
  const sampling = (async () => {
    while (!done) {
      const [lag] = await getReplicaLag(primary.db, set);
      if (lag?.reachable) samples.push({ bytes: lag.lagBytes ?? 0, seconds: lag.lagSeconds ?? 0 });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const loadedPrimary = median(await timed(report(primary.db), Math.max(3, Math.floor(repeat / 2))));
  const loadedReplica = median(await timed(report(readDb), Math.max(3, Math.floor(repeat / 2))));
  await load;
  await sampling;
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `write load: ${stored} pulls stored by ${writers} writers in ${seconds.toFixed(1)} s (${(stored / seconds).toFixed(0)}/s)`,
  );
  console.log(`reports page under that load: primary ${ms(loadedPrimary)}, replica ${ms(loadedReplica)}`);
  const bytes = samples.map((s) => s.bytes);
  const secs = samples.map((s) => s.seconds);
  console.log(
    `replica lag under that load (${samples.length} samples): bytes median ${median(bytes)}, max ${Math.max(...bytes)}; seconds median ${median(secs).toFixed(3)}, max ${Math.max(...secs).toFixed(3)}`,
  );

  await set.close();
  await primary.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
