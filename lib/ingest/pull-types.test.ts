import { readFileSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { householdGaps, monitorings, policyXDates, pulls, webhookEvents } from "@/db/schema";
import { listActiveMonitorings } from "@/lib/monitoring/refresh-timing";
import { parsePullListQuery } from "@/lib/pulls/list-query";
import { newestOfAccount } from "@/lib/pulls/newest-of-account";
import { getPullDetail, listPulls } from "@/lib/pulls/queries";
import { storePull } from "@/lib/ingest/store-pull";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { processDueEvents } from "./process-events";

// Every type of pull through the worker (inbox event → fetch → store → event effects), built on
// the service's published example pull, which carries no account identifier of its own: what
// the account's newest reading, the list and the household are afterwards.

const REAL = path.join(process.cwd(), "lib/service/fixtures/real/pulls/personal.json");
const example = (JSON.parse(readFileSync(REAL, "utf8")) as { pull: Record<string, unknown> }).pull;
const FIRST = example.pull_id as string;
const TEAM = example.team_id as string;
const ACCOUNT = "holder-clark-kent";

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

/** A pull like the published one: `changes` on top (another id, type, date…). */
const pullLike = (changes: Record<string, unknown>) => ({ ...example, ...changes });

/** One BOAT policy (a line the example lacks), so a pull that wrongly replaced the household would show it. */
const otherPolicies = [
  {
    policy_id: "e5a1b0c2-0000-4000-8000-00000000aaaa",
    policy_type: "BOAT",
    carrier_name: "otherco",
    status: "ACTIVE",
    total_premium_cents: 99_900,
    effective_date: "2023-01-01T00:00:00.000Z",
    expiry_date: "2023-07-01T00:00:00.000Z",
  },
];

let database: TestDatabase;
const served = new Map<string, unknown>();
let nextEvent = 0;

async function deliver(pull: Record<string, unknown>, webhook: Record<string, unknown> = {}): Promise<void> {
  const pullId = pull.pull_id as string;
  served.set(pullId, { success: true, pull });
  const payload = {
    widget_id: pull.widget_id,
    team_id: TEAM,
    pull_id: pullId,
    status: pull.status,
    meta_data: {},
    event_type: "COMPLETE",
    data: {},
    ...webhook,
  };
  await database.db.insert(webhookEvents).values({
    dedupKey: `test-${nextEvent++}`,
    eventType: String(payload.event_type),
    pullId,
    payload,
  });
}

async function runWorker(): Promise<void> {
  const fetchPull = async (pullId: string) => served.get(pullId) ?? Promise.reject(new Error(`unknown ${pullId}`));
  const summary = await processDueEvents(database.db, fetchPull, { workerId: "types-worker", batchSize: 100 });
  expect(summary.failed).toBe(0);
}

async function newestReadings(): Promise<Array<{ pullId: string; account: string | null }>> {
  return database.db
    .select({ pullId: pulls.pullId, account: pulls.accountIdentifier })
    .from(pulls)
    .where(sql`${pulls.status} = 'SUCCESS' and ${newestOfAccount}`)
    .orderBy(pulls.pullId);
}

const households = () =>
  database.db
    .select({ pullId: householdGaps.pullId, account: householdGaps.accountIdentifier, lines: householdGaps.lines })
    .from(householdGaps)
    .orderBy(householdGaps.pullId);

const xdatePulls = async () => [
  ...new Set((await database.db.select({ pullId: policyXDates.pullId }).from(policyXDates)).map((r) => r.pullId)),
];

const listAll = () => listPulls(database.db, { kind: "all" }, parsePullListQuery({}).query);

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  await database.db.delete(webhookEvents);
  await database.db.delete(pulls);
  await database.db.delete(householdGaps);
  await database.db.delete(policyXDates);
  await database.db.delete(monitorings);
  served.clear();
});

describe("every type of pull, through the worker", () => {
  const OTHER_TYPES = [
    "SERVICING",
    "DOCUMENT_UPLOAD",
    "DOCUMENT_PARSING",
    "MANUAL_ENTRY",
    "POLICY_LOOKUP",
    "AGENT",
    "CONTACT_ME",
  ];

  it("only the PULLING_DATA pull is the account's reading; the others are kept as what they are", async () => {
    // The linked account first: its identifier comes on the webhook, as the real service sends it.
    await deliver(example, { account_identifier: ACCOUNT });
    // Then one newer pull of each other type, each naming the same account holder (the worst
    // case: a SERVICING pull does), with other policies and another name.
    for (const [index, type] of OTHER_TYPES.entries()) {
      const contactMe = type === "CONTACT_ME";
      await deliver(
        pullLike({
          pull_id: id(index + 1),
          type,
          account_identifier: ACCOUNT,
          created_at: `2023-03-0${index + 1}T10:00:00.000Z`,
          first_name: `Type ${type}`,
          phone: contactMe ? "6025550142" : example.phone,
          account_email: contactMe ? "lead@example.com" : example.account_email,
          policies: contactMe ? [] : otherPolicies,
        }),
        { account_identifier: ACCOUNT },
      );
    }
    await runWorker();

    // The account's newest reading is still the linked account's pull, under its account.
    expect(await newestReadings()).toEqual([{ pullId: FIRST, account: ACCOUNT }]);
    // Its household keeps its own lines; no other type wrote a household or X-dates.
    const household = await households();
    expect(household.map((h) => [h.pullId, h.account])).toEqual([[FIRST, ACCOUNT]]);
    expect(household[0]?.lines).not.toContain("BOAT");
    expect(await xdatePulls()).toEqual(expect.arrayContaining([FIRST]));
    expect((await xdatePulls()).filter((pullId) => pullId !== FIRST)).toEqual([]);

    // The list: the linked account and each type but SERVICING, a row each, typed.
    const list = await listAll();
    const byId = new Map(list.rows.map((row) => [row.pullId, row]));
    expect(list.total).toBe(OTHER_TYPES.length);
    expect(byId.get(FIRST)?.type).toBe("PULLING_DATA");
    expect(byId.has(id(1))).toBe(false); // SERVICING: shown under its servicing request, not listed
    for (const [index, type] of OTHER_TYPES.entries())
      if (type !== "SERVICING") expect(byId.get(id(index + 1))?.type).toBe(type);
    const lead = byId.get(id(OTHER_TYPES.indexOf("CONTACT_ME") + 1));
    expect(lead).toMatchObject({ type: "CONTACT_ME", email: "lead@example.com", phone: "6025550142" });

    // Every pull is stored and opens, a SERVICING one too; none but the reading joined the account.
    for (const index of OTHER_TYPES.keys()) {
      const detail = await getPullDetail(database.db, id(index + 1));
      expect(detail?.pull.type).toBe(OTHER_TYPES[index]);
      expect(detail?.accountKey).toBeNull();
    }
  });

  it("a newer PULLING_DATA refresh does become the account's reading", async () => {
    await deliver(example, { account_identifier: ACCOUNT });
    await deliver(pullLike({ pull_id: id(20), created_at: "2023-06-01T10:00:00.000Z", policies: otherPolicies }), {
      account_identifier: ACCOUNT,
    });
    await runWorker();
    expect(await newestReadings()).toEqual([{ pullId: id(20), account: ACCOUNT }]);
    expect((await households()).map((h) => [h.pullId, h.lines])).toEqual([[id(20), ["BOAT"]]]);
  });
});

describe("thin payloads: a pull without its account identifier", () => {
  it("stands alone when nothing names its account, and the page can say so", async () => {
    await deliver(example);
    await runWorker();
    const detail = await getPullDetail(database.db, FIRST);
    expect(detail?.pull.account_identifier).toBeNull();
    expect(detail?.accountKey).toBeNull();
    expect(await newestReadings()).toEqual([{ pullId: FIRST, account: null }]);
  });

  it("joins its account through the webhook's account_identifier, even once stored alone", async () => {
    // The sync stores what the pull list says, with no webhook beside it: the pull stands alone.
    expect((await storePull(database.db, { success: true, pull: example })).outcome).toBe("created");
    expect((await getPullDetail(database.db, FIRST))?.accountKey).toBeNull();
    // Its webhook then names the account; the payload is the same, the pull joins it.
    await deliver(example, { account_identifier: ACCOUNT });
    await runWorker();
    expect((await getPullDetail(database.db, FIRST))?.accountKey).toBe(ACCOUNT);
    expect((await households()).map((h) => [h.pullId, h.account])).toEqual([[FIRST, ACCOUNT]]);
  });

  it("a refresh joins its account through the monitoring's initial pull", async () => {
    await deliver(example, { account_identifier: ACCOUNT });
    await runWorker();
    const monitoring = { monitoring_id: "m-thin", initial_pull_id: FIRST };
    await deliver(pullLike({ pull_id: id(30), created_at: "2023-06-01T10:00:00.000Z" }), {
      event_type: "MONITORING_EVENTS",
      is_monitored: true,
      monitoring,
      data: { type: "RENEWAL", changes: [], documents: [] },
    });
    await runWorker();
    expect((await getPullDetail(database.db, id(30)))?.accountKey).toBe(ACCOUNT);
    expect(await newestReadings()).toEqual([{ pullId: id(30), account: ACCOUNT }]);
    expect((await households()).map((h) => h.pullId)).toEqual([id(30)]);
  });

  it("a refresh whose webhook names the account takes its initial pull, stored alone, into it", async () => {
    // Read by the sync, no webhook beside it (a monitoring started on the service's dashboard).
    expect((await storePull(database.db, { success: true, pull: example })).outcome).toBe("created");
    await deliver(pullLike({ pull_id: id(32), created_at: "2023-06-01T10:00:00.000Z" }), {
      account_identifier: ACCOUNT,
      is_monitored: true,
      monitoring: { monitoring_id: "m-named", initial_pull_id: FIRST },
    });
    await runWorker();
    expect((await getPullDetail(database.db, FIRST))?.accountKey).toBe(ACCOUNT);
    expect((await getPullDetail(database.db, id(32)))?.accountKey).toBe(ACCOUNT);
    expect(await newestReadings()).toEqual([{ pullId: id(32), account: ACCOUNT }]);
    expect((await households()).map((h) => [h.pullId, h.account])).toEqual([[id(32), ACCOUNT]]);
  });

  it("a refresh and its initial pull, both without any identifier, become one account named after the initial pull", async () => {
    await deliver(example);
    await runWorker();
    await deliver(pullLike({ pull_id: id(31), created_at: "2023-06-01T10:00:00.000Z" }), {
      is_monitored: true,
      monitoring: { monitoring_id: "m-bare", initial_pull_id: FIRST },
    });
    await runWorker();
    expect((await getPullDetail(database.db, FIRST))?.accountKey).toBe(FIRST);
    expect((await getPullDetail(database.db, id(31)))?.accountKey).toBe(FIRST);
    expect(await newestReadings()).toEqual([{ pullId: id(31), account: FIRST }]);
    expect((await households()).map((h) => h.pullId)).toEqual([id(31)]);
    expect(await xdatePulls()).not.toContain(FIRST);
    // The renewal timing of its monitoring reads that account's X-dates.
    await database.db.update(monitorings).set({ status: "ACTIVE" }).where(eq(monitorings.monitoringId, "m-bare"));
    expect((await listActiveMonitorings(database.db, "")).map((m) => m.accountIdentifier)).toEqual([FIRST]);
  });
});

describe("pulls the service deleted", () => {
  it("leave the list and its count and the account's reading, but stay stored, and say so", async () => {
    await deliver(example, { account_identifier: ACCOUNT });
    // First as a live refresh, the account's reading; then fetched again, deleted.
    await deliver(pullLike({ pull_id: id(40), created_at: "2023-06-01T10:00:00.000Z" }), {
      account_identifier: ACCOUNT,
    });
    await runWorker();
    expect((await households()).map((h) => h.pullId)).toEqual([id(40)]);
    await deliver(
      pullLike({ pull_id: id(40), created_at: "2023-06-01T10:00:00.000Z", deleted_at: "2023-07-01T00:00:00.000Z" }),
      { account_identifier: ACCOUNT },
    );
    await runWorker();
    const list = await listAll();
    expect(list.rows.map((row) => row.pullId)).toEqual([FIRST]);
    expect(list.total).toBe(1);
    expect(await newestReadings()).toEqual([{ pullId: FIRST, account: ACCOUNT }]);
    expect((await households()).map((h) => h.pullId)).toEqual([FIRST]);
    const detail = await getPullDetail(database.db, id(40));
    expect(detail?.deletedAt?.toISOString()).toBe("2023-07-01T00:00:00.000Z");
    const [row] = await database.db
      .select({ listed: pulls.listed })
      .from(pulls)
      .where(eq(pulls.pullId, id(40)));
    expect(row?.listed).toBe(false);
  });
});
