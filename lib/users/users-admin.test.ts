import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pulls, users } from "@/db/schema";
import { authenticate } from "@/lib/auth/credentials";
import { storePull } from "@/lib/ingest/store-pull";
import { generatePulls } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { assignPulls } from "@/lib/workflow/assignment";
import { setPullStage } from "@/lib/workflow/funnel";
import { feedOwnerOf, renewCalendarFeed } from "@/lib/xdates/calendar-feed";
import { Secret, TOTP } from "otpauth";
import { auditEvents, userPasskeys, userSessions } from "@/db/schema";
import { confirmSecondFactor, getSecondFactor, startSecondFactor } from "@/lib/auth/second-factor";
import { getOpenSessionUser, startUserSession } from "@/lib/auth/user-sessions";
import { createUser, deactivateUser, resetPassword, resetSecondFactor, updateUser } from "./users-admin";

// Managing users: only admins, never without an admin, and a leaver's pulls are not lost.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
});
afterAll(async () => {
  await database?.close();
});

describe("user administration", () => {
  it("lets an admin create a user who can then sign in, and refuses a taken email", async () => {
    const created = await createUser(database.db, staff.admin, {
      email: "New@Agency.test",
      name: "Nia New",
      role: "AGENT",
      password: "a-strong-password-1",
    });
    expect(created.ok).toBe(true);
    expect(
      await authenticate(
        database.db,
        { email: "new@agency.test", password: "a-strong-password-1" },
        { demoMode: false },
      ),
    ).toMatchObject({ role: "AGENT" });
    expect(
      await createUser(database.db, staff.admin, {
        email: "new@agency.test",
        name: "Again",
        role: "AGENT",
        password: "a-strong-password-1",
      }),
    ).toMatchObject({ ok: false, field: "email" });
    expect(
      await createUser(database.db, staff.admin, {
        email: "x@agency.test",
        name: "X",
        role: "AGENT",
        password: "short",
      }),
    ).toMatchObject({ ok: false, field: "password" });
  });

  it("refuses every user change from managers and agents", async () => {
    for (const actor of [staff.manager, staff.agent]) {
      expect(
        await createUser(database.db, actor, {
          email: "m@agency.test",
          name: "M",
          role: "ADMIN",
          password: "a-strong-password-1",
        }),
      ).toMatchObject({ ok: false, code: "FORBIDDEN" });
      expect(await updateUser(database.db, actor, { userId: actor.id, role: "ADMIN" })).toMatchObject({
        ok: false,
        code: "FORBIDDEN",
      });
      expect(
        await resetPassword(database.db, actor, { userId: staff.admin.id, password: "a-strong-password-1" }),
      ).toMatchObject({ ok: false, code: "FORBIDDEN" });
      expect(await deactivateUser(database.db, actor, { userId: staff.admin.id, handoverTo: null })).toMatchObject({
        ok: false,
        code: "FORBIDDEN",
      });
    }
    const [admin] = await database.db.select().from(users).where(eq(users.id, staff.admin.id));
    expect(admin).toMatchObject({ role: "ADMIN", isActive: true });
  });

  it("never demotes or deactivates the last admin", async () => {
    expect(await updateUser(database.db, staff.admin, { userId: staff.admin.id, role: "AGENT" })).toMatchObject({
      ok: false,
      field: "role",
    });
    expect(await deactivateUser(database.db, staff.admin, { userId: staff.admin.id, handoverTo: null })).toMatchObject({
      ok: false,
      code: "INVALID",
    });
    expect(await updateUser(database.db, staff.admin, { userId: staff.manager.id, role: "ADMIN" })).toEqual({
      ok: true,
    });
    expect(await updateUser(database.db, staff.admin, { userId: staff.admin.id, role: "MANAGER" })).toEqual({
      ok: true,
    });
    const promoted = { ...staff.manager, role: "ADMIN" as const }; // as the session would read it now
    expect(await updateUser(database.db, promoted, { userId: staff.admin.id, role: "ADMIN" })).toEqual({ ok: true });
    expect(await updateUser(database.db, promoted, { userId: staff.manager.id, role: "MANAGER" })).toEqual({
      ok: true,
    });
  });

  it("revokes the user's calendar feed address on a password reset: whoever had the account loses the feed too", async () => {
    const token = await renewCalendarFeed(database.db, staff.otherAgent);
    expect(await feedOwnerOf(database.db, token)).toMatchObject({ id: staff.otherAgent.id });
    expect(
      await resetPassword(database.db, staff.admin, { userId: staff.otherAgent.id, password: "other-password-123" }),
    ).toEqual({ ok: true });
    expect(await feedOwnerOf(database.db, token)).toBeNull();
  });

  it("resets a user's second factor: admins only, audited, every session of theirs ended", async () => {
    const who = staff.agent;
    await startSecondFactor(database.db, who);
    const pending = await getSecondFactor(database.db, who.id);
    if (pending.state !== "pending") throw new Error("not pending");
    await confirmSecondFactor(database.db, who, { code: TOTP.generate({ secret: Secret.fromBase32(pending.secret) }) });
    await database.db
      .insert(userPasskeys)
      .values({ userId: who.id, credentialId: "lost-key", publicKey: "x", name: "Lost key" });
    const session = await startUserSession(database.db, who.id, { address: null, lifetimeSeconds: 3600 });
    for (const caller of [staff.manager, staff.agent])
      expect(await resetSecondFactor(database.db, caller, { userId: who.id })).toMatchObject({
        ok: false,
        code: "FORBIDDEN",
      });
    expect(await resetSecondFactor(database.db, staff.admin, { userId: "nobody" })).toMatchObject({ ok: false });
    expect(await resetSecondFactor(database.db, staff.admin, { userId: crypto.randomUUID() })).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
    expect((await getSecondFactor(database.db, who.id)).state).toBe("confirmed");

    expect(await resetSecondFactor(database.db, staff.admin, { userId: who.id })).toEqual({ ok: true, removed: true });
    expect(await getSecondFactor(database.db, who.id)).toEqual({ state: "none" });
    expect(await database.db.select().from(userPasskeys).where(eq(userPasskeys.userId, who.id))).toEqual([]);
    expect(await getOpenSessionUser(database.db, who.id, session)).toBeNull();
    const [ended] = await database.db
      .select({ reason: userSessions.endedReason })
      .from(userSessions)
      .where(eq(userSessions.id, session));
    expect(ended?.reason).toBe("SECOND_FACTOR_RESET");
    const [entry] = await database.db
      .select({ actorId: auditEvents.actorId, details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "SECOND_FACTOR_RESET"), eq(auditEvents.subjectUserId, who.id)));
    expect(entry).toMatchObject({
      actorId: staff.admin.id,
      details: { totp: "confirmed", passkeys: 1, endedSessions: 1 },
    });
    // Nothing left to reset: said so.
    expect(await resetSecondFactor(database.db, staff.admin, { userId: who.id })).toEqual({ ok: true, removed: false });
  });

  it("hands a leaver's open pulls to someone else or the queue, keeps won ones, and locks them out", async () => {
    const seeded = generatePulls(12, 3, new Date());
    for (const pull of seeded) await storePull(database.db, pull);
    const [open, won] = seeded.map((p) => p.pull_id);
    await assignPulls(database.db, staff.admin, { pullIds: [open ?? "", won ?? ""], assigneeId: staff.agent.id });
    await setPullStage(database.db, staff.admin, { pullId: won ?? "", stage: "WON", premium: "500" });
    await resetPassword(database.db, staff.admin, { userId: staff.agent.id, password: "agent-password-123" });

    expect(
      await deactivateUser(database.db, staff.admin, { userId: staff.agent.id, handoverTo: staff.otherAgent.id }),
    ).toEqual({ ok: true, handedOver: 1 });
    const rows = await database.db.select({ pullId: pulls.pullId, assigneeId: pulls.assigneeId }).from(pulls);
    expect(rows.find((r) => r.pullId === open)?.assigneeId).toBe(staff.otherAgent.id);
    expect(rows.find((r) => r.pullId === won)?.assigneeId).toBe(staff.agent.id);
    expect(
      await authenticate(
        database.db,
        { email: "agent@agency.test", password: "agent-password-123" },
        { demoMode: false },
      ),
    ).toBeNull();
    expect(await deactivateUser(database.db, staff.admin, { userId: staff.agent.id, handoverTo: null })).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
  });
});
