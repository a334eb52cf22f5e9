import "server-only";
import type PgBoss from "pg-boss";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { JOBS, type JobContext, type JobData, type JobDefinition } from "./catalog";
import { getRunner, stopRunner, type Runner } from "./runner";

// Starting and stopping the catalog's jobs on the process's runner. Every instance schedules and
// works every job; pg-boss fires each schedule once across them and hands each run to one worker.

/** How often an idle worker asks for a run (the finest schedule is a minute). */
const POLL_SECONDS = 5;

const log = (line: string) => console.info(`[jobs] ${line}`);

/**
 * Each job's queue: "stately" keeps at most one run waiting and one running, so a run still going
 * when the next is due is not doubled, and a schedule missed while nothing worked is not stacked up.
 */
function queueOptions(job: JobDefinition): PgBoss.Queue {
  return {
    name: job.name,
    policy: "stately",
    retryLimit: job.retryLimit,
    retryDelay: job.retryDelaySeconds,
    retryBackoff: job.retryDelaySeconds > 0,
    expireInSeconds: job.expireInSeconds,
  };
}

/** Creates every job's queue (or brings its settings up to date). */
export async function ensureQueues(runner: Runner, jobs: readonly JobDefinition[]): Promise<void> {
  for (const job of jobs) {
    const existing = await runner.getQueue(job.name);
    if (existing) await runner.updateQueue(job.name, queueOptions(job));
    else await runner.createQueue(job.name, queueOptions(job));
  }
}

/**
 * Schedules and works `jobs` on `runner`: a schedule for each enabled one (a disabled one's is
 * removed, the schedules being kept in the database), a worker for each, and the runs at start.
 */
export async function registerJobs(
  runner: Runner,
  jobs: readonly JobDefinition[],
  context: () => Promise<JobContext>,
  config: Parameters<NonNullable<JobDefinition["enabled"]>>[0],
  options: { pollSeconds?: number } = {},
): Promise<void> {
  await ensureQueues(runner, jobs);
  for (const job of jobs) {
    if (job.enabled && !job.enabled(config)) {
      await runner.unschedule(job.name);
      continue;
    }
    await runner.schedule(job.name, job.cron, {}, { tz: "UTC" });
    await runner.work<JobData>(
      job.name,
      { pollingIntervalSeconds: options.pollSeconds ?? POLL_SECONDS, batchSize: 1 },
      async ([run]) => {
        try {
          const line = await job.run(await context(), run?.data ?? null);
          if (line) log(`${job.name}: ${line}`);
          return line ? { summary: line } : null;
        } catch (error) {
          log(`${job.name} failed: ${error instanceof Error ? error.message : String(error)}`);
          throw error; // recorded by pg-boss, and retried as the queue says
        }
      },
    );
    if (job.atStart) {
      // Through the queue too, so two instances starting together run it once.
      await runner.send(job.name, job.atStart.data ?? {}, { startAfter: job.atStart.afterSeconds });
    }
  }
}

/** In the worker process at start: the catalog's jobs, scheduled and worked. */
export async function startJobs(): Promise<void> {
  const config = env();
  const runner = await getRunner({ worker: true });
  const context = async (): Promise<JobContext> => ({ db: await getDb(), config: env(), log });
  await registerJobs(runner, JOBS, context, config);
  log(`${JOBS.length} jobs scheduled`);
}

/** For a graceful stop: no run starts any more; runs in flight get `graceMs` to finish. */
export async function stopJobs(graceMs?: number): Promise<void> {
  await stopRunner(graceMs);
}

/** "Run now": one run of a catalog job, queued for whichever worker is free. Null when one is already waiting. */
export async function sendJob(name: string, runner?: Runner): Promise<string | null> {
  const boss = runner ?? (await getRunner());
  return boss.send(name, {});
}
