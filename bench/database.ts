// Where the benchmark's book lives: a PostgreSQL database of its own on the server of
// DATABASE_URL (created fresh, or reused when it already holds the same book), or a PGlite folder.
import { existsSync, rmSync } from "node:fs";
import os from "node:os";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { openDatabase, queryRows, type Connection } from "@/db/connect";
import { installSealedJsonCodec } from "@/lib/security/sealed-json-codec";
import { seedDatabase, type SeedOptions, type SeedSummary } from "./seed";
import { phaseLines } from "./seed-timings";

// Sealed columns need the key ring's codec (lib/security/sealed-json-codec.ts).
installSealedJsonCodec();

export type BenchTarget = { kind: "postgres"; url: string; name: string } | { kind: "pglite"; dir: string };

/** A book's own database: coverdesk_bench for 100,000 pulls, coverdesk_bench_10k, coverdesk_bench_1m… for others. */
export function bookDatabaseName(count: number): string {
  if (count === 100_000) return "coverdesk_bench";
  const short =
    count % 1_000_000 === 0 ? `${count / 1_000_000}m` : count % 1_000 === 0 ? `${count / 1_000}k` : String(count);
  return `coverdesk_bench_${short}`;
}

/** Where a book of `count` pulls lives; BENCH_DB_NAME / BENCH_PGLITE_DIR name it explicitly. */
export function benchTarget(count = Number(process.env.BENCH_PULLS ?? 100_000)): BenchTarget {
  const base = process.env.DATABASE_URL;
  if (base) {
    const name = process.env.BENCH_DB_NAME ?? bookDatabaseName(count);
    const url = new URL(base);
    url.pathname = `/${name}`;
    return { kind: "postgres", url: url.toString(), name };
  }
  return {
    kind: "pglite",
    dir: process.env.BENCH_PGLITE_DIR ?? (count === 100_000 ? ".data/bench-pglite" : `.data/bench-pglite-${count}`),
  };
}

/** The book's identity, kept in the database so a rerun can reuse it. */
const marker = (count: number, seed: number, now: string) => `${count}:${seed}:${now}`;

async function readMarker(connection: Connection): Promise<string | null> {
  try {
    const rows = await queryRows<{ value: string }>(connection.db, sql`select value from bench_seed_marker limit 1`);
    return rows[0]?.value ?? null;
  } catch {
    return null;
  }
}

export async function openTarget(target: BenchTarget): Promise<Connection> {
  return target.kind === "postgres"
    ? openDatabase({ kind: "postgres", url: target.url, maxConnections: 4 })
    : openDatabase({ kind: "pglite", dir: target.dir });
}

async function recreate(target: BenchTarget): Promise<void> {
  if (target.kind === "pglite") {
    if (existsSync(target.dir)) rmSync(target.dir, { recursive: true, force: true });
    return;
  }
  const admin = postgres(process.env.DATABASE_URL as string, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists ${target.name} with (force)`);
    await admin.unsafe(`create database ${target.name}`);
  } finally {
    await admin.end();
  }
}

/**
 * A seeded book: reused when the database already holds the same (count, seed, day) and
 * BENCH_RESEED is not set, seeded into a fresh database otherwise.
 */
export async function seededTarget(
  target: BenchTarget,
  options: SeedOptions & { now: Date; seed: number },
  log: (line: string) => void,
): Promise<{ reused: boolean; summary: SeedSummary | null }> {
  const wanted = marker(options.count, options.seed, options.now.toISOString());
  if (!process.env.BENCH_RESEED) {
    const exists = target.kind === "pglite" ? existsSync(target.dir) : true;
    if (exists) {
      const connection = await openTarget(target).catch(() => null);
      if (connection) {
        const found = await readMarker(connection);
        await connection.close();
        // Without BENCH_NOW the day is the day the run starts: a book seeded the day before (a run
        // that crossed midnight UTC, or yesterday's) is the same book a day older, not worth
        // dropping and seeding again (35 minutes at a million pulls). BENCH_NOW asks for that day.
        const sameBook = (m: string | null) => m?.split(":").slice(0, 2).join(":");
        const anyDay = process.env.BENCH_NOW === undefined && found !== null && sameBook(found) === sameBook(wanted);
        if (found === wanted || anyDay) {
          log(
            `reusing the seeded book in ${target.kind === "postgres" ? target.name : target.dir} (${found}); BENCH_RESEED=1 to seed again, BENCH_NOW=<day> to seed for another day`,
          );
          return { reused: true, summary: null };
        }
      }
    }
  }
  await recreate(target);
  const connection = await openTarget(target);
  try {
    let last = 0;
    const started = performance.now();
    const summary = await seedDatabase(connection.db, {
      ...options,
      onProgress: (done, total) => {
        if (done - last >= total / 20 || done === total) {
          last = done;
          const seconds = (performance.now() - started) / 1000;
          log(
            `seeded ${done.toLocaleString("en-US")} / ${total.toLocaleString("en-US")} pulls (${seconds.toFixed(0)} s, ${Math.round(done / seconds)} pulls/s)`,
          );
        }
      },
    });
    await connection.db.execute(sql`create table if not exists bench_seed_marker (value text not null)`);
    await connection.db.execute(sql`insert into bench_seed_marker (value) values (${wanted})`);
    log(
      `seeded ${summary.pulls} pulls, ${summary.policies} policies, ${summary.auditEvents} audit events, ${summary.monitorings} monitorings in ${summary.seconds.toFixed(0)} s (${Math.round(summary.pulls / summary.seconds)} pulls/s; load ${summary.phases.load.toFixed(0)} s, indexes ${summary.phases.indexes.toFixed(0)} s, vacuum ${summary.phases.vacuum.toFixed(0)} s)`,
    );
    log("where the time went (the workers' steps summed over their threads):");
    for (const line of phaseLines(summary.timings)) log(line);
    // The machine may be shared: the load beside the figures says how far to trust them.
    log(
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(", ")} on ${os.cpus().length} cores`,
    );
    return { reused: false, summary };
  } finally {
    await connection.close();
  }
}
