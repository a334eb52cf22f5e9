// `node --conditions=react-server --import tsx bench/seal-throughput.ts [count]`: storePull's
// throughput with the sealed columns' codec against the same with an identity codec (what storing
// cost before encryption at rest), on generated pulls, in one run and one kind of database
// (PostgreSQL at DATABASE_URL, else an in-memory PGlite). Each pass stores the pulls anew, then
// stores each a second time with a change (an update: the old version read, opened and kept).
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { installJsonSealer } from "@/db/sealed-json";
import { openDatabase, type Connection } from "@/db/connect";
import { storePull } from "@/lib/ingest/store-pull";
import { installSealedJsonCodec } from "@/lib/security/sealed-json-codec";
import { generatePulls } from "@/sandbox/data/pulls";

async function freshDatabase(): Promise<Connection & { drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) return { ...(await openDatabase({ kind: "pglite", dir: null })), drop: async () => {} };
  const name = `coverdesk_seal_${randomBytes(4).toString("hex")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const connection = await openDatabase({ kind: "postgres", url: target.toString(), maxConnections: 2 });
  return {
    ...connection,
    drop: async () => {
      await connection.close();
      const cleanup = postgres(url, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

async function pass(label: string, count: number, install: () => void): Promise<number> {
  install();
  const database = await freshDatabase();
  const pulls = generatePulls(17, count, new Date("2026-11-01T00:00:00Z"));
  const started = performance.now();
  for (const pull of pulls) await storePull(database.db, { success: true, pull });
  for (const pull of pulls)
    await storePull(database.db, { success: true, pull: { ...pull, first_name: `${String(pull.first_name)} B` } });
  const seconds = (performance.now() - started) / 1000;
  await database.drop();
  const rate = (pulls.length * 2) / seconds;
  console.log(`${label}: ${pulls.length * 2} stores in ${seconds.toFixed(2)} s, ${rate.toFixed(1)} a second`);
  return rate;
}

async function main() {
  const count = Number(process.argv[2] ?? 300);
  const identity = () => installJsonSealer({ seal: (value) => value, open: (value) => value });
  // Warm-up (module loading, the first migration), not counted.
  await pass("warm-up", 20, identity);
  const before = await pass("clear (identity codec)", count, identity);
  const after = await pass("sealed", count, installSealedJsonCodec);
  const before2 = await pass("clear again", count, identity);
  const after2 = await pass("sealed again", count, installSealedJsonCodec);
  const ratio = (after + after2) / (before + before2);
  console.log(`sealed / clear throughput: ${ratio.toFixed(3)}`);
}

void main();
