import { spawn } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pulls, privacyRequests } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import type { ChannelServer } from "./channel-server";

// `npm run privacy -- erase --email …` beside a server that holds the embedded database: the
// command line, a child process not on a terminal (so it never asks), goes through the local
// command channel; the channel refuses anyone else.

const EMAIL = "clark.kent@theplanet.com";
const fixture = JSON.parse(readFileSync("lib/service/fixtures/real/pulls/personal.json", "utf8")) as unknown;

// The channel's server (this test process) holds a PGlite of its own folder.
const folder = await mkdtemp(path.join(tmpdir(), "coverdesk-local-commands-"));
process.env.PGLITE_DIR = path.join(folder, "pglite");
// The embedded database whatever the run's DATABASE_URL (npm-run-privacy.test.ts covers PostgreSQL).
const savedDatabaseUrl = process.env.DATABASE_URL;
delete process.env.DATABASE_URL;

/** Runs a command line (`scripts/<script>.ts`) with these variables; stdin is not a terminal. */
function runScript(script: string, args: string[], env: Record<string, string | undefined>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", `scripts/${script}.ts`, ...args],
      { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("npm run privacy beside a development server on the embedded database", () => {
  let server: ChannelServer;
  let channelFile = "";

  beforeAll(async () => {
    const { getDb } = await import("@/lib/database");
    const { channelFileFor } = await import("./channel");
    const { startChannelServer } = await import("./channel-server");
    expect((await storePull(await getDb(), fixture)).outcome).toBe("created");
    // What a development server does at start on the embedded database (lib/startup.ts).
    channelFile = channelFileFor(process.env.PGLITE_DIR ?? "");
    server = await startChannelServer(channelFile);
  });
  afterAll(async () => {
    await server?.close();
    const { closeDb } = await import("@/lib/database");
    await closeDb();
    if (savedDatabaseUrl) process.env.DATABASE_URL = savedDatabaseUrl;
  });

  it("writes the channel file for this user only, naming a port on the loopback interface alone", async () => {
    expect((await stat(channelFile)).mode & 0o777).toBe(0o600);
    const { readChannel } = await import("./channel");
    expect(await readChannel(channelFile)).toMatchObject({ port: server.port, pid: process.pid });
    const { networkInterfaces } = await import("node:os");
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === "IPv4" && !a.internal);
    if (outside) {
      const refused = await fetch(`http://${outside.address}:${server.port}/commands`, { method: "POST" }).then(
        () => false,
        () => true,
      );
      expect(refused).toBe(true);
    }
  });

  it("ignores a channel file whose process has ended", async () => {
    const { liveChannel, openChannel } = await import("./channel");
    const other = path.join(folder, "dead", "local-commands.json");
    await openChannel(1, other);
    const { writeFile, readFile } = await import("node:fs/promises");
    const written = JSON.parse(await readFile(other, "utf8")) as { pid: number };
    await writeFile(other, JSON.stringify({ ...written, pid: 2 ** 22 + 12_345 }));
    expect(await liveChannel(other)).toBeNull();
  });

  it("refuses a wrong token, a caller off this machine, an unknown command and bad input", async () => {
    const { answerLocalCommand } = await import("./route");
    const { readChannel } = await import("./channel");
    const channel = await readChannel(channelFile);
    const call = (token: string, body: unknown, from = "127.0.0.1") =>
      answerLocalCommand(
        new Request("http://127.0.0.1/api/local/commands", {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "x-forwarded-for": from, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
    const find = { command: "privacy.find", input: { email: EMAIL } };
    expect((await call("wrong-token-wrong-token-wrong-token-00", find)).status).toBe(404);
    expect((await call(channel?.token ?? "", find, "203.0.113.9")).status).toBe(404);
    expect((await call(channel?.token ?? "", { command: "drop.everything", input: {} })).status).toBe(400);
    expect(
      (await call(channel?.token ?? "", { command: "privacy.find", input: { email: "not an email" } })).status,
    ).toBe(400);
    const found = await call(channel?.token ?? "", find);
    expect(found.status).toBe(200);
    expect(((await found.json()) as { result: { pulls: unknown[] } }).result.pulls).toHaveLength(1);
  });

  it("erases through the server that holds the database, without asking", async () => {
    const run = await runScript("privacy", ["erase", "--email", EMAIL], {
      DATABASE_URL: "",
      PGLITE_DIR: process.env.PGLITE_DIR,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("via channel");
    expect(run.stdout).toMatch(/Erased 1 pulls/);
    const { getDb } = await import("@/lib/database");
    const db = await getDb();
    expect(await db.$count(pulls)).toBe(0);
    expect(await db.$count(privacyRequests)).toBe(1);
  }, 60_000);

  it("makes an API key through the same server, printed alone on the last line", async () => {
    const beside = { DATABASE_URL: "", PGLITE_DIR: process.env.PGLITE_DIR };
    const run = await runScript("api-key", ["create", "--name", "Zapier", "--scopes", "pulls:read"], beside);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const key = run.stdout.trim().split("\n").at(-1) ?? "";
    expect(key).toMatch(/^cdk_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    const { getDb } = await import("@/lib/database");
    const { authenticateApiKey } = await import("@/lib/api/keys");
    expect(await authenticateApiKey(await getDb(), key)).toMatchObject({ name: "Zapier", scopes: ["pulls:read"] });
    const refused = await runScript("api-key", ["create", "--name", "", "--scopes", "pulls:read"], beside);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^name: /);
  }, 60_000);
});
