import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { openDatabase, type Connection, type DatabaseTarget } from "@/db/connect";
import { installSealedJsonCodec } from "@/lib/security/sealed-json-codec";

// Sealed columns (db/sealed-json.ts) need the key ring's codec, as in the app.
installSealedJsonCodec();

// Integration tests run against a real database: a fresh PostgreSQL database per test file
// when DATABASE_URL is set (CI), an in-memory PGlite otherwise. Never a mock.

export type TestDatabase = Connection & { name: string };

export async function createTestDatabase(): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const connection = await openDatabase({ kind: "pglite", dir: null });
    return { ...connection, name: "pglite:memory" };
  }
  const name = `coverdesk_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const connection = await openDatabase({ kind: "postgres", url: target.toString(), maxConnections: 5 });
  return {
    ...connection,
    name,
    close: async () => {
      await connection.close();
      const cleanup = postgres(url, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/**
 * A database nothing has migrated yet, for tests of the migrations themselves: a new PostgreSQL
 * database when DATABASE_URL is set, a PGlite folder otherwise (in memory would not outlive the
 * first connection). `drop` removes it; close every connection first.
 */
export async function createEmptyTestTarget(): Promise<{ target: DatabaseTarget; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const dir = await mkdtemp(path.join(tmpdir(), "coverdesk-migrations-"));
    return { target: { kind: "pglite", dir }, drop: () => rm(dir, { recursive: true, force: true }) };
  }
  const name = `coverdesk_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    target: { kind: "postgres", url: target.toString(), maxConnections: 2 },
    drop: async () => {
      const cleanup = postgres(url, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
