import { eq } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { auditEvents, pulls, users } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import { generatePulls, type SandboxPull } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { chooseAutoAssignee, saveAssignmentSettings } from "./auto-assign";

// New pulls handed out automatically, once, when they first succeed.

let database: TestDatabase | undefined;
let staff: Awaited<ReturnType<typeof createStaff>>;
const successful = (seed: number, count: number) =>
  generatePulls(seed, count + 5, new Date())
    .filter((p) => p.status === "SUCCESS" && !p.parent_pull_id)
    .slice(0, count);
const assigneeOf = async (db: TestDatabase, pullId: string) =>
  (await db.db.select({ a: pulls.assigneeId }).from(pulls).where(eq(pulls.pullId, pullId)))[0]?.a ?? null;

beforeEach(async () => {
  await database?.close();
  database = await createTestDatabase();
  staff = await createStaff(database.db);
});
afterAll(async () => {
  await database?.close();
});

describe("automatic assignment", () => {
  it("leaves new pulls in the queue while it is off", async () => {
    const db = database as TestDatabase;
    const [pull] = successful(1, 1);
    await storePull(db.db, pull);
    expect(await assigneeOf(db, pull?.pull_id ?? "")).toBeNull();
  });

  it("deals new pulls round-robin among active agents only, once per pull", async () => {
    const db = database as TestDatabase;
    expect(await saveAssignmentSettings(db.db, staff.admin, { mode: "ROUND_ROBIN" })).toEqual({ ok: true });
    const batch = successful(2, 4);
    for (const pull of batch) await storePull(db.db, pull);
    const owners = await Promise.all(batch.map((p) => assigneeOf(db, p.pull_id)));
    expect(new Set(owners)).toEqual(new Set([staff.agent.id, staff.otherAgent.id]));
    expect(owners.filter((o) => o === staff.agent.id)).toHaveLength(2);
    // A later fetch of the same pull does not deal it again, even if someone unassigned it.
    const first = batch[0] as SandboxPull;
    await db.db.update(pulls).set({ assigneeId: null }).where(eq(pulls.pullId, first.pull_id));
    await storePull(db.db, { ...first, first_name: "Changed" });
    expect(await assigneeOf(db, first.pull_id)).toBeNull();
    const [entry] = await db.db.select().from(auditEvents).where(eq(auditEvents.pullId, first.pull_id));
    expect(entry).toMatchObject({ actorId: null, action: "PULL_ASSIGNED", details: { reason: "round-robin" } });
  });

  it("follows the first matching rule by line of business, then the fallback", async () => {
    const db = database as TestDatabase;
    const result = await saveAssignmentSettings(db.db, staff.admin, {
      mode: "RULES",
      rules: [{ lineOfBusiness: "flood", assigneeId: staff.otherAgent.id }],
      fallbackAssigneeId: staff.agent.id,
    });
    expect(result).toEqual({ ok: true });
    const pool = generatePulls(3, 40, new Date()).filter((p) => p.status === "SUCCESS" && !p.parent_pull_id);
    const flood = pool.find((p) =>
      (p.policies as Array<{ policy_type: string }>).some((pol) => pol.policy_type === "FLOOD"),
    );
    const other = pool.find(
      (p) => !(p.policies as Array<{ policy_type: string }>).some((pol) => pol.policy_type === "FLOOD"),
    );
    await storePull(db.db, flood);
    await storePull(db.db, other);
    expect(await assigneeOf(db, flood?.pull_id ?? "")).toBe(staff.otherAgent.id);
    expect(await assigneeOf(db, other?.pull_id ?? "")).toBe(staff.agent.id);
  });

  it("does not wait for a pull that is still linking, and assigns it when it succeeds", async () => {
    const db = database as TestDatabase;
    await saveAssignmentSettings(db.db, staff.admin, { mode: "ROUND_ROBIN" });
    const [pull] = successful(4, 1);
    await storePull(db.db, { ...pull, status: "PULLING_DATA" });
    expect(await assigneeOf(db, pull?.pull_id ?? "")).toBeNull();
    await storePull(db.db, pull);
    expect(await assigneeOf(db, pull?.pull_id ?? "")).not.toBeNull();
  });

  it("is configured by admins only, with rules naming active people", async () => {
    const db = database as TestDatabase;
    expect(await saveAssignmentSettings(db.db, staff.manager, { mode: "ROUND_ROBIN" })).toMatchObject({
      ok: false,
      code: "FORBIDDEN",
    });
    expect(await saveAssignmentSettings(db.db, staff.admin, { mode: "RULES", rules: [] })).toMatchObject({
      ok: false,
      field: "rules",
    });
    expect(
      await saveAssignmentSettings(db.db, staff.admin, {
        mode: "RULES",
        rules: [{ state: "Texas", assigneeId: staff.agent.id }],
      }),
    ).toMatchObject({ ok: false, code: "INVALID" });
    await db.db.update(users).set({ isActive: false }).where(eq(users.id, staff.otherAgent.id));
    expect(
      await saveAssignmentSettings(db.db, staff.admin, {
        mode: "RULES",
        rules: [{ state: "TX", assigneeId: staff.otherAgent.id }],
      }),
    ).toMatchObject({ ok: false, field: "rules" });
  });
});

// Several workers store new leads at once (lib/ingest): only a round-robin turn, which changes
// the settings row, may make one wait for another's transaction to end.
describe.skipIf(!process.env.DATABASE_URL)("automatic assignment under concurrent stores", () => {
  const facts = (pullId: string) => ({ pullId, states: ["TX"], linesOfBusiness: ["AUTO"] });
  /** Opens a transaction that chooses an assignee and stays open until `release` is called. */
  const holdChoice = (db: TestDatabase) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let chosen: (value: string | null) => void = () => {};
    const choice = new Promise<string | null>((resolve) => (chosen = resolve));
    const done = db.db.transaction(async (tx) => {
      chosen((await chooseAutoAssignee(tx, facts("00000000-0000-4000-8000-000000000001")))?.user.id ?? null);
      await held;
    });
    return { choice, release, done };
  };
  const settledWithin = <T>(promise: Promise<T>, ms: number) =>
    Promise.race([promise.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

  it("does not queue stores behind one another under rules", async () => {
    const db = database as TestDatabase;
    const saved = await saveAssignmentSettings(db.db, staff.admin, {
      mode: "RULES",
      rules: [{ lineOfBusiness: "AUTO", assigneeId: staff.agent.id }],
    });
    expect(saved).toEqual({ ok: true });
    const first = holdChoice(db);
    expect(await first.choice).toBe(staff.agent.id);
    // A second store, while the first's transaction is still open, chooses at once.
    const second = db.db.transaction((tx) => chooseAutoAssignee(tx, facts("00000000-0000-4000-8000-000000000002")));
    expect(await settledWithin(second, 2_000)).toBe(true);
    expect((await second)?.user.id).toBe(staff.agent.id);
    first.release();
    await first.done;
  });

  it("takes round-robin turns one transaction after another, never the same turn twice", async () => {
    const db = database as TestDatabase;
    expect(await saveAssignmentSettings(db.db, staff.admin, { mode: "ROUND_ROBIN" })).toEqual({ ok: true });
    const first = holdChoice(db);
    const firstAgent = await first.choice;
    const second = db.db.transaction(
      async (tx) => (await chooseAutoAssignee(tx, facts("00000000-0000-4000-8000-000000000002")))?.user.id ?? null,
    );
    expect(await settledWithin(second, 500)).toBe(false); // waits for the first turn to commit
    first.release();
    await first.done;
    const secondAgent = await second;
    expect(new Set([firstAgent, secondAgent])).toEqual(new Set([staff.agent.id, staff.otherAgent.id]));
  });
});
