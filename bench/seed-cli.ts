// `npm run bench:seed`: seeds the benchmark's book alone (BENCH_PULLS, default 100,000; seed
// BENCH_SEED, default 1; day BENCH_NOW, default today) into DATABASE_URL's server (database
// BENCH_DB_NAME, default coverdesk_bench) or, without DATABASE_URL, a PGlite folder
// (BENCH_PGLITE_DIR, default .data/bench-pglite). Reuses a database that holds the same book
// unless BENCH_RESEED=1.
import { benchTarget, seededTarget } from "./database";

export function seedSettings() {
  const day = process.env.BENCH_NOW ?? new Date().toISOString().slice(0, 10);
  return {
    count: Number(process.env.BENCH_PULLS ?? 100_000),
    seed: Number(process.env.BENCH_SEED ?? 1),
    now: new Date(`${day}T00:00:00Z`),
  };
}

async function main() {
  const target = benchTarget();
  await seededTarget(target, seedSettings(), (line) => console.log(`[seed] ${line}`));
}

if (process.argv[1]?.endsWith("seed-cli.ts")) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
