import "server-only";
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import type { Actor } from "@/lib/core/actor";
import { can } from "@/lib/auth/permissions";
import { JOBS, type JobDefinition } from "@/lib/jobs/catalog";
import { JOBS_SCHEMA } from "@/lib/jobs/runner";

// What the admins' jobs page shows: each catalog job, when it runs, and its last runs as pg-boss
// recorded them (its live table, and the archive it moves finished runs to after half a day).

export const RUNS_SHOWN = 5;

export type JobRunState = "created" | "retry" | "active" | "completed" | "cancelled" | "failed";

export type JobRunView = {
  id: string;
  state: JobRunState;
  /** Tries after the first. */
  retries: number;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  /** The run's line (what it did), or the error a failed run ended with. */
  summary: string | null;
  error: string | null;
};

export type JobView = Pick<JobDefinition, "name" | "title" | "description" | "cron" | "every"> & {
  runs: JobRunView[];
};

export type JobsPage = { ok: true; jobs: JobView[] } | { ok: false };

type RunRow = {
  id: string;
  name: string;
  state: JobRunState;
  retry_count: number;
  created_on: Date | string;
  started_on: Date | string | null;
  completed_on: Date | string | null;
  output: unknown;
};

export async function loadJobsPage(
  db: Db,
  user: Pick<Actor, "role"> | null,
  jobs: readonly JobDefinition[] = JOBS,
): Promise<JobsPage> {
  if (!can(user, "jobs:manage")) return { ok: false };
  const runs = await lastRuns(
    db,
    jobs.map((job) => job.name),
  );
  return {
    ok: true,
    jobs: jobs.map((job) => ({
      name: job.name,
      title: job.title,
      description: job.description,
      cron: job.cron,
      every: job.every,
      runs: runs.filter((run) => run.name === job.name).map(toRunView),
    })),
  };
}

async function lastRuns(db: Db, names: string[]): Promise<RunRow[]> {
  const [present] = await queryRows<{ job: boolean; archive: boolean }>(
    db,
    sql`select to_regclass(${`${JOBS_SCHEMA}.job`}) is not null as job, to_regclass(${`${JOBS_SCHEMA}.archive`}) is not null as archive`,
  );
  if (!present?.job || names.length === 0) return []; // the runner has not started yet
  const columns = sql.raw("id, name, state::text as state, retry_count, created_on, started_on, completed_on, output");
  const list = sql.join(
    names.map((name) => sql`${name}`),
    sql`, `,
  );
  const job = sql`select ${columns} from ${sql.raw(`${JOBS_SCHEMA}.job`)} where name in (${list})`;
  const archive = present.archive
    ? sql` union all select ${columns} from ${sql.raw(`${JOBS_SCHEMA}.archive`)} where name in (${list})`
    : sql``;
  return queryRows<RunRow>(
    db,
    sql`select * from (
          select r.*, row_number() over (partition by r.name order by r.created_on desc, r.id) as place
          from (${job}${archive}) r
        ) ranked
        where place <= ${RUNS_SHOWN}
        order by name, created_on desc`,
  );
}

function toRunView(row: RunRow): JobRunView {
  const output = row.output && typeof row.output === "object" ? (row.output as Record<string, unknown>) : {};
  const failed = row.state === "failed" || row.state === "retry";
  return {
    id: row.id,
    state: row.state,
    retries: Number(row.retry_count),
    createdAt: new Date(row.created_on),
    startedAt: row.started_on ? new Date(row.started_on) : null,
    finishedAt: row.completed_on ? new Date(row.completed_on) : null,
    summary: typeof output.summary === "string" ? output.summary : null,
    error: failed && typeof output.message === "string" ? output.message : null,
  };
}
