import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, dealReturns, policyXDates, pulls, users } from "@/db/schema";
import { loadPullPage } from "@/lib/loaders/pull-page";
import { getViewablePull } from "@/lib/pulls/access";
import { storePull } from "@/lib/ingest/store-pull";
import { getReport } from "@/lib/reports/queries";
import { reportCsv } from "@/lib/reports/report-csv";
import { addDays, isoDay } from "@/lib/xdates/derive";
import { generatePulls } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import type { Actor } from "@/lib/core/actor";
import { assignPulls } from "./assignment";
import { getOpenDealReturn, listCameBack } from "./came-back";
import { returnRecycledDeals } from "./deal-returns";
import { setPullStage } from "./funnel";

// Deals that come back, on a real database: a lost deal whose X-date nears returns once however
// often (and however concurrently) the job runs, a departed agent's goes to the queue, a won
// client whose refresh shows the policy cancelled returns once however often the refresh is
// stored, the agent sees their own and the queue's, and a returned deal won again is a
// recycled win in the reports.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;
const TODAY = isoDay();
const DAY = 86_400_000;
const [template] = generatePulls(41, 1, new Date());
const asUser = (actor: Actor): Actor => ({ ...actor, sessionId: "s" });

type PolicySpec = { id: string; expiry?: unknown; status?: string; premium?: number; canceled?: string | null };

function payload(options: { pullId?: string; account: string; createdAt?: string; policies: PolicySpec[] }) {
  if (!template) throw new Error("no template pull");
  const base = (template.policies as Array<Record<string, unknown>>)[0];
  return {
    ...template,
    pull_id: options.pullId ?? randomUUID(),
    status: "SUCCESS",
    account_identifier: options.account,
    created_at: options.createdAt ?? new Date(Date.now() - 200 * DAY).toISOString(),
    first_name: "Jane",
    last_name: options.account,
    parent_pull_id: null,
    policies: options.policies.map((p) => ({
      ...base,
      policy_id: p.id,
      carrier_policy_number: `N-${options.account}-${p.id}`,
      policy_type: "AUTO",
      carrier_name: "progressive",
      carrier_friendly_name: "Progressive",
      total_premium_cents: p.premium ?? 120_000,
      total_estimated_annual_premium_cents: null,
      effective_date: addDays(TODAY, -330),
      expiry_date: p.expiry === undefined ? addDays(TODAY, 20) : p.expiry,
      renewal_date: null,
      canceled_date: p.canceled ?? null,
      status: p.status ?? "ACTIVE",
    })),
  };
}

/** A pull stored, assigned to `agent` and marked LOST by them `lostDaysAgo` days ago. */
async function lostDeal(account: string, agent: Actor, lostDaysAgo: number, expiry?: unknown): Promise<string> {
  const pull = payload({ account, policies: [{ id: "auto-1", expiry }] });
  await storePull(database.db, pull);
  expect(
    await assignPulls(database.db, staff.manager, { pullIds: [pull.pull_id], assigneeId: agent.id }),
  ).toMatchObject({ ok: true });
  const lost = await setPullStage(
    database.db,
    agent,
    {
      pullId: pull.pull_id,
      stage: "LOST",
      lostCategory: "PRICE",
      lostToCarrier: "GEICO",
      lostToPremium: "1,480.00",
      lostReason: "Cheaper elsewhere",
    },
    new Date(Date.now() - lostDaysAgo * DAY),
  );
  expect(lost).toMatchObject({ ok: true });
  return pull.pull_id;
}

const returnsOf = (pullId: string) => database.db.select().from(dealReturns).where(eq(dealReturns.pullId, pullId));
const auditOf = (pullId: string) =>
  database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.pullId, pullId), eq(auditEvents.action, "DEAL_RETURNED")));
/** No service answers here: the pages loaded are no WON client's, so nothing asks it. */
const NO_SERVICE = {
  baseUrl: "http://127.0.0.1:9/api/v1.0.0",
  teamId: "team-1",
  clientId: "x",
  clientSecret: "y",
  timeoutMs: 500,
};
const pullOf = async (pullId: string) => (await database.db.select().from(pulls).where(eq(pulls.pullId, pullId)))[0];

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
});
afterAll(async () => {
  await database?.close();
});

describe("deals that come back", () => {
  let recycled = "";
  let departed = "";
  let refresh = "";

  it("brings a lost deal back once when its X-date is within the lead time, however the job runs", async () => {
    recycled = await lostDeal("acct_recycled", staff.agent, 120);
    const now = new Date();
    // Three instances at once (on PostgreSQL, three connections racing for the same row).
    const runs = await Promise.all([1, 2, 3].map(() => returnRecycledDeals(database.db, { today: TODAY, now })));
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await returnRecycledDeals(database.db, { today: TODAY })).toBe(0);

    const rows = await returnsOf(recycled);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: "RECYCLED",
      key: `RECYCLED:acct_recycled:${addDays(TODAY, 20)}`,
      xDate: addDays(TODAY, 20),
      assigneeId: staff.agent.id,
      previousAssigneeId: staff.agent.id,
      lostCategory: "PRICE",
      lostToCarrier: "GEICO",
      lostReason: "Cheaper elsewhere",
      premiumThenCents: 148_000,
      // No refresh since the loss: no renewal premium seen.
      renewalPremiumCents: null,
      carrierLabel: "Progressive",
      policyType: "AUTO",
      wonAt: null,
    });
    expect(rows[0]?.headline).toMatch(/^Lost in \w+( \d{4})? to GEICO on price \(\$1,480\); Progressive auto renews /);
    expect(await auditOf(recycled)).toHaveLength(1);
    // Back to WORKING with its agent, as news to them; the X-dates follow.
    expect(await pullOf(recycled)).toMatchObject({
      stage: "WORKING",
      assigneeId: staff.agent.id,
      assigneeSeenAt: null,
      lostCategory: null,
      decisionCarried: false,
    });
    const [x] = await database.db.select().from(policyXDates).where(eq(policyXDates.pullId, recycled));
    expect(x?.stage).toBe("WORKING");
  });

  it("leaves a deal whose X-date is past the lead time, or that was lost knowing its X-date", async () => {
    const far = await lostDeal("acct_far", staff.agent, 120, addDays(TODAY, 90));
    const recent = await lostDeal("acct_recent", staff.agent, 5);
    expect(await returnRecycledDeals(database.db, { today: TODAY })).toBe(0);
    expect(await returnsOf(far)).toEqual([]);
    expect(await returnsOf(recent)).toEqual([]);
    expect((await pullOf(far))?.stage).toBe("LOST");
    // A longer lead time (the agency's rule, or passed in) reaches it.
    expect(await returnRecycledDeals(database.db, { today: TODAY, leadTimeDays: 100 })).toBe(1);
    expect((await pullOf(far))?.stage).toBe("WORKING");
  });

  it("gives a departed agent's deal to the queue, where every agent sees it", async () => {
    // An earlier pull of the account, also theirs: it must not keep the account held.
    const earlier = payload({
      account: "acct_departed",
      policies: [{ id: "auto-1" }],
      createdAt: new Date(Date.now() - 400 * DAY).toISOString(),
    });
    await storePull(database.db, earlier);
    await assignPulls(database.db, staff.manager, { pullIds: [earlier.pull_id], assigneeId: staff.otherAgent.id });
    departed = await lostDeal("acct_departed", staff.otherAgent, 200);
    await database.db.update(users).set({ isActive: false }).where(eq(users.id, staff.otherAgent.id));
    try {
      expect(await returnRecycledDeals(database.db, { today: TODAY })).toBe(1);
    } finally {
      await database.db.update(users).set({ isActive: true }).where(eq(users.id, staff.otherAgent.id));
    }
    expect(await returnsOf(departed)).toMatchObject([{ assigneeId: null, previousAssigneeId: staff.otherAgent.id }]);
    expect(await pullOf(departed)).toMatchObject({ stage: "WORKING", assigneeId: null, assignedAt: null });
    const [entry] = await auditOf(departed);
    expect(entry?.details).toMatchObject({
      kind: "RECYCLED",
      to: null,
      fromName: "Otto Other",
      releasedPullIds: [earlier.pull_id],
    });
    expect(await pullOf(earlier.pull_id)).toMatchObject({ assigneeId: null });
    expect(await getViewablePull(database.db, staff.agent, departed), "in the queue for any agent").not.toBeNull();
  });

  it("brings a won client back once when a refresh shows the policy cancelled, however often it is stored", async () => {
    const won = payload({
      account: "acct_winback",
      createdAt: new Date(Date.now() - 60 * DAY).toISOString(),
      policies: [{ id: "auto-1", expiry: addDays(TODAY, 200) }],
    });
    await storePull(database.db, won);
    await assignPulls(database.db, staff.manager, { pullIds: [won.pull_id], assigneeId: staff.agent.id });
    expect(
      await setPullStage(database.db, staff.agent, { pullId: won.pull_id, stage: "WON", premium: "1,842.50" }),
    ).toMatchObject({ ok: true });
    // A refresh that changed nothing that matters: still won.
    const calm = payload({
      account: "acct_winback",
      createdAt: new Date(Date.now() - 30 * DAY).toISOString(),
      policies: [{ id: "auto-1", expiry: addDays(TODAY, 200) }],
    });
    await storePull(database.db, calm);
    expect((await pullOf(calm.pull_id))?.stage).toBe("WON");

    const cancelled = payload({
      account: "acct_winback",
      createdAt: new Date().toISOString(),
      policies: [{ id: "auto-1", expiry: addDays(TODAY, 200), status: "CANCELLED", canceled: TODAY }],
    });
    refresh = cancelled.pull_id;
    await storePull(database.db, cancelled);
    await storePull(database.db, cancelled); // redelivered
    await storePull(database.db, { ...cancelled, email: "changed@example.com" }); // reprocessed with another change
    const rows = await returnsOf(refresh);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: "WIN_BACK",
      key: `WIN_BACK:acct_winback:N-acct_winback-auto-1:${refresh}`,
      assigneeId: staff.agent.id,
      premiumThenCents: 184_250,
    });
    expect(rows[0]?.headline).toMatch(/^Won in \w+( \d{4})? at \$1,843; Progressive auto was cancelled on /);
    expect(await auditOf(refresh)).toHaveLength(1);
    expect(await pullOf(refresh)).toMatchObject({
      stage: "WORKING",
      assigneeId: staff.agent.id,
      wonPremiumCents: null,
    });
    // The win made on the first pull stands there.
    expect((await pullOf(won.pull_id))?.stage).toBe("WON");
  });

  it("shows an agent their own and the queue's returns, managers every one, and a banner on the pull", async () => {
    const mine = (await listCameBack(database.db, asUser(staff.agent))).map((r) => r.pullId);
    expect(mine).toEqual(expect.arrayContaining([recycled, departed, refresh]));
    const other = (await listCameBack(database.db, asUser(staff.otherAgent))).map((r) => r.pullId);
    // Otto sees the queue's (his old deal went there), not Ann's.
    expect(other).toContain(departed);
    expect(other).not.toContain(recycled);
    expect(other).not.toContain(refresh);
    const all = (await listCameBack(database.db, asUser(staff.manager))).map((r) => r.pullId);
    expect(all).toEqual(expect.arrayContaining([recycled, departed, refresh]));

    expect((await getOpenDealReturn(database.db, recycled))?.kind).toBe("RECYCLED");
    const page = await loadPullPage(database.db, NO_SERVICE, asUser(staff.agent), refresh);
    expect(page?.dealReturn?.kind).toBe("WIN_BACK");
    // Another agent cannot open it, banner or not.
    expect(await loadPullPage(database.db, NO_SERVICE, asUser(staff.otherAgent), refresh)).toBeNull();
  });

  it("counts a returned deal won again as a recycled win, by agent and by kind, with CSV", async () => {
    const at = new Date();
    expect(
      await setPullStage(database.db, staff.agent, { pullId: recycled, stage: "WON", premium: "2,100.00" }, at),
    ).toMatchObject({ ok: true });
    expect(await returnsOf(recycled)).toMatchObject([{ wonAt: at, wonPremiumCents: 210_000 }]);
    expect(await getOpenDealReturn(database.db, recycled)).toBeNull();
    expect((await listCameBack(database.db, asUser(staff.agent))).map((r) => r.pullId)).not.toContain(recycled);
    // A corrected premium corrects the recycled win, not a second one.
    await setPullStage(database.db, staff.agent, { pullId: recycled, stage: "WON", premium: "2,200.00" }, at);
    expect(await returnsOf(recycled)).toMatchObject([{ wonPremiumCents: 220_000 }]);
    await setPullStage(database.db, staff.agent, { pullId: refresh, stage: "WON", premium: "1,900.00" });

    const report = await getReport(database.db, {});
    const ann = report.recycledWins.find((r) => r.dimension === "agent" && r.key === staff.agent.id);
    expect(ann).toMatchObject({ label: "Ann Agent", won: 2, cents: 410_000 });
    expect(ann?.returned).toBe(3); // recycled, far and the win-back went back to her
    expect(report.recycledWins.filter((r) => r.dimension === "kind")).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: "RECYCLED", won: 1, cents: 220_000 }),
        expect.objectContaining({ key: "WIN_BACK", won: 1, cents: 190_000 }),
      ]),
    );
    expect(report.recycledWins).toContainEqual(
      expect.objectContaining({ dimension: "agent", key: "", label: "Unassigned queue", returned: 1, won: 0 }),
    );
    expect(reportCsv(report, "recycledWins")).toContain("agent,Ann Agent,3,2,4100.00");
    // The report's filter narrows it: another agent's figures, a range before any of it.
    expect((await getReport(database.db, { agent: staff.otherAgent.id })).recycledWins).toEqual([]);
    const before = await getReport(database.db, { to: addDays(TODAY, -40) });
    expect(before.recycledWins).toEqual([]);
  });

  it("brings nothing back from bad input, and does not throw", async () => {
    const noDate = await lostDeal("acct_no_date", staff.agent, 200, null);
    const malformed = await lostDeal("acct_malformed", staff.agent, 200, "next spring");
    for (const today of ["2026-13-45", "next spring", "", "2026-02-30x"])
      expect(await returnRecycledDeals(database.db, { today })).toBe(0);
    expect(await returnRecycledDeals(database.db, { leadTimeDays: -3 })).toBe(0);
    expect(await returnRecycledDeals(database.db, { now: new Date("nonsense") })).toBe(0);
    expect(await returnRecycledDeals(database.db, { today: TODAY, leadTimeDays: 365 })).toBe(0);
    expect(await returnsOf(noDate)).toEqual([]);
    expect(await returnsOf(malformed)).toEqual([]);
    expect((await pullOf(malformed))?.stage).toBe("LOST");
  });
});
