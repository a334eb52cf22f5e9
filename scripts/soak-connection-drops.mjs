// `npm run soak:connection-drops [-- RUNS]`: the database-outage test and the driver's
// connection-drop reproduction, run RUNS times in a row (20 by default) on PostgreSQL, each run
// in a fresh Vitest process. They are timing-sensitive by nature, so one green run proves
// little; this is the evidence that they hold run after run. Not part of `npm test`.
import { spawnSync } from "node:child_process";

const runs = Number(process.argv[2] ?? 20);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`soak: RUNS must be a positive whole number, not "${process.argv[2]}"`);
  process.exit(2);
}
const databaseUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const files = ["lib/ingest/database-outage.test.ts", "db/connection-drop.test.ts"];
const npx = process.platform === "win32" ? "npx.cmd" : "npx";

let green = 0;
const failures = [];
for (let run = 1; run <= runs; run++) {
  const started = Date.now();
  const result = spawnSync(npx, ["vitest", "run", ...files], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: "utf8",
    timeout: 5 * 60_000,
  });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  const summary = output.match(/unit: (\d+) passed, (\d+) failed, (\d+) skipped/);
  const passed = Number(summary?.[1] ?? 0);
  const ok = result.status === 0 && passed === 4 && !/Unhandled|uncaught/i.test(output);
  const outage = output.match(/\[outage\][^\n]*/)?.[0] ?? "";
  console.log(
    `run ${run}/${runs}: ${ok ? "green" : "RED"} in ${((Date.now() - started) / 1000).toFixed(1)} s ${outage}`,
  );
  if (ok) green++;
  else failures.push({ run, output: output.slice(-3000) });
}
for (const failure of failures) console.log(`\n--- run ${failure.run} ---\n${failure.output}`);
console.log(`\nsoak: ${green} of ${runs} runs green`);
process.exit(green === runs ? 0 : 1);
