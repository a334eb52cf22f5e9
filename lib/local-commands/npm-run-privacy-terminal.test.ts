import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openConfiguredDatabase } from "@/lib/database";
import { storePull } from "@/lib/ingest/store-pull";

// `npm run privacy -- erase` on a terminal, against the embedded database no server holds (the
// script opens it itself): it lists what will go and asks; anything but "erase" erases nothing.
// The terminal is a real pseudo-terminal (util-linux `script`), so stdin.isTTY is true.

const EMAIL = "clark.kent@theplanet.com";
const fixture = JSON.parse(readFileSync("lib/service/fixtures/real/pulls/personal.json", "utf8")) as unknown;
const hasScript = await promisify(execFile)("script", ["--version"]).then(
  () => true,
  () => false,
);
let folder = "";
let pgliteDir = "";

/** Runs the command line on a pseudo-terminal, typing `answer` at its question. */
function onTerminal(args: string[], answer: string) {
  const command = ["node", "--conditions=react-server", "--import", "tsx", "scripts/privacy.ts", ...args]
    .map((part) => `'${part.replaceAll("'", "'\\''")}'`)
    .join(" ");
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn("script", ["-qec", command, "/dev/null"], {
      env: { ...process.env, DATABASE_URL: "", PGLITE_DIR: pgliteDir },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    let answered = false;
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (!answered && output.includes("Type 'erase' to confirm")) {
        answered = true;
        child.stdin.write(`${answer}\n`);
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code) => resolve({ code, output }));
  });
}

beforeAll(async () => {
  if (!hasScript) return;
  folder = await mkdtemp(path.join(tmpdir(), "coverdesk-privacy-tty-"));
  pgliteDir = path.join(folder, "pglite");
  const connection = await openConfiguredDatabase({ databaseUrl: null, databaseMigrationUrl: null, pgliteDir });
  expect((await storePull(connection.db, fixture)).outcome).toBe("created");
  await connection.close();
});
afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe.skipIf(!hasScript)("npm run privacy on a terminal", () => {
  it("asks first, and erases nothing unless told 'erase'", async () => {
    const declined = await onTerminal(["erase", "--email", EMAIL], "no");
    expect(declined.output).toContain("1 pull of this consumer (via pglite)");
    expect(declined.output).toContain("Nothing was erased.");
    expect(declined.code).toBe(1);

    const erased = await onTerminal(["erase", "--email", EMAIL], "erase");
    expect(erased.output).toMatch(/Erased 1 pulls/);
    expect(erased.code).toBe(0);

    const connection = await openConfiguredDatabase({ databaseUrl: null, databaseMigrationUrl: null, pgliteDir });
    try {
      expect(await connection.db.$count((await import("@/db/schema")).pulls)).toBe(0);
    } finally {
      await connection.close();
    }
  }, 120_000);
});
