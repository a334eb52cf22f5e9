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
  /**
   * Runs `work` and returns its statements in stages, as it issued them: a statement sent
   * before any earlier one of its stage had answered runs beside them (Promise.all); one sent
   * after an answer starts the next stage (it may have waited for that answer).
   */
  captureStages(work: (db: Db) => Promise<unknown>): Promise<Statement[][]>;
  /** One statement on the bare driver; resolves with the number of rows. */
  raw(statement: Statement): Promise<number>;
  /** EXPLAIN (ANALYZE, BUFFERS) of one statement, line by line. */
  explain(statement: Statement): Promise<string[]>;
  close(): Promise<void>;
};

type Issued = Statement & { answeredBefore: number };

function stagesOf(issued: Issued[]): Statement[][] {
  const stages: Statement[][] = [];
  let stageAnswered = -1;
  for (const { query, params, answeredBefore } of issued) {
    if (answeredBefore !== stageAnswered || stages.length === 0) {
      stages.push([]);
      stageAnswered = answeredBefore;
    }
    (stages[stages.length - 1] as Statement[]).push({ query, params });
  }
  return stages;
}

export async function openCaptureDb(target: BenchTarget): Promise<CaptureDb> {
  let sink: Issued[] | null = null;
  let answered = 0;
  const logger = {
    logQuery: (query: string, params: unknown[]) => sink?.push({ query, params, answeredBefore: answered }),
  };
  const capture = async (db: Db, work: (db: Db) => Promise<unknown>) => {
    const statements: Issued[] = [];
    sink = statements;
    try {
      await work(db);
    } finally {
      sink = null;
    }
    return statements;
  };
  const forCapture = (db: Db): Pick<CaptureDb, "capture" | "captureStages"> => ({
    capture: async (work) => (await capture(db, work)).map(({ query, params }) => ({ query, params })),
    captureStages: async (work) => stagesOf(await capture(db, work)),
  });
  if (target.kind === "postgres") {
    // The app's pool size (db/connect.ts) so parallel statements see the same concurrency.
    const client = postgres(target.url, { max: 10, onnotice: () => {} });
    // Counts answers, so that captureStages knows which statements were sent before which answer.
    type Pending = Promise<unknown> & { values(): Pending };
    const counted = (query: Pending): Pending => {
      const done = <T>(value: T) => {
        answered++;
        return value;
      };
      return Object.assign(Object.create(null) as object, {
        values: () => counted(query.values()),
        then: (onFulfilled?: (v: unknown) => unknown, onRejected?: (e: unknown) => unknown) =>
          query
            .then(done, (e: unknown) => {
              answered++;
              throw e;
            })
            .then(onFulfilled, onRejected),
      }) as Pending;
    };
    const tracked = new Proxy(client, {
      get(target, property, receiver) {
        if (property === "unsafe")
          return (query: string, params?: never[], options?: never) =>
            counted(target.unsafe(query, params, options) as unknown as Pending);
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    const db = drizzlePostgres(tracked, { schema, casing: "snake_case", logger }) as unknown as Db;
    return {
      db,
      ...forCapture(db),
      raw: async ({ query, params }) => (await client.unsafe(query, params as never[])).length,
      explain: async ({ query, params }) =>
        (await client.unsafe(`explain (analyze, buffers) ${query}`, params as never[])).map((r) =>
          String(r["QUERY PLAN"]),
        ),
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
    capture: forCapture(db).capture,
    // One connection: PGlite runs every statement after the previous one.
    captureStages: async (work) => (await forCapture(db).capture(work)).map((s) => [s]),
    raw: async ({ query, params }) => (await client.query(query, params)).rows.length,
    explain: async ({ query, params }) =>
      (await client.query<Record<string, unknown>>(`explain (analyze, buffers) ${query}`, params)).rows.map((r) =>
        String(r["QUERY PLAN"]),
      ),
    close: () => client.close(),
  };
}
