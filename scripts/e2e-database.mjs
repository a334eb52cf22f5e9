// The end-to-end tests get a database of their own: a fresh PostgreSQL database when
// DATABASE_URL is set, a fresh PGlite folder otherwise; removed afterwards either way.
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
  try {
    return await run({ DATABASE_URL: target.toString() });
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
