// `npm run bench:sandbox`: how long the sandbox takes to generate a book of pulls, and the
// memory it holds, so demos and load tests with 10,000+ pulls start quickly.
import { generatePulls } from "@/sandbox/data/pulls";

const COUNT = Number(process.env.BENCH_PULLS ?? 10_000);
const runs: number[] = [];
let heapMb = 0;
for (let i = 0; i < 3; i++) {
  const before = process.memoryUsage().heapUsed;
  const started = performance.now();
  const pulls = generatePulls(42, COUNT, new Date("2026-11-01T00:00:00Z"));
  runs.push(performance.now() - started);
  heapMb = Math.max(heapMb, (process.memoryUsage().heapUsed - before) / 1_048_576);
  if (pulls.length !== COUNT) throw new Error("wrong count");
}
console.table([
  {
    pulls: COUNT,
    "best ms": Math.round(Math.min(...runs)),
    "median ms": Math.round([...runs].sort((a, b) => a - b)[1] ?? 0),
    "heap MB": Math.round(heapMb),
  },
]);
