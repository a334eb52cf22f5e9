import { execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { storePull } from "@/lib/ingest/store-pull";
import { createTestDatabase } from "@/test/database";

// The check of an erasure as an operator makes it on PostgreSQL: the service's published example
// pull stored, `npm run privacy -- erase --email …` run as a child process not on a terminal (so
// it never asks), then a pg_dump of the whole database, pg-boss's tables included, read for the
// email and the VIN.

const EMAIL = "clark.kent@theplanet.com";
const VIN = "1G1FK1R62J0158884";
const fixture = JSON.parse(readFileSync("lib/service/fixtures/real/pulls/personal.json", "utf8")) as unknown;
const savedDatabaseUrl = process.env.DATABASE_URL;

function runPrivacy(args: string[], env: Record<string, string | undefined>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "scripts/privacy.ts", ...args],
      { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe.skipIf(!savedDatabaseUrl)("npm run privacy on PostgreSQL", () => {
  it("erases the consumer by email without asking, and a dump of the database holds neither email nor VIN", async () => {
    const database = await createTestDatabase();
    try {
      expect((await storePull(database.db, fixture)).outcome).toBe("created");
      const url = new URL(savedDatabaseUrl ?? "");
      url.pathname = `/${database.name}`;
      const dump = async () =>
        (await promisify(execFile)("pg_dump", [url.toString()], { maxBuffer: 64 * 1024 * 1024 })).stdout;
      expect(await dump()).toContain(EMAIL);

      const run = await runPrivacy(["erase", "--email", EMAIL], { DATABASE_URL: url.toString() });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("via postgres");
      expect(run.stdout).toMatch(/Erased 1 pulls/);
      const after = await dump();
      expect(after.toLowerCase()).not.toContain(EMAIL);
      expect(after.toUpperCase()).not.toContain(VIN);

      const again = await runPrivacy(["erase", "--email", EMAIL], { DATABASE_URL: url.toString() });
      expect(again.code).toBe(1);
      expect(again.stdout).toContain("No consumer matches");
    } finally {
      await database.close();
    }
  }, 120_000);
});
