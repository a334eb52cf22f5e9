import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { auditEvents, findingDecisions, pulls } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { autoPolicy, coverage, rawPullOf, soundAuto, split, vehicle } from "@/test/review-pulls";
import { createStaff } from "@/test/workflow-fixture";
import { decideFinding, getDecisions } from "./decisions";

// The errors-and-omissions record on a real database: who may record a client's decision (the
// pull's agent, the queue's agents, managers and admins; nobody on a pull they cannot see),
// what is refused (a bad decision, a long note, a finding not in today's review), the upsert
// (one current decision per account and finding, every earlier one in the audit trail), and a
// refresh of the account keeping its decisions.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;

const PULL = "11111111-2222-4333-8444-000000000001";
const QUEUE_PULL = "11111111-2222-4333-8444-000000000002";
const REFRESH = "11111111-2222-4333-8444-000000000003";
const KEY = "auto-bodily-injury:AU-100";

/** An account whose auto policy carries 25/50 bodily injury: one gap, keyed by its policy number. */
const account = (pullId: string, accountIdentifier: string) =>
  rawPullOf(
    [
      autoPolicy(
        [
          vehicle({ vin: "1HGCM82633A004352" }, [
            coverage("Bodily Injury Liability", split(25_000, 50_000)),
            ...soundAuto().slice(1),
          ]),
        ],
        { carrier_policy_number: "AU-100" },
      ),
    ],
    { pull_id: pullId, account_identifier: accountIdentifier },
  );

const decisionRows = () => database.db.select().from(findingDecisions).orderBy(asc(findingDecisions.id));
const decisionAudits = () =>
  database.db.select().from(auditEvents).where(eq(auditEvents.action, "FINDING_DECIDED")).orderBy(asc(auditEvents.id));

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
});
afterAll(async () => database?.close());
beforeEach(async () => {
  await database.db.execute(sql`truncate finding_decisions, audit_events, pulls, policies, pull_versions cascade`);
  await storePull(database.db, account(PULL, "acct_own"));
  await storePull(database.db, account(QUEUE_PULL, "acct_queue"));
  await database.db.update(pulls).set({ assigneeId: staff.agent.id }).where(eq(pulls.pullId, PULL));
});

describe("recording a client's decision", () => {
  it("saves it for the account with who and when, and audits it in the same transaction", async () => {
    const at = new Date("2026-03-02T15:04:00Z");
    const result = await decideFinding(
      database.db,
      staff.agent,
      { pullId: PULL, findingKey: KEY, decision: "DECLINED", note: "  Client keeps 25/50 to save $14 a month.  " },
      at,
    );
    expect(result).toMatchObject({ ok: true });
    expect(await decisionRows()).toEqual([
      expect.objectContaining({
        accountKey: "acct_own",
        pullId: PULL,
        findingKey: KEY,
        decision: "DECLINED",
        note: "Client keeps 25/50 to save $14 a month.",
        decidedBy: staff.agent.id,
        decidedByName: "Ann Agent",
        decidedAt: at,
      }),
    ]);
    const [audit] = await decisionAudits();
    expect(audit).toMatchObject({
      actorId: staff.agent.id,
      pullId: PULL,
      at,
      details: {
        findingKey: KEY,
        rule: "auto-bodily-injury",
        title: "Bodily injury liability below $100,000/$300,000",
        decision: "DECLINED",
        note: "Client keeps 25/50 to save $14 a month.",
        previousDecision: null,
      },
    });
  });

  it("keeps one current decision per finding, and every earlier one in the audit trail", async () => {
    await decideFinding(database.db, staff.agent, { pullId: PULL, findingKey: KEY, decision: "DECLINED", note: "" });
    const again = await decideFinding(database.db, staff.manager, {
      pullId: PULL,
      findingKey: KEY,
      decision: "ACCEPTED",
      note: "Changed their mind: quote sent.",
    });
    expect(again.ok).toBe(true);
    const rows = await decisionRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ decision: "ACCEPTED", decidedByName: "Max Manager" });
    expect((await decisionAudits()).map((a) => (a.details as { decision: string }).decision)).toEqual([
      "DECLINED",
      "ACCEPTED",
    ]);
    expect((await decisionAudits())[1]?.details).toMatchObject({ previousDecision: "DECLINED" });
  });

  it("carries the decision to a refresh of the same account", async () => {
    await decideFinding(database.db, staff.agent, { pullId: PULL, findingKey: KEY, decision: "DECLINED", note: "" });
    await storePull(database.db, account(REFRESH, "acct_own"));
    expect([...(await getDecisions(database.db, REFRESH)).keys()]).toEqual([KEY]);
    expect((await getDecisions(database.db, QUEUE_PULL)).size).toBe(0);
  });

  it("lets an agent work the queue's pulls, and managers and admins any pull", async () => {
    for (const [actor, pullId] of [
      [staff.otherAgent, QUEUE_PULL],
      [staff.manager, PULL],
      [staff.admin, QUEUE_PULL],
    ] as const)
      expect(
        await decideFinding(database.db, actor, { pullId, findingKey: KEY, decision: "NOT_APPLICABLE", note: "" }),
      ).toMatchObject({ ok: true });
  });

  it("answers another agent's pull as if it did not exist, and writes nothing", async () => {
    const result = await decideFinding(database.db, staff.otherAgent, {
      pullId: PULL,
      findingKey: KEY,
      decision: "DECLINED",
      note: "",
    });
    expect(result).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect(await decisionRows()).toEqual([]);
    expect(await decisionAudits()).toEqual([]);
  });

  it.each([
    ["an unknown decision", { decision: "MAYBE" }, "decision", /accepted, declined by the client, or not applicable/],
    ["a note of 2,001 characters", { note: "x".repeat(2_001) }, "note", /under 2,000 characters/],
    ["no finding", { findingKey: "" }, "findingKey", /Choose a finding/],
    ["a malformed pull id", { pullId: "not-a-pull" }, "pullId", /Reload the page/],
  ])("refuses %s, naming the field", async (_label, change, field, message) => {
    const result = await decideFinding(database.db, staff.agent, {
      pullId: PULL,
      findingKey: KEY,
      decision: "DECLINED",
      note: "",
      ...change,
    });
    expect(result).toMatchObject({ ok: false, code: "INVALID", field });
    expect(result.ok ? "" : result.message).toMatch(message);
    expect(await decisionRows()).toEqual([]);
  });

  it("accepts a note of exactly 2,000 characters", async () => {
    const note = "y".repeat(2_000);
    expect(
      await decideFinding(database.db, staff.agent, { pullId: PULL, findingKey: KEY, decision: "DECLINED", note }),
    ).toMatchObject({ ok: true });
  });

  it("refuses a finding that is not in the account's current review", async () => {
    const result = await decideFinding(database.db, staff.agent, {
      pullId: PULL,
      findingKey: "auto-property-damage:AU-100",
      decision: "DECLINED",
      note: "",
    });
    expect(result).toMatchObject({ ok: false, code: "STALE" });
    expect(await decisionRows()).toEqual([]);
  });
});
