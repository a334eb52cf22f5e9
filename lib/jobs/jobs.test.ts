import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { JOBS, type JobContext, type JobDefinition } from "./catalog";
import { loadJobsPage } from "@/lib/loaders/jobs";
import { createRunner, type Runner } from "./runner";
import { registerJobs } from "./start";

// The job runner on a real database (PGlite, or PostgreSQL with DATABASE_URL): the catalog's
// schedules, a run handed to one of two instances, and a failure retried and shown to admins.

let database: TestDatabase;
const runners: Runner[] = [];
const config = parseEnv({ NODE_ENV: "test" });
const context = async (): Promise<JobContext> => ({ db: database.db, config, log: () => {} });

async function runner(): Promise<Runner> {
  const started = await createRunner(database, { worker: false });
  runners.push(started);
  return started;
}

async function until(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const testJob = (overrides: Partial<JobDefinition> & Pick<JobDefinition, "name" | "run">): JobDefinition => ({
  title: overrides.name,
  description: "a test job",
  cron: "0 3 * * *",
  every: "daily",
  retryLimit: 0,
  retryDelaySeconds: 0,
  expireInSeconds: 60,
  ...overrides,
});

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const started of runners) await started.stop({ graceful: false, wait: true });
  await database?.close();
});

describe("the catalog", () => {
  it("holds the scheduled jobs at their intervals", () => {
    expect(Object.fromEntries(JOBS.map((job) => [job.name, job.cron]))).toEqual({
      "reconciliation-sync": "* * * * *",
      "x-date-upkeep": "0 * * * *",
      "seal-clear-values": "40 3 * * *",
      "partition-upkeep": "10 0 * * *",
      "alert-digest": "*/5 * * * *",
      "deal-returns": "2 * * * *",
      "refresh-timing": "5 * * * *",
      "speed-to-lead": "* * * * *",
      "retention-disposal": "30 3 * * *",
      "report-rollups": "*/10 * * * *",
      "cross-sell-counts": "*/10 * * * *",
      "api-idempotency-cleanup": "17 * * * *",
      "webhook-delivery": "* * * * *",
      "webhook-delivery-cleanup": "43 3 * * *",
    });
  });

  it("schedules every job on the runner (pg-boss refuses a schedule it cannot read)", async () => {
    const boss = await runner();
    // Registered, not worked: the runs at start would otherwise reach for the service.
    const catalog = JOBS.map((job) => ({ ...job, atStart: undefined, run: async () => null }));
    await registerJobs(boss, catalog, context, config, { pollSeconds: 60 });
    const schedules = await boss.getSchedules();
    expect(schedules.map((s) => [s.name, s.cron]).sort()).toEqual(JOBS.map((job) => [job.name, job.cron]).sort());
    await Promise.all(JOBS.map((job) => boss.offWork(job.name)));
  });

  it("leaves a job off when the configuration turns it off", async () => {
    const boss = await runner();
    const noSync = parseEnv({ NODE_ENV: "test", COVERDESK_SYNC_INTERVAL_MINUTES: "0" });
    const catalog = JOBS.map((job) => ({ ...job, atStart: undefined, run: async () => null }));
    await registerJobs(boss, catalog, context, noSync, { pollSeconds: 60 });
    expect((await boss.getSchedules()).map((s) => s.name)).not.toContain("reconciliation-sync");
    await Promise.all(JOBS.map((job) => boss.offWork(job.name)));
  });
});

describe("runs", () => {
  it("runs a job sent to two instances on one database once", async () => {
    let runs = 0;
    const job = testJob({
      name: "test-once",
      run: async () => {
        runs += 1;
        await new Promise((resolve) => setTimeout(resolve, 1_500)); // both instances poll meanwhile
        return "done";
      },
    });
    const [a, b] = [await runner(), await runner()];
    await registerJobs(a, [job], context, config, { pollSeconds: 0.5 });
    await registerJobs(b, [job], context, config, { pollSeconds: 0.5 });
    const id = await a.send(job.name, {});
    expect(id).not.toBeNull();
    await until(async () => (await a.getJobById(job.name, id ?? ""))?.state === "completed");
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // a second run would have started by now
    expect(runs).toBe(1);
    // And while one waits, a second "run now" is not stacked up behind it.
    await a.offWork(job.name);
    await b.offWork(job.name);
    expect(await a.send(job.name, {})).not.toBeNull();
    expect(await b.send(job.name, {})).toBeNull();
  });

  it("retries a failing job, records the failure, and shows it on the admins' page only", async () => {
    let tries = 0;
    const job = testJob({
      name: "test-fails",
      retryLimit: 1,
      run: async () => {
        tries += 1;
        throw new Error("the carrier's service is down");
      },
    });
    const boss = await runner();
    await registerJobs(boss, [job], context, config, { pollSeconds: 0.5 });
    const id = (await boss.send(job.name, {})) ?? "";
    await until(async () => (await boss.getJobById(job.name, id))?.state === "failed");
    expect(tries).toBe(2);

    const page = await loadJobsPage(database.db, { role: "ADMIN" }, [job]);
    if (!page.ok) throw new Error("refused an admin");
    expect(page.jobs[0]?.runs[0]).toMatchObject({
      state: "failed",
      retries: 1,
      error: "the carrier's service is down",
    });
    expect(page.jobs[0]?.runs[0]?.finishedAt).toBeInstanceOf(Date);

    expect(await loadJobsPage(database.db, { role: "MANAGER" }, [job])).toEqual({ ok: false });
    expect(await loadJobsPage(database.db, { role: "AGENT" }, [job])).toEqual({ ok: false });
    expect(await loadJobsPage(database.db, null, [job])).toEqual({ ok: false });
  });

  it("shows a job that has not run yet with no runs", async () => {
    const page = await loadJobsPage(database.db, { role: "ADMIN" }, [
      testJob({ name: "test-never", run: async () => null }),
    ]);
    expect(page).toMatchObject({ ok: true, jobs: [{ name: "test-never", runs: [] }] });
  });
});
