// The SQL a page's query functions issue, captured through drizzle's logger, and the same
// statements replayed on the bare driver (postgres-js `unsafe`, PGlite `query`): the "raw SQL"
// baseline beside each page, without drizzle's building and mapping or Next's rendering.
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { PGlite } from "@electric-sql/pglite";
import * as schema from "@/db/schema";
import type { Db } from "@/db/types";
import type { BenchTarget } from "./database";

export type Statement = { query: string; params: unknown[] };

export type CaptureDb = {
  db: Db;
  /** Runs `work` and returns every statement it issued, in order. */
  capture(work: (db: Db) => Promise<unknown>): Promise<Statement[]>;
  /** One statement on the bare driver; resolves with the number of rows. */
  raw(statement: Statement): Promise<number>;
  /** EXPLAIN (ANALYZE, BUFFERS) of one statement, line by line. */
  explain(statement: Statement): Promise<string[]>;
  close(): Promise<void>;
};

export async function openCaptureDb(target: BenchTarget): Promise<CaptureDb> {
  let sink: Statement[] | null = null;
  const logger = { logQuery: (query: string, params: unknown[]) => sink?.push({ query, params }) };
  const capture = async (db: Db, work: (db: Db) => Promise<unknown>) => {
    const statements: Statement[] = [];
    sink = statements;
    try {
      await work(db);
    } finally {
      sink = null;
    }
    return statements;
  };
  if (target.kind === "postgres") {
    // The app's pool size (db/connect.ts) so parallel statements see the same concurrency.
    const client = postgres(target.url, { max: 10, onnotice: () => {} });
    const db = drizzlePostgres(client, { schema, casing: "snake_case", logger }) as unknown as Db;
    return {
      db,
      capture: (work) => capture(db, work),
      raw: async ({ query, params }) => (await client.unsafe(query, params as never[])).length,
      explain: async ({ query, params }) => (await client.unsafe(`explain (analyze, buffers) ${query}`, params as never[])).map((r) => String(r["QUERY PLAN"])),
      close: () => client.end({ timeout: 5 }),
    };
  }
  const { PGlite: PGliteClass } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const client: PGlite = new PGliteClass(target.dir, { extensions: { pg_trgm } });
  await client.waitReady;
  const db = drizzlePglite(client, { schema, casing: "snake_case", logger }) as unknown as Db;
  return {
    db,
    capture: (work) => capture(db, work),
    raw: async ({ query, params }) => (await client.query(query, params)).rows.length,
    explain: async ({ query, params }) => (await client.query<Record<string, unknown>>(`explain (analyze, buffers) ${query}`, params)).rows.map((r) => String(r["QUERY PLAN"])),
    close: () => client.close(),
  };
}
