import "server-only";
import PgBoss from "pg-boss";
import type { Connection, PGliteClient } from "@/db/connect";
import { getConnection } from "@/lib/database";

// The one job runner of the process: pg-boss on the app's own database, so scheduled and queued
// work runs once across instances (its schedule lock and queue policies), is retried, and leaves
// a record (its `pgboss` schema). One per process, cached on globalThis like the database, so a
// development reload does not start a second set of workers.

export type Runner = PgBoss;
export type RunnerOptions = {
  /** The worker process: fire the cron schedules and do pg-boss's upkeep (expiry, archiving). */
  worker: boolean;
  /**
   * How often an instance looks for a schedule that is due (pg-boss's default, 30 s). One
   * instance per interval does it, whatever the number; tests shorten it to see a tick sooner.
   */
  cronCheckSeconds?: number;
};

/** The schema pg-boss keeps its queues, schedules and jobs in. */
export const JOBS_SCHEMA = "pgboss";

const log = (line: string) => console.info(`[jobs] ${line}`);

/**
 * pg-boss's `db` option over the app's PGlite. pg-boss sends parameterised single statements and,
 * for its schema and queue changes, multi-statement scripts without parameters (BEGIN; …; COMMIT),
 * which only the simple protocol (`exec`) runs. A script that fails inside its BEGIN is rolled
 * back here: the one connection is the whole app's, and must not stay in an aborted transaction.
 */
export function pgliteExecutor(client: PGliteClient): PgBoss.Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (values && values.length > 0) return client.query(text, values);
      try {
        const results = await client.exec(text);
        return results.at(-1) ?? { rows: [] };
      } catch (error) {
        if (/\bBEGIN\b/i.test(text)) await client.exec("ROLLBACK").catch(() => {});
        throw error;
      }
    },
  };
}

/** A started runner on the connection's database; `stop()` it when done. */
export async function createRunner(connection: Connection, options: RunnerOptions): Promise<Runner> {
  const common = {
    schema: JOBS_SCHEMA,
    schedule: options.worker,
    supervise: options.worker,
    application_name: "coverdesk-jobs",
    ...(options.cronCheckSeconds ? { cronMonitorIntervalSeconds: options.cronCheckSeconds } : {}),
  } satisfies PgBoss.ConstructorOptions;
  const { driver } = connection;
  const boss =
    driver.kind === "pglite"
      ? new PgBoss({ ...common, db: pgliteExecutor(driver.client) })
      : // Its queues are tables it creates, so it connects as the role that owns the schema.
        new PgBoss({ ...common, connectionString: driver.ownerUrl, max: 3 });
  boss.on("error", (error: Error & { code?: string }) => {
    // Another instance holds the one active run of a queue: that is the once-only rule at work.
    if (error.code === "23505") return;
    log(`runner error: ${error.message}`);
  });
  await boss.start();
  if (driver.kind === "postgres" && driver.ownerUrl !== driver.url) {
    // The app's own role reads the runs for the admin's jobs page.
    const role = decodeURIComponent(new URL(driver.url).username).replaceAll('"', '""');
    await boss
      .getDb()
      .executeSql(
        `grant usage on schema ${JOBS_SCHEMA} to "${role}"; grant select on all tables in schema ${JOBS_SCHEMA} to "${role}"`,
        [],
      );
  }
  return boss;
}

type Cache = { runner?: Promise<Runner> };
const globalCache = globalThis as unknown as { __coverdeskJobs?: Cache };
const cache: Cache = (globalCache.__coverdeskJobs ??= {});

/**
 * The process's runner, started on first use. The worker process (`COVERDESK_WORKER`) asks for
 * it with `worker: true` at start; any other caller (a "Run now") only sends, so it gets one
 * that does not fire schedules.
 */
export function getRunner(options: RunnerOptions = { worker: false }): Promise<Runner> {
  if (!cache.runner) {
    cache.runner = getConnection()
      .then((connection) => createRunner(connection, options))
      .catch((error: unknown) => {
        cache.runner = undefined; // the next caller tries again
        throw error;
      });
  }
  return cache.runner;
}

/** Stops the process's runner: no new run starts; runs in flight get `graceMs` to finish. */
export async function stopRunner(graceMs = 10_000): Promise<void> {
  const pending = cache.runner;
  cache.runner = undefined;
  if (!pending) return;
  const runner = await pending.catch(() => null);
  await runner?.stop({ graceful: true, wait: true, timeout: graceMs });
}
