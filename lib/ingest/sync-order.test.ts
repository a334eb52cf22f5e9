import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pulls } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import type { ServiceConfig } from "@/lib/service/client";
import { fetchPullPayload, iteratePulls, listPulls } from "@/lib/service/pulls-api";
import type { SandboxPull } from "@/sandbox/data/pulls";
import type { Sandbox } from "@/sandbox/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { controlSandbox, seededReading, startServiceSandbox } from "@/test/service-sandbox";
import { runSync, startSyncRun } from "./sync";

// The sync against a service that lists pulls in no order (a new one per request, as the
// sandbox does) while new pulls arrive, and against lost COMPLETE webhooks: a pull stored
// before it finished reaches its final status through the sync alone.

const TEAM = "6d1f0a52-3c4b-4e8a-9f1d-2b3c4d5e6f70";
const DAY = 86_400_000;
let database: TestDatabase;
let sandbox: Sandbox;
let service: ServiceConfig;
let template: SandboxPull;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ sandbox, service } = await startServiceSandbox("sync-order", { teamId: TEAM, seed: 33, pullCount: 260 }));
  service = { ...service, maxAttempts: 2 };
  template = seededReading(sandbox);
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

/** A pull put on the service as given (a copy of a seeded one under a new id); its id. */
async function putPull(fields: Partial<SandboxPull> & { pull_id?: string }): Promise<string> {
  const pullId = fields.pull_id ?? randomUUID();
  await controlSandbox(sandbox, "pulls", {
    ...template,
    account_identifier: `acct_${pullId}`,
    created_at: new Date().toISOString(),
    ...fields,
    pull_id: pullId,
  });
  return pullId;
}

async function storedIds(): Promise<Set<string>> {
  return new Set((await database.db.select({ id: pulls.pullId }).from(pulls)).map((r) => r.id));
}
async function storedStatus(pullId: string): Promise<string | undefined> {
  return (await database.db.select({ status: pulls.status }).from(pulls).where(eq(pulls.pullId, pullId)))[0]?.status;
}
async function sync(config: ServiceConfig = service) {
  const start = await startSyncRun(database.db, "MANUAL");
  expect(start.started).toBe(true);
  return runSync(database.db, config, start.run);
}
const createdBy = (instant: Date) =>
  [...sandbox.state.pulls.values()].filter((p) => Date.parse(p.created_at) <= instant.getTime()).map((p) => p.pull_id);

describe("a pull list in no order", () => {
  it("is listed in a new order by each request, as the service may", async () => {
    const a = await listPulls(service, { limit: 100 });
    const b = await listPulls(service, { limit: 100 });
    expect(a.value.total_pulls).toBe(260);
    expect(b.value.pulls.map((p) => p.pull_id)).not.toEqual(a.value.pulls.map((p) => p.pull_id));
  });

  it("loses no pull while new pulls arrive during the run, and the next run takes those", async () => {
    let arrived = 0;
    // Another consumer links an account before every list request the sync makes.
    const busy: ServiceConfig = {
      ...service,
      fetch: async (input, init) => {
        if (new URL(String(input)).pathname.endsWith("/pulls")) {
          await putPull({});
          arrived++;
        }
        return fetch(input, init);
      },
    };
    const run = await sync(busy);
    expect(run).toMatchObject({ status: "DONE", total: 260, created: 260 });
    expect(arrived).toBeGreaterThan(2);
    const stored = await storedIds();
    expect(createdBy(run.startedAt).filter((id) => !stored.has(id))).toEqual([]);

    const next = await sync();
    expect(next).toMatchObject({ status: "DONE", created: arrived });
    const all = await storedIds();
    expect([...sandbox.state.pulls.keys()].filter((id) => !all.has(id))).toEqual([]);
  });

  it("lists every pull of one instant that holds more than a page", async () => {
    const instant = new Date(Date.now() - 7 * DAY).toISOString();
    const ids = new Set<string>();
    for (let i = 0; i < 130; i++) ids.add(await putPull({ created_at: instant }));
    const seen: string[] = [];
    for await (const pull of iteratePulls(service, { since: instant, before: instant })) seen.push(pull.pull_id);
    expect(seen).toHaveLength(130);
    expect(new Set(seen)).toEqual(ids);
  });
});

describe("pulls whose final webhook never came", () => {
  it("reach their final status through the sync, and past 30 days are given up, saying so", async () => {
    const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();
    expect((await sync()).status).toBe("DONE"); // the book as it stands: later runs list only new pulls
    // Each was stored by the worker from an earlier webhook, then its COMPLETE was lost.
    const lost = await putPull({ status: "PROCESSING", created_at: daysAgo(3) });
    const failedThenDone = await putPull({ status: "INTERNAL_ERROR", created_at: daysAgo(2) });
    const abandoned = await putPull({ status: "PROCESSING", created_at: daysAgo(40) });
    const gone = await putPull({ status: "QUEUED", created_at: daysAgo(1) });
    for (const id of [lost, failedThenDone, abandoned, gone])
      await storePull(database.db, await fetchPullPayload(service, id));
    expect(await storedStatus(lost)).toBe("PROCESSING");

    for (const id of [lost, failedThenDone, abandoned])
      await putPull({ ...sandbox.state.pulls.get(id), pull_id: id, status: "SUCCESS" });
    sandbox.state.pulls.delete(gone); // the service no longer answers for it

    const run = await sync();
    expect(run.status).toBe("DONE");
    // Created days before the run's window (since the last run): only the re-read finds them.
    expect(run.since?.getTime()).toBeGreaterThan(Date.parse(daysAgo(1)));
    expect(run.rechecked).toBeGreaterThanOrEqual(3);
    expect(await storedStatus(lost)).toBe("SUCCESS");
    expect(await storedStatus(failedThenDone)).toBe("SUCCESS");
    expect(await storedStatus(abandoned)).toBe("PROCESSING");
    expect(await storedStatus(gone)).toBe("QUEUED");
    expect(run.settled).toBeGreaterThanOrEqual(2);
    expect(run.gaveUp).toBeGreaterThanOrEqual(1);
    expect(run.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/still not final 30 days after linking: no longer re-read/),
        expect.stringContaining(`Pull ${gone} could not be re-read`),
      ]),
    );

    // Final now: the next run leaves them alone.
    const again = await sync();
    expect(again.status).toBe("DONE");
    expect(again.settled).toBe(0);
  });
});
