import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alerts, householdGaps, offices, policyXDates, pulls, users } from "@/db/schema";
import { queryRows } from "@/db/connect";
import { listAlerts } from "@/lib/alerts/inbox";
import { parseCrossSellQuery } from "@/lib/cross-sell/list-query";
import { listCrossSell } from "@/lib/cross-sell/queries";
import { viewScope } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { storePull } from "@/lib/ingest/store-pull";
import { parsePullListQuery } from "@/lib/pulls/list-query";
import { listPulls } from "@/lib/pulls/queries";
import { reportFilterFor } from "@/lib/reports/office-filter";
import { getReport } from "@/lib/reports/queries";
import { assignPulls } from "@/lib/workflow/assignment";
import { autoAssignPull, saveAssignmentSettings } from "@/lib/workflow/auto-assign";
import { placeDemoOffices } from "@/lib/demo/offices";
import { setPullStage } from "@/lib/workflow/funnel";
import { countQueue } from "@/lib/workflow/my-pulls";
import { listXDates } from "@/lib/xdates/queries";
import { generatePulls } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { upgradedDatabase } from "@/test/migrations";
import { createStaff, placeStaffInTwoOffices } from "@/test/workflow-fixture";
import { createOffice, deleteOffice, renameOffice, setUserOffice } from "./offices";

// Offices on a real database: who sees which pulls (lists, counts, X-dates), whom a manager of
// an office may assign to, the reports' office filter, and what the commands refuse.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;
let officeA = "";
let officeB = "";
/** p[0] the agent's (A), p[1] the other agent's (B), p[2] B's queue, p[3] the agency-wide queue. */
const p: string[] = [];
const withOffice = (actor: Actor, officeId: string | null): Actor => ({ ...actor, officeId });
let manager: Actor;
let agent: Actor;
let otherAgent: Actor;

const listed = async (actor: Actor) =>
  (await listPulls(database.db, viewScope(actor), parsePullListQuery({}).query, 200)).rows.map((r) => r.pullId);
const count = async (actor: Actor) =>
  (await listPulls(database.db, viewScope(actor), parsePullListQuery({}).query)).total;

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
  ({ officeA, officeB } = await placeStaffInTwoOffices(database.db, staff));
  manager = withOffice(staff.manager, officeA);
  agent = withOffice(staff.agent, officeA);
  otherAgent = withOffice(staff.otherAgent, officeB);
  const sample = generatePulls(4711, 40, new Date())
    .filter((pull) => pull.status === "SUCCESS" && !pull.parent_pull_id && pull.account_identifier)
    .slice(0, 4);
  for (const pull of sample) {
    await storePull(database.db, pull);
    p.push(pull.pull_id);
  }
  const [p0, p1, p2] = p as [string, string, string, string];
  expect((await assignPulls(database.db, staff.admin, { pullIds: [p0], assigneeId: staff.agent.id })).ok).toBe(true);
  expect((await assignPulls(database.db, staff.admin, { pullIds: [p1], assigneeId: staff.otherAgent.id })).ok).toBe(
    true,
  );
  // Given to B's agent, then back to the queue: it stays in B's queue.
  expect((await assignPulls(database.db, staff.admin, { pullIds: [p2], assigneeId: staff.otherAgent.id })).ok).toBe(
    true,
  );
  expect((await assignPulls(database.db, staff.admin, { pullIds: [p2], assigneeId: null })).ok).toBe(true);
}, 120_000);
afterAll(async () => {
  await database?.close();
});

describe("who sees which pulls", () => {
  it("gives a pull its assignee's office, and keeps it when unassigned", async () => {
    const rows = await database.db.select({ pullId: pulls.pullId, officeId: pulls.officeId }).from(pulls);
    const office = new Map(rows.map((r) => [r.pullId, r.officeId]));
    expect([p[0], p[1], p[2], p[3]].map((id) => office.get(id ?? ""))).toEqual([officeA, officeB, officeB, null]);
  });

  it("shows a manager of A the office's pulls and the agency-wide queue, never B's", async () => {
    const seen = await listed(manager);
    expect(seen).toEqual(expect.arrayContaining([p[0], p[3]]));
    expect(seen).not.toContain(p[1]);
    expect(seen).not.toContain(p[2]);
    expect(await count(manager)).toBe(seen.length);
  });

  it("shows an agent of A their own and the queues of A and the agency, not B's queue", async () => {
    const seen = await listed(agent);
    expect(seen).toEqual(expect.arrayContaining([p[0], p[3]]));
    expect(seen).not.toContain(p[2]);
    expect(seen).not.toContain(p[1]);
    expect(await listed(otherAgent)).toEqual(expect.arrayContaining([p[1], p[2], p[3]]));
  });

  it("counts on My pulls the queues an agent of an office may take from", async () => {
    const ofA = (await countQueue(database.db, 1000, officeA)).total;
    const ofB = (await countQueue(database.db, 1000, officeB)).total;
    const agencyWide = (await countQueue(database.db, 1000)).total;
    expect(ofB).toBe(ofA + 1); // B's queue pull
    expect(agencyWide).toBe(ofB);
  });

  it("lists a manager of A the alerts of A's pulls, not B's", async () => {
    await database.db.insert(alerts).values([
      { key: "office|a", kind: "CANCELLED", pullId: p[0] ?? "", headline: "Cancelled" },
      { key: "office|b", kind: "CANCELLED", pullId: p[1] ?? "", headline: "Cancelled" },
    ]);
    const keysFor = async (actor: Actor) =>
      (await listAlerts(database.db, actor, { view: "open", whose: "everyone" })).map(
        (row) => row.headline + row.pullId,
      );
    const ofManager = await keysFor(manager);
    expect(ofManager).toContain(`Cancelled${p[0]}`);
    expect(ofManager).not.toContain(`Cancelled${p[1]}`);
    expect(await keysFor(staff.admin)).toEqual(expect.arrayContaining([`Cancelled${p[0]}`, `Cancelled${p[1]}`]));
  });

  it("shows an admin every office, and a user with no office what they saw before", async () => {
    expect(await listed(staff.admin)).toEqual(expect.arrayContaining(p));
    expect(await listed(withOffice(manager, null))).toEqual(expect.arrayContaining(p));
    expect(await count(staff.admin)).toBeGreaterThan(await count(manager));
  });

  it("copies the office onto the X-dates and lists them by the same rule", async () => {
    const copies = await queryRows<{ pull_id: string; same: boolean }>(
      database.db,
      sql`select x.pull_id, x.office_id is not distinct from p.office_id as same
            from ${policyXDates} x join ${pulls} p on p.pull_id = x.pull_id`,
    );
    expect(copies.length).toBeGreaterThan(0);
    expect(copies.every((c) => c.same)).toBe(true);
    const window = { from: "1900-01-01", to: "2999-12-31" };
    const seen = new Set(
      (await listXDates(database.db, viewScope(manager, "xdates:view"), {}, window, { limit: 1000 })).map(
        (r) => r.pullId,
      ),
    );
    expect(seen.has(p[1] ?? "")).toBe(false);
    expect(seen.has(p[2] ?? "")).toBe(false);
    const all = new Set(
      (await listXDates(database.db, viewScope(staff.admin, "xdates:view"), {}, window, { limit: 1000 })).map(
        (r) => r.pullId,
      ),
    );
    const ofB = copies.filter((c) => c.pull_id === p[1] || c.pull_id === p[2]).length;
    if (ofB > 0) expect(all.has(p[1] ?? "") || all.has(p[2] ?? "")).toBe(true);
  });

  it("copies the office onto the households and lists cross-sell by the same rule", async () => {
    const copies = await queryRows<{ pull_id: string; office_id: string | null; same: boolean }>(
      database.db,
      sql`select h.pull_id, h.office_id, h.office_id is not distinct from p.office_id as same
            from ${householdGaps} h join ${pulls} p on p.pull_id = h.pull_id where h.pull_id in (${sql.join(
              p.map((id) => sql`${id}::uuid`),
              sql`, `,
            )})`,
    );
    expect(copies.map((c) => c.pull_id).sort()).toEqual([...p].sort());
    expect(copies.every((c) => c.same)).toBe(true);
    expect(copies.find((c) => c.pull_id === p[2])?.office_id).toBe(officeB);
    const { query } = parseCrossSellQuery({});
    const seenBy = async (actor: Actor) =>
      new Set(
        (await listCrossSell(database.db, viewScope(actor, "cross-sell:view"), query, { limit: 1_000 })).map(
          (r) => r.pullId,
        ),
      );
    const adminSees = await seenBy(staff.admin);
    expect(adminSees.has(p[1] ?? "") || adminSees.has(p[2] ?? "")).toBe(true);
    const managerSees = await seenBy(manager);
    expect(managerSees.has(p[1] ?? "")).toBe(false);
    expect(managerSees.has(p[2] ?? "")).toBe(false);
    const agentSees = await seenBy(agent);
    expect(agentSees.has(p[2] ?? "")).toBe(false);
    // Moving B's agent to A moves their pull's household into A's view at once.
    expect((await setUserOffice(database.db, staff.admin, { userId: staff.otherAgent.id, officeId: officeA })).ok).toBe(
      true,
    );
    const moved = await queryRows<{ office_id: string | null }>(
      database.db,
      sql`select office_id from ${householdGaps} where pull_id = ${p[1]}`,
    );
    expect(moved[0]?.office_id).toBe(officeA);
    expect((await setUserOffice(database.db, staff.admin, { userId: staff.otherAgent.id, officeId: officeB })).ok).toBe(
      true,
    );
  });
});

describe("assigning within an office", () => {
  it("refuses a manager of A giving a pull to B's agent, and lets them give it to A's", async () => {
    const refused = await assignPulls(database.db, manager, { pullIds: [p[3] ?? ""], assigneeId: staff.otherAgent.id });
    expect(refused).toMatchObject({ ok: false, code: "FORBIDDEN" });
    const given = await assignPulls(database.db, manager, { pullIds: [p[3] ?? ""], assigneeId: staff.agent.id });
    expect(given.ok).toBe(true);
    const [row] = await database.db
      .select({ officeId: pulls.officeId })
      .from(pulls)
      .where(eq(pulls.pullId, p[3] ?? ""));
    expect(row?.officeId).toBe(officeA);
    // Back to the agency-wide queue for the other tests: unassigned, it keeps office A now.
    await assignPulls(database.db, staff.admin, { pullIds: [p[3] ?? ""], assigneeId: null });
    await database.db
      .update(pulls)
      .set({ officeId: null })
      .where(eq(pulls.pullId, p[3] ?? ""));
  });

  it("refuses a manager of A any pull of B, as if it did not exist", async () => {
    const refused = await assignPulls(database.db, manager, { pullIds: [p[1] ?? ""], assigneeId: staff.agent.id });
    expect(refused).toMatchObject({ ok: false, code: "NOT_FOUND" });
  });
});

describe("reports by office", () => {
  it("gives a manager of A the figures of A's agents only, whatever the URL asks", async () => {
    expect(
      (await setPullStage(database.db, staff.admin, { pullId: p[0] ?? "", stage: "WON", premium: "1000" })).ok,
    ).toBe(true);
    expect(
      (await setPullStage(database.db, staff.admin, { pullId: p[1] ?? "", stage: "WON", premium: "3000" })).ok,
    ).toBe(true);
    const forManager = await getReport(database.db, reportFilterFor(manager, { office: officeB }));
    expect(forManager.won).toEqual({ count: 1, cents: 100_000 });
    const forAdmin = await getReport(database.db, reportFilterFor(staff.admin, {}));
    expect(forAdmin.won).toEqual({ count: 2, cents: 400_000 });
    const adminOfB = await getReport(database.db, reportFilterFor(staff.admin, { office: officeB }));
    expect(adminOfB.won).toEqual({ count: 1, cents: 300_000 });
  });
});

describe("assignment rules and the demo agency", () => {
  it("routes a new pull to an office's queue when a rule says so", async () => {
    const saved = await saveAssignmentSettings(database.db, staff.admin, {
      mode: "RULES",
      rules: [{ officeId: officeB, assigneeId: "" }],
    });
    expect(saved).toEqual({ ok: true });
    const pullId = p[3] ?? "";
    await database.db.transaction((tx) => autoAssignPull(tx, { pullId, states: [], linesOfBusiness: [] }));
    const [row] = await database.db
      .select({ assigneeId: pulls.assigneeId, officeId: pulls.officeId })
      .from(pulls)
      .where(eq(pulls.pullId, pullId));
    expect(row).toEqual({ assigneeId: null, officeId: officeB });
    expect(await listed(agent)).not.toContain(pullId);
    expect(await listed(otherAgent)).toContain(pullId);
    // A rule names the office: it is not deleted from under it.
    await database.db.update(users).set({ officeId: null }).where(eq(users.id, staff.otherAgent.id));
    expect(await deleteOffice(database.db, staff.admin, { id: officeB })).toMatchObject({ ok: false, code: "INVALID" });
    await database.db.update(users).set({ officeId: officeB }).where(eq(users.id, staff.otherAgent.id));
    await saveAssignmentSettings(database.db, staff.admin, { mode: "OFF" });
  });

  it("places Riverside's manager in the demo agency's Riverside office", async () => {
    await placeDemoOffices(database.db);
    const [riley] = await database.db
      .select({ officeId: users.officeId, role: users.role })
      .from(users)
      .where(eq(users.email, "riley@example.com"));
    expect(riley).toEqual({ officeId: officeB, role: "MANAGER" });
  });
});

describe("bad input", () => {
  it("refuses an empty, too long or duplicate name", async () => {
    expect(await createOffice(database.db, staff.admin, { name: "  " })).toMatchObject({ ok: false, code: "INVALID" });
    expect(await createOffice(database.db, staff.admin, { name: "x".repeat(81) })).toMatchObject({
      ok: false,
      code: "INVALID",
    });
    expect(await createOffice(database.db, staff.admin, { name: "main STREET" })).toMatchObject({
      ok: false,
      code: "INVALID",
      message: "Another office has that name.",
    });
    expect(await renameOffice(database.db, staff.admin, { id: officeB, name: "Main street" })).toMatchObject({
      ok: false,
      code: "INVALID",
    });
    expect(await createOffice(database.db, staff.manager, { name: "Hillside" })).toMatchObject({
      ok: false,
      code: "FORBIDDEN",
    });
  });

  it("refuses an unknown office for a user or a rule, and deleting an office with people", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect(await setUserOffice(database.db, staff.admin, { userId: staff.agent.id, officeId: unknown })).toMatchObject({
      ok: false,
      code: "INVALID",
    });
    expect(await setUserOffice(database.db, staff.admin, { userId: staff.agent.id, officeId: "nope" })).toMatchObject({
      ok: false,
      code: "INVALID",
    });
    expect(
      await saveAssignmentSettings(database.db, staff.admin, { mode: "RULES", rules: [{ officeId: unknown }] }),
    ).toMatchObject({ ok: false, code: "INVALID" });
    expect(await deleteOffice(database.db, staff.admin, { id: officeA })).toMatchObject({ ok: false, code: "INVALID" });
    const empty = await createOffice(database.db, staff.admin, { name: "Hillside" });
    if (!empty.ok) throw new Error("not created");
    expect(await deleteOffice(database.db, staff.admin, { id: empty.id })).toEqual({ ok: true });
    expect(await database.db.select().from(offices).where(eq(offices.id, empty.id))).toEqual([]);
  });
});

describe("0047 on a database that has pulls", () => {
  it("leaves existing pulls agency-wide, and gives a pull its assignee's office from then on", async () => {
    const user = "11111111-1111-4111-8111-111111111111";
    const { connection, close } = await upgradedDatabase(47, async (run) => {
      await run(
        `insert into users (id, email, name, role, password_hash) values ('${user}', 'a@x.test', 'A', 'AGENT', 'x')`,
      );
      await run(`insert into pulls (pull_id, status, raw, content_hash, assignee_id)
                 values ('22222222-2222-4222-8222-222222222222', 'SUCCESS', '{}', 'x', '${user}')`);
    });
    try {
      const db = connection.db;
      const before = await queryRows<{ office_id: string | null }>(db, sql`select office_id from pulls`);
      expect(before).toEqual([{ office_id: null }]);
      await db.execute(sql`insert into offices (id, name) values ('33333333-3333-4333-8333-333333333333', 'North')`);
      await db.execute(sql`update users set office_id = '33333333-3333-4333-8333-333333333333'`);
      await db.execute(sql`update pulls set assignee_id = null`);
      await db.execute(sql`update pulls set assignee_id = ${user}`);
      const after = await queryRows<{ office_id: string | null }>(db, sql`select office_id from pulls`);
      expect(after).toEqual([{ office_id: "33333333-3333-4333-8333-333333333333" }]);
    } finally {
      await close();
    }
  }, 120_000);
});
