// Two ways of computing the same figures, timed alternately in one run (bench:reports,
// bench:xdates): alternating puts both sides under the same load, which on a shared machine
// matters more than the number of runs. BENCH_ITERATIONS and BENCH_WARMUP set the runs.
import { percentile } from "./load";

export const iterationsOr = (fallback: number) => Number(process.env.BENCH_ITERATIONS ?? fallback);
export const warmupOr = (fallback: number) => Number(process.env.BENCH_WARMUP ?? fallback);

export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

export const stats = (values: number[]) => ({
  p50: Number(percentile(values, 50).toFixed(1)),
  p95: Number(percentile(values, 95).toFixed(1)),
});

/** `before` and `after`, each run `iterations` times, alternately, after `warmup` unmeasured runs of each. */
export async function compare(
  label: string,
  before: () => Promise<unknown>,
  after: () => Promise<unknown>,
  { iterations, warmup }: { iterations: number; warmup: number },
) {
  for (let i = 0; i < warmup; i++) {
    await before();
    await after();
  }
  const b: number[] = [];
  const a: number[] = [];
  for (let i = 0; i < iterations; i++) {
    b.push(await timed(before));
    a.push(await timed(after));
  }
  const sb = stats(b);
  const sa = stats(a);
  return {
    what: label,
    "before p50": sb.p50,
    "before p95": sb.p95,
    "after p50": sa.p50,
    "after p95": sa.p95,
    "p95 before/after": Number((sb.p95 / Math.max(sa.p95, 0.1)).toFixed(1)),
  };
}
