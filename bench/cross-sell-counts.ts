// The cross-sell page's counts kept ahead (migration 0050) against the scan they replace, on a
// seeded book (BENCH_PULLS / BENCH_DB_NAME as for `npm run bench`):
//   node --conditions=react-server --import tsx bench/cross-sell-counts.ts compare
//     "before" (the scan, with the page's rows and agent choices beside it, as the loader ran them)
//     and "after" (loadCrossSellPage as it now is), as the admin, alternating, after a warm-up;
//     then EXPLAIN (ANALYZE, BUFFERS) of each statement of both. Needs the migrated book.
//   node --conditions=react-server --import tsx bench/cross-sell-counts.ts explain-before
//     the "before" statements only, EXPLAINed: read-only, for a book that must not be migrated.
// No HTTP, no rendering; the machine is shared, so compare the two sides of one run.
import type { Db } from "@/db/types";
import type { Actor } from "@/lib/core/actor";
import { listAgentChoices } from "@/lib/pulls/visibility";
import { parseCrossSellQuery } from "@/lib/cross-sell/list-query";
import { countCrossSellByScan, listCrossSell, CROSS_SELL_PAGE_SIZE } from "@/lib/cross-sell/queries";
import { loadCrossSellPage } from "@/lib/loaders/cross-sell";
import { pageSlice } from "@/lib/url/page-number";
import { benchTarget } from "./database";
import { percentile } from "./load";
import { SEED_DEMO_IDS } from "./seed";
import { openCaptureDb } from "./sql-capture";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 20);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);

const admin: Actor = { id: SEED_DEMO_IDS["admin@example.com"] as string, name: "Avery Admin", role: "ADMIN" };

/** The bench's cross-sell rows (bench/run.ts) as the admin sees them, and a rare gap's page. */
const QUERIES: Array<[string, string]> = [
  ["all households", ""],
  ["one gap", "gap=NO_FLOOD"],
  ["1 policy, one gap", "policies=1&gap=AUTO_NO_HOME"],
  ["unassigned, WORKING", "agent=unassigned&stage=WORKING"],
  ["rare gap, page 3", `gap=${process.env.RARE_GAP ?? "MULTI_CARRIER"}&page=3`],
];

const paramsOf = (qs: string) => Object.fromEntries(new URLSearchParams(qs));

/** The page as the loader computed it before the kept counts: the scan beside the rows and the agents. */
async function before(db: Db, qs: string): Promise<unknown> {
  const { query } = parseCrossSellQuery(paramsOf(qs));
  const viewer = { kind: "all" } as const;
  return Promise.all([
    countCrossSellByScan(db, viewer, query),
    listCrossSell(db, viewer, query, pageSlice(query.page ?? 1, CROSS_SELL_PAGE_SIZE)),
    listAgentChoices(db, viewer),
  ]);
}

const after = (db: Db, qs: string) => loadCrossSellPage(db, admin, paramsOf(qs));

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const stats = (values: number[]) =>
  `p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms`;

async function main() {
  const mode = process.argv[2] ?? "compare";
  const target = benchTarget();
  const capture = await openCaptureDb(target);
  try {
    console.log(`book: ${target.kind === "postgres" ? target.name : target.dir}, ${ITERATIONS} runs each`);
    const sides: Array<[string, (db: Db, qs: string) => Promise<unknown>]> =
      mode === "explain-before"
        ? [["before", before]]
        : [
            ["before", before],
            ["after", after],
          ];
    if (mode === "compare")
      for (const [label, qs] of QUERIES) {
        for (let i = 0; i < WARMUP; i++) for (const [, run] of sides) await run(capture.db, qs);
        const times = sides.map(() => [] as number[]);
        for (let i = 0; i < ITERATIONS; i++)
          for (const [s, [, run]] of sides.entries()) times[s]?.push(await timed(() => run(capture.db, qs)));
        console.log(`${label}: ${sides.map(([side], s) => `${side} ${stats(times[s] ?? [])}`).join("; ")}`);
      }
    for (const [label, qs] of QUERIES)
      for (const [side, run] of sides) {
        const statements = await capture.capture((db) => run(db, qs));
        for (const statement of statements) {
          const plan = await capture.explain(statement);
          console.log(`\n== ${label} (${side}) ==\n${statement.query}\n-- ${JSON.stringify(statement.params)}`);
          console.log(plan.join("\n"));
        }
      }
  } finally {
    await capture.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
