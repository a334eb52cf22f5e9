import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  agencyRules,
  dealReturns,
  enrichmentAnswers,
  findingDecisions,
  handoffs,
  legalHolds,
  monitoringEvents,
  monitorings,
  policyCheckRuns,
  pullArchiveWrites,
  pulls,
  servicingRequests,
  users,
} from "@/db/schema";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { storePull } from "@/lib/ingest/store-pull";
import { markPullSeen } from "@/lib/workflow/seen";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { householdPayload } from "@/test/household-payload";
import { createStaff } from "@/test/workflow-fixture";
import type { PullPageInput } from "./pull-page-inputs";
import { getPullPageVersion } from "./pull-page-version";

// The pull page's version follows its loader: a change that any one of the page's reads would
// see changes the version, so an open page knows it is stale. The changes are keyed by the
// loader's inputs, so a read the page gains fails to compile here until it has its change.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;
const asUser = (actor: Actor): Actor => ({ ...actor, sessionId: "" });

const account = `acct_${randomUUID()}`;
const older = householdPayload({ account, createdAt: "2026-01-01T00:00:00Z", policies: [{ type: "AUTO" }] });
const pull = householdPayload({ account, createdAt: "2026-06-01T00:00:00Z", policies: [{ type: "AUTO" }] });
const id = pull.pull_id;

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
  await storePull(database.db, older);
  await storePull(database.db, pull);
});
afterAll(async () => {
  await database?.close();
});

const servicingRequest = (pullId: string, servicingPullId: string | null = null) => ({
  id: randomUUID(),
  pullId,
  accountKey: account,
  actionType: "ADD_DRIVER",
  payload: {},
  servicingPullId,
  expiresAt: new Date(Date.now() + 86_400_000),
});

/** One change the page would show, through each of its loader's inputs. */
const changes: Record<PullPageInput, () => Promise<unknown>> = {
  detail: () => database.db.update(pulls).set({ stage: "WON" }).where(eq(pulls.pullId, id)),
  assigneeName: async () => {
    await database.db.update(pulls).set({ assigneeId: staff.agent.id }).where(eq(pulls.pullId, id));
    const before = await version();
    await database.db.update(users).set({ name: "Ann Renamed" }).where(eq(users.id, staff.agent.id));
    return before;
  },
  monitoring: () =>
    database.db.insert(monitorings).values({ monitoringId: `mon_${randomUUID()}`, accountIdentifier: account }),
  people: () => database.db.update(users).set({ name: "Otto Renamed" }).where(eq(users.id, staff.otherAgent.id)),
  history: () => recordAudit(database.db, staff.manager, "DOCUMENT_DOWNLOADED", { pullId: id }),
  dealReturn: () =>
    database.db.insert(dealReturns).values({ key: randomUUID(), kind: "RETURNED", pullId: id, headline: "Came back" }),
  review: () =>
    database.db
      .insert(findingDecisions)
      .values({ accountKey: account, pullId: id, findingKey: "NO_FLOOD", decision: "DISMISSED" }),
  policyCheck: () => database.db.insert(policyCheckRuns).values({ pullId: id, settings: {} }),
  servicing: () => database.db.insert(servicingRequests).values(servicingRequest(id)),
  servicedPull: () => database.db.insert(servicingRequests).values(servicingRequest(older.pull_id, id)),
  enrichment: () =>
    database.db.insert(enrichmentAnswers).values({
      kind: "HOME",
      questionKey: randomUUID(),
      accountKey: `acct_${randomUUID()}`,
      subjectKey: "home-1",
      question: {},
    }),
  archive: () => database.db.insert(pullArchiveWrites).values({ pullId: id, archived: true }),
  // A hold on the whole account, not on this pull: the page shows it all the same.
  legalHolds: () => database.db.insert(legalHolds).values({ accountKey: account, reason: "Claim of 3 March" }),
  agencyzoom: () =>
    database.db
      .insert(handoffs)
      .values({ pullId: id, target: "agencyzoom", externalId: "1000001", sentByName: "Max Manager" }),
  timeline: () =>
    database.db
      .insert(monitoringEvents)
      .values({ inboxEventId: Math.floor(Math.random() * 1e9), pullId: older.pull_id, type: "REFRESHED" }),
};

const version = () => getPullPageVersion(database.db, asUser(staff.manager), id);

describe("the pull page's version", () => {
  it("is the same while nothing the page shows changes", async () => {
    expect(await version()).toMatch(/^[0-9a-f]{32}$/);
    expect(await version()).toBe(await version());
  });

  it.each(Object.keys(changes) as PullPageInput[])("changes when %s changes", async (input) => {
    const before = await version();
    const returned = await changes[input]();
    const baseline = typeof returned === "string" ? returned : before;
    expect(await version()).not.toBe(baseline);
  });

  it("changes when the agency's review rules change", async () => {
    const before = await version();
    await database.db
      .insert(agencyRules)
      .values({ id: 1, leadTimeDays: 30 })
      .onConflictDoUpdate({ target: agencyRules.id, set: { leadTimeDays: sql`${agencyRules.leadTimeDays} + 1` } });
    expect(await version()).not.toBe(before);
  });

  it("stays the same when the assignee's first view is marked, which the page does not show", async () => {
    await database.db
      .update(pulls)
      .set({ assigneeId: staff.agent.id, assigneeSeenAt: null })
      .where(eq(pulls.pullId, id));
    const before = await version();
    await markPullSeen(database.db, staff.agent.id, id);
    expect(await version()).toBe(before);
  });

  it("is null for a pull the viewer may not see, or that does not exist", async () => {
    expect(await getPullPageVersion(database.db, asUser(staff.manager), randomUUID())).toBeNull();
    await database.db.update(pulls).set({ assigneeId: staff.otherAgent.id }).where(eq(pulls.pullId, id));
    expect(await getPullPageVersion(database.db, asUser(staff.agent), id)).toBeNull();
  });
});
