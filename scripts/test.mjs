// `npm test`: type-check, lint, unit and integration tests, build, end-to-end tests.
// Every step runs even when an earlier one fails, and the run ends with one plain line
// "N passed, N failed" that adds up the test counts of every step.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { findChromium } from "./find-chromium.mjs";
import { withE2eDatabase } from "./e2e-database.mjs";

const only = process.argv.slice(2); // e.g. `npm test -- unit e2e`
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = []; // "failed › …" lines, repeated above the summary so a log's tail names them

function run(name, command, args, env = {}) {
  return new Promise((resolve) => {
    console.log(`\n▶ ${name}: ${command} ${args.join(" ")}`);
    let tail = "";
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...env } });
    let all = "";
    child.stdout.on("data", (chunk) => {
      process.stdout.write(chunk);
      tail = (tail + chunk.toString()).slice(-4000);
      all += chunk.toString();
    });
    child.on("close", (code) => {
      failures.push(...all.split("\n").filter((line) => line.startsWith("failed › ")));
      resolve({ code: code ?? 1, tail });
    });
  });
}

/** Reads the "<word>: N passed, N failed, N skipped" line our reporters print. */
function countsFrom(tail) {
  const match = [...tail.matchAll(/(\d+) passed, (\d+) failed(?:, (\d+) skipped)?/g)].pop();
  return match ? { passed: Number(match[1]), failed: Number(match[2]), skipped: Number(match[3] ?? 0) } : null;
}

async function step(name, command, args, env) {
  if (only.length > 0 && !only.includes(name)) return;
  const { code, tail } = await run(name, command, args, env);
  const counts = countsFrom(tail);
  if (counts) {
    totals.passed += counts.passed;
    totals.failed += counts.failed;
    totals.skipped += counts.skipped;
  }
  // A step without tests (type-check, lint, build) counts as one check.
  if (!counts) totals[code === 0 ? "passed" : "failed"] += 1;
  else if (code !== 0 && counts.failed === 0) totals.failed += 1; // failed outside any test
  if (code !== 0 && (!counts || counts.failed === 0)) failures.push(`failed › ${name} (exit ${code})`);
  console.log(`◀ ${name}: ${code === 0 ? "ok" : `FAILED (exit ${code})`}`);
}

const npx = process.platform === "win32" ? "npx.cmd" : "npx";
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
await step("typecheck", npx, ["tsc", "--noEmit"]);
await step("lint", npm, ["run", "lint"]);
await step("unit", npx, ["vitest", "run"]);

if (only.length === 0 || only.includes("e2e") || only.includes("build")) {
  const chromium = await findChromium();
  const secret = randomBytes(24).toString("hex");
  await withE2eDatabase(async (databaseEnv) => {
    const e2eEnv = {
      ...databaseEnv,
      // The production build, served in test mode: production refuses the sandbox's plain http,
      // the demo users and the embedded database, which these tests run on.
      NODE_ENV: "test",
      COVERDESK_TEST_MODE: "true",
      CHROMIUM_PATH: chromium,
      NEXTAUTH_SECRET: secret,
    };
    // The build sees the secrets the e2e server runs with, so that e2e/secrets.spec.ts would find
    // any that a client bundle inlined at build time.
    const serviceEnv = JSON.parse(readFileSync("e2e/service-env.json", "utf8"));
    await step("build", npx, ["next", "build"], { NODE_ENV: "production", NEXTAUTH_SECRET: secret, ...serviceEnv });
    await step("e2e", npx, ["playwright", "test"], e2eEnv);
  });
}

if (failures.length > 0) console.log(`\n${failures.slice(0, 40).join("\n")}`);
console.log(`\nsummary: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
