import "server-only";
import { rewritableHistoryTables, type Connection } from "@/db/connect";
import { getConnection, getDb, getReplicaSet } from "@/lib/database";
import { env, EnvError } from "@/lib/env";
import { startWorker, stopWorker } from "@/lib/ingest/worker";
import { startJobs, stopJobs } from "@/lib/jobs/start";
import { startWebhookSender, stopWebhookSender } from "@/lib/jobs/webhook-sender";
import { reprojectOutdatedPulls } from "@/lib/ingest/reproject";
import { startDemoHistory } from "@/lib/demo/start";
import { saveDemoAgencyzoomSettings } from "@/lib/demo/agencyzoom";
import { ensureDemoUsers, listActiveDemoUsers } from "@/lib/auth/demo-users";
import { loadKeyRetirements } from "@/lib/security/sealed-columns";
import { channelFileFor } from "@/lib/local-commands/channel";
import { startChannelServer } from "@/lib/local-commands/channel-server";

/** How long a stopping worker may take to settle the pulls it is fetching before it gives them back. */
const SHUTDOWN_GRACE_MS = 10_000;
/** Past this, the process exits whatever is still pending (e.g. a database that hangs). */
const SHUTDOWN_HARD_LIMIT_MS = SHUTDOWN_GRACE_MS + 5_000;

export async function startServer(): Promise<void> {
  const config = env(); // a bad or missing variable stops the start here, with its name
  const db = await getDb();
  // A ring whose first key a rotation retired stops the start (COVERDESK_ENCRYPTION_KEYS).
  await loadKeyRetirements(db);
  if (config.nodeEnv === "production") {
    // Their password is published in the README: a database that ran in development must not go live with them.
    const demo = await listActiveDemoUsers(db);
    if (demo.length > 0) {
      throw new EnvError(
        `Unsafe configuration for production: the demo users ${demo.join(", ")} are active in this database (DATABASE_URL). Deactivate them on /admin/users in development, or use a fresh database.`,
      );
    }
  }
  if (config.nodeEnv === "production") await refuseRewritableHistory(await getConnection());
  const replicas = getReplicaSet();
  if (replicas)
    console.info(
      `[startup] reports, exports, X-dates, cross-sell and the forecast may read from ${replicas.replicas.map((r) => r.label).join(", ")} (DATABASE_REPLICA_URLS)`,
    );
  // The embedded database admits one process: a command line (`npm run privacy`) reaches it
  // through this server meanwhile (lib/local-commands/channel.ts). Development and test only.
  const channel = globalThis as unknown as { __coverdeskLocalChannel?: boolean };
  if (config.nodeEnv !== "production" && !config.databaseUrl && !channel.__coverdeskLocalChannel) {
    channel.__coverdeskLocalChannel = true; // dev reloads run start-up again
    await startChannelServer(channelFileFor(config.pgliteDir)).catch((error: unknown) =>
      console.error("[startup] the local command channel did not open", error),
    );
  }
  if (config.demoMode) {
    const created = await ensureDemoUsers(db);
    if (created > 0) console.info(`[startup] created ${created} demo users (password in the README)`);
    // The AgencyZoom stand-in's ids, as the demo admin would set them, unless settings are saved.
    await saveDemoAgencyzoomSettings(db, (line) => console.info(`[startup] ${line}`)).catch((error: unknown) =>
      console.error("[startup] the demo AgencyZoom settings were not saved", error),
    );
    // Before the worker starts, so "no pulls yet" means an empty database, not one being filled.
    await startDemoHistory(db, config);
  }
  // In the background: pages work meanwhile, with the older columns.
  void reprojectOutdatedPulls(db).then(
    (count) => count > 0 && console.info(`[startup] re-projected ${count} pulls`),
    (error: unknown) => console.error("[startup] re-projection failed", error),
  );
  if (config.runWorker) startBackgroundWork();
}

/**
 * The inbox worker, the outgoing webhooks and the scheduled jobs: in every app process unless
 * COVERDESK_WORKER=false, and alone in a `npm run worker` process. Any number of them may run
 * against one database: they share the inbox through SKIP LOCKED claims and the jobs through
 * pg-boss, both in PostgreSQL (docs/operations.md, "Several instances").
 */
function startBackgroundWork(): void {
  startWorker();
  // Outgoing webhooks, every 2 seconds (lib/webhooks/).
  startWebhookSender();
  // The scheduled work (lib/jobs/catalog.ts), each run once across instances. In the
  // background: a page does not wait for it, and a failure to start is logged, not fatal.
  void startJobs().catch((error: unknown) => console.error("[startup] the scheduled jobs did not start", error));
  stopBackgroundWorkOnSignals();
}

/**
 * `npm run worker`: an instance's background work without its web server, so that a bulk
 * refresh can be worked off by more processes than serve pages. PostgreSQL only: the embedded
 * database opens in one process, the app's. The same checks at start as the app's.
 */
export async function startWorkerProcess(): Promise<void> {
  const config = env();
  if (!config.databaseUrl)
    throw new EnvError(
      "A worker process needs PostgreSQL (DATABASE_URL): the embedded database opens in one process, the app's own.",
    );
  const db = await getDb();
  await loadKeyRetirements(db);
  if (config.nodeEnv === "production") await refuseRewritableHistory(await getConnection());
  startBackgroundWork();
}

/**
 * Production runs as a role that can only read and append to the audit trail and the DPPA
 * redisclosure log (db/connect.ts grantAppRole): a role that owns them, or may update, delete or
 * truncate them, could rewrite the history an incident or a regulator relies on. The tables'
 * owner belongs in DATABASE_MIGRATION_URL only (docs/operations.md).
 */
export async function refuseRewritableHistory(connection: Connection): Promise<void> {
  if (connection.kind !== "postgres") return; // production always names PostgreSQL (DATABASE_URL)
  const tables = await rewritableHistoryTables(connection.db);
  if (tables.length === 0) return;
  throw new EnvError(
    `Unsafe configuration for production: the role of DATABASE_URL can edit or delete the rows of ${tables.join(" and ")}, which must be append-only. Give DATABASE_URL a role of its own that owns nothing (docs/operations.md shows the SQL), and the tables' owner to DATABASE_MIGRATION_URL only.`,
  );
}

/**
 * `startServer`, or the end of the process when the configuration is refused: a setting that
 * would run unsafe or half-working stops the app at start, naming the variable. Next.js would
 * otherwise log the error and go on serving every request with it.
 */
export async function startServerOrExit(): Promise<void> {
  try {
    await startServer();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(`[startup] ${error.message}`);
    process.exit(1);
  }
}

/** Stops claiming and scheduling, and settles or gives back what the worker holds and the jobs run. */
async function stopBackgroundWork(signal: NodeJS.Signals): Promise<void> {
  console.info(`[shutdown] ${signal}: stopping the worker and the sync schedule`);
  const [result] = await Promise.all([
    stopWorker(SHUTDOWN_GRACE_MS),
    stopJobs(SHUTDOWN_GRACE_MS).catch((error: unknown) => console.error("[shutdown] stopping the jobs failed", error)),
    stopWebhookSender(SHUTDOWN_GRACE_MS),
  ]);
  if (result) {
    console.info(
      `[shutdown] worker stopped (${result.finished ? "its last cycle finished" : "its last cycle outlasted the grace period"}); ${result.released} claims given back`,
    );
  }
}

/**
 * On SIGTERM or SIGINT, the worker stops and gives its claims back before the process exits,
 * so a restart or a deploy loses nothing and leaves nothing waiting for the stale-claim
 * timeout. server.mjs (`npm start`) has handlers of its own, as `next start` does, that close the
 * HTTP server and exit with 143 or 130; ours runs first and hands over to them when done (or
 * exits itself where there are none).
 */
function stopBackgroundWorkOnSignals(): void {
  const flag = globalThis as unknown as { __coverdeskSignalsWired?: boolean };
  if (flag.__coverdeskSignalsWired) return; // dev reloads run this again
  flag.__coverdeskSignalsWired = true;
  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    const handedOver = process.listeners(signal);
    process.removeAllListeners(signal);
    process.on(signal, () => {
      if (stopping) {
        console.info(`[shutdown] second ${signal}: exiting now`);
        process.exit(signal === "SIGINT" ? 130 : 143);
      }
      stopping = true;
      setTimeout(() => {
        console.error(`[shutdown] still stopping after ${SHUTDOWN_HARD_LIMIT_MS} ms: exiting`);
        process.exit(1);
      }, SHUTDOWN_HARD_LIMIT_MS).unref();
      void stopBackgroundWork(signal)
        .catch((error: unknown) => console.error("[shutdown] stopping the worker failed", error))
        .finally(() => {
          if (handedOver.length === 0) process.exit(0);
          for (const listener of handedOver) listener(signal);
        });
    });
  }
}
