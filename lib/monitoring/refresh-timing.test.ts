import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agencyRules, monitorings, policyXDates } from "@/db/schema";
import type { ServiceConfig } from "@/lib/service/client";
import { getMonitoring } from "@/lib/service/monitorings-api";
import { addDays, isoDay } from "@/lib/xdates/derive";
import type { Sandbox } from "@/sandbox/server";
import { linkStoredAccount, startServiceSandbox } from "@/test/service-sandbox";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { setFaults } from "@/test/sandbox-faults";
import { createStaff } from "@/test/workflow-fixture";
import { enablePullMonitoring } from "./commands";
import { getRefreshForecast } from "./refresh-forecast";
import { timeRefreshes } from "./refresh-timing";

// The job that times each monitored account's next refresh to its renewal, against the
// sandbox over HTTP: the service gets the planned next_pull_date once, a refusal is kept in
// words and tried again, and an account without X-dates stays on the service's interval.

const TEAM = "5e4d3c2b-1a09-4f8e-8d7c-6b5a49382716";
let database: TestDatabase;
let sandbox: Sandbox;
let service: ServiceConfig;
let staff: Awaited<ReturnType<typeof createStaff>>;

const linkAccount = (username: string) => linkStoredAccount(database.db, sandbox, service, username);

async function monitor(pullId: string): Promise<string> {
  const result = await enablePullMonitoring(database.db, service, staff.manager, { pullId, every: 1, unit: "M" });
  if (!result.ok) throw new Error(result.message);
  return result.monitoringId;
}

async function stored(monitoringId: string) {
  const [row] = await database.db.select().from(monitorings).where(eq(monitorings.monitoringId, monitoringId));
  if (!row) throw new Error(`monitoring ${monitoringId} is not stored`);
  return row;
}

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
  ({ sandbox, service } = await startServiceSandbox("timing", { teamId: TEAM, seed: 11, pullCount: 4 }));
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

describe("refreshes timed to the renewal", () => {
  let pullId = "";
  let monitoringId = "";
  let firstXDate = "";

  beforeAll(async () => {
    pullId = await linkAccount("user_good");
    monitoringId = await monitor(pullId);
    const xDates = await database.db
      .select({ xDate: policyXDates.xDate })
      .from(policyXDates)
      .where(eq(policyXDates.pullId, pullId));
    firstXDate = xDates.flatMap((r) => (r.xDate ? [r.xDate] : [])).sort()[0] ?? "";
    expect(firstXDate, "the linked account has a verified X-date").not.toBe("");
  });

  it("sends the lead time before the X-date to the service, once", async () => {
    // A day well before the lead window, so the plan is ON_TIME whatever the sandbox's dates.
    const today = addDays(firstXDate, -120);
    const [first, second] = await Promise.all([
      timeRefreshes(database.db, service, { today }),
      timeRefreshes(database.db, service, { today }),
    ]);
    expect(first.sent + second.sent, "two instances at once send the change once").toBe(1);
    const planned = addDays(firstXDate, -45);
    const answer = await getMonitoring(service, monitoringId);
    expect(answer.value.monitoring.next_pull_date?.slice(0, 10)).toBe(planned);
    const row = await stored(monitoringId);
    expect(row.plannedRefreshAt?.toISOString().slice(0, 10)).toBe(planned);
    expect(row.plannedRefreshReason).toMatchObject({ kind: "ON_TIME", xDate: firstXDate, leadTimeDays: 45 });
    expect(row.nextPullDate?.toISOString().slice(0, 10)).toBe(planned);
    // Nothing changed: the next run sends nothing.
    expect(await timeRefreshes(database.db, service, { today })).toMatchObject({ sent: 0, refused: 0 });
  });

  it("follows a new lead time", async () => {
    await database.db
      .insert(agencyRules)
      .values({ id: 1, leadTimeDays: 30 })
      .onConflictDoUpdate({
        target: agencyRules.id,
        set: { leadTimeDays: 30 },
      });
    const summary = await timeRefreshes(database.db, service, { today: addDays(firstXDate, -120) });
    expect(summary.sent).toBe(1);
    expect((await getMonitoring(service, monitoringId)).value.monitoring.next_pull_date?.slice(0, 10)).toBe(
      addDays(firstXDate, -30),
    );
    await database.db.update(agencyRules).set({ leadTimeDays: 45 }).where(eq(agencyRules.id, 1));
  });

  it("sends a change once when another instance runs while the first waits for the service", async () => {
    const setLeadTime = (days: number) =>
      database.db
        .insert(agencyRules)
        .values({ id: 1, leadTimeDays: days })
        .onConflictDoUpdate({ target: agencyRules.id, set: { leadTimeDays: days } });
    await setLeadTime(40);
    const today = addDays(firstXDate, -120);
    const before = (await stored(monitoringId)).plannedRefreshSentAt?.getTime();
    await setFaults(sandbox, { latencyMs: 1_000 });
    try {
      const first = timeRefreshes(database.db, service, { today });
      // The first has claimed the change and waits for the service's answer.
      for (let i = 0; i < 300 && (await stored(monitoringId)).plannedRefreshSentAt?.getTime() === before; i++)
        await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await timeRefreshes(database.db, service, { today }), "the second finds it told").toMatchObject({
        sent: 0,
      });
      expect(await first).toMatchObject({ sent: 1 });
    } finally {
      await setFaults(sandbox, { latencyMs: 0 });
      await setLeadTime(45);
    }
    expect((await getMonitoring(service, monitoringId)).value.monitoring.next_pull_date?.slice(0, 10)).toBe(
      addDays(firstXDate, -40),
    );
  });

  it("keeps the service's refusal in words, and tries again on the next run", async () => {
    const today = addDays(firstXDate, -119); // a day later: the same plan, but make it resend
    await database.db
      .update(monitorings)
      .set({ plannedRefreshAt: null })
      .where(eq(monitorings.monitoringId, monitoringId));
    sandbox.state.faults = { ...sandbox.state.faults, errorRate: 1 };
    try {
      expect(await timeRefreshes(database.db, service, { today })).toMatchObject({ refused: 1, sent: 0 });
    } finally {
      sandbox.state.faults = { ...sandbox.state.faults, errorRate: 0 };
    }
    const refused = await stored(monitoringId);
    expect(refused.plannedRefreshError).toMatch(/could not be reached|refused/);
    expect(refused.plannedRefreshAt).toBeNull();
    expect(await timeRefreshes(database.db, service, { today })).toMatchObject({ refused: 0 });
    const retried = await stored(monitoringId);
    expect(retried.plannedRefreshError).toBeNull();
    expect(retried.plannedRefreshAt?.toISOString().slice(0, 10)).toBe(addDays(firstXDate, -45));
  });

  it("forecasts the year's refreshes against the fixed interval, and lists what a budget cannot pay for", async () => {
    const today = addDays(firstXDate, -120);
    const alone = await getRefreshForecast(database.db, { leadTimeDays: 45, budget: null, today });
    expect(alone).toMatchObject({ monitored: 1, timedAccounts: 1, budget: null });
    expect(alone.months).toHaveLength(12);
    expect(alone.fixedTotal, "monthly for a year").toBeGreaterThanOrEqual(11);
    expect(alone.timedTotal).toBeGreaterThan(0);
    expect(alone.timedTotal).toBeLessThan(alone.fixedTotal);
    const plannedMonth = addDays(firstXDate, -45).slice(0, 7);
    expect(alone.months.find((m) => m.month === plannedMonth)?.timed).toBeGreaterThanOrEqual(1);

    // A second monitoring of the same account: its month now holds two refreshes, one over a budget of one.
    await database.db
      .insert(monitorings)
      .values({ ...(await stored(monitoringId)), monitoringId: `${monitoringId}-twin` });
    try {
      const tight = await getRefreshForecast(database.db, { leadTimeDays: 45, budget: 1, today });
      const month = tight.months.find((m) => m.month === plannedMonth);
      expect(month?.overBudget).toHaveLength((month?.timed ?? 0) - 1);
      expect(month?.overBudget[0]).toMatchObject({ pullId, name: expect.stringMatching(/\S/) });
    } finally {
      await database.db.delete(monitorings).where(eq(monitorings.monitoringId, `${monitoringId}-twin`));
    }
  });

  it("leaves an account without X-dates on the service's interval, and says so", async () => {
    await database.db.delete(policyXDates).where(eq(policyXDates.pullId, pullId));
    const before = (await getMonitoring(service, monitoringId)).value.monitoring.next_pull_date;
    await timeRefreshes(database.db, service, { today: addDays(firstXDate, -120) });
    expect((await getMonitoring(service, monitoringId)).value.monitoring.next_pull_date).toBe(before);
    expect((await stored(monitoringId)).plannedRefreshReason).toEqual({ kind: "INTERVAL", interval: "P1M" });
  });
});

describe("a renewal sooner than the service allows after the latest pull", () => {
  it("asks for 30 days after the latest pull instead, which the service accepts, and says so", async () => {
    const pullId = await linkAccount("user_good");
    const monitoringId = await monitor(pullId);
    const today = isoDay();
    // The lead window opens 10 days after the pull just linked; the service refuses a refresh then.
    await database.db
      .update(policyXDates)
      .set({ xDate: addDays(today, 20) })
      .where(eq(policyXDates.pullId, pullId));
    await database.db
      .insert(agencyRules)
      .values({ id: 1, leadTimeDays: 10 })
      .onConflictDoUpdate({ target: agencyRules.id, set: { leadTimeDays: 10 } });
    try {
      expect(await timeRefreshes(database.db, service, { today })).toMatchObject({ refused: 0 });
      const forecast = await getRefreshForecast(database.db, { leadTimeDays: 10, budget: null, today });
      expect(forecast.heldTotal, "the rules page says the forecast held it").toBeGreaterThanOrEqual(1);
    } finally {
      await database.db.update(agencyRules).set({ leadTimeDays: 45 }).where(eq(agencyRules.id, 1));
    }
    const linkedAt = Date.parse(String(sandbox.state.pulls.get(pullId)?.created_at));
    const next = Date.parse(String((await getMonitoring(service, monitoringId)).value.monitoring.next_pull_date));
    expect(next).toBeGreaterThanOrEqual(linkedAt + 30 * 86_400_000);
    const row = await stored(monitoringId);
    expect(row.plannedRefreshError).toBeNull();
    expect(row.plannedRefreshReason).toMatchObject({ kind: "ON_TIME", heldFrom: addDays(today, 10) });
    expect(row.plannedRefreshAt?.toISOString().slice(0, 10)).toBe(addDays(isoDay(new Date(linkedAt)), 30));
  });
});
