// The end-to-end tests get a database of their own: a fresh PostgreSQL database when
// DATABASE_URL is set (and its copy on the replica when TEST_REPLICA_URL names one), a fresh
// PGlite folder otherwise; removed afterwards either way.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";

export async function withE2eDatabase(run) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const dir = mkdtempSync(path.join(tmpdir(), "coverdesk-e2e-"));
    try {
      return await run({ DATABASE_URL: "", PGLITE_DIR: path.join(dir, "pglite") });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const name = `coverdesk_e2e_${randomBytes(4).toString("hex")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  // With a streaming replica of that PostgreSQL (.ci/run starts one), the e2e server reads its
  // reports from the same database there, as a deployment with replicas does (lib/replicas/).
  // Under another name: playwright.config.ts hands it to that server alone, as the specs' own
  // instances on the embedded database (e2e/app-instance.ts) would refuse replicas.
  const replicas = {};
  if (process.env.TEST_REPLICA_URL) {
    const replica = new URL(process.env.TEST_REPLICA_URL);
    replica.pathname = `/${name}`;
    replicas.E2E_DATABASE_REPLICA_URLS = replica.toString();
  }
  try {
    return await run({ DATABASE_URL: target.toString(), ...replicas });
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
