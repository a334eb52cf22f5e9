import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { and, eq, gt, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { auditEvents, securitySettings, userFactors, userSessions, users } from "@/db/schema";
import type { Actor } from "@/lib/core/actor";
import { createTestDatabase, type TestDatabase } from "@/test/database";

// The agency's rule that everyone has a second factor, against a real database: what decides it
// (the admin's setting, production), who may change it, and what a user without a factor meets
// on a page while it holds. The session is the only stand-in (next-auth's cookie check).

let current: { id: string; sessionId: string } | null = null;
vi.mock("next-auth", () => ({
  getServerSession: async () => (current ? { user: { id: current.id }, sessionId: current.sessionId } : null),
  default: () => null,
}));

const database: TestDatabase = await createTestDatabase();
(globalThis as unknown as { __coverdeskDb?: { connection?: Promise<unknown> } }).__coverdeskDb = {
  connection: Promise.resolve(database),
};

const { getSecondFactorRequirement, mustEnrolSecondFactor, saveSecondFactorRequirement } =
  await import("./second-factor-requirement");
const { confirmSecondFactor, getSecondFactor, startSecondFactor } = await import("./second-factor");
const { requireUser, requireUserWhileEnrolling } = await import("./session");

const DEVELOPMENT = { demoMode: true, mfaOptOut: false };
const PRODUCTION = { demoMode: false, mfaOptOut: false };
const PRODUCTION_OPTED_OUT = { demoMode: false, mfaOptOut: true };

const people: Record<"admin" | "agent", Actor & { sessionId: string }> = {
  admin: { id: "", name: "Ada Admin", role: "ADMIN", sessionId: "" },
  agent: { id: "", name: "Abe Agent", role: "AGENT", sessionId: "" },
};

async function withApp(actor: Actor): Promise<void> {
  await startSecondFactor(database.db, actor);
  const state = await getSecondFactor(database.db, actor.id);
  if (state.state !== "pending") throw new Error("not pending");
  const code = TOTP.generate({ secret: Secret.fromBase32(state.secret) });
  const confirmed = await confirmSecondFactor(database.db, actor, { code });
  if (!confirmed.ok) throw new Error(confirmed.message);
}

/** What a page's guard did: the user, or where it sent the visitor. */
async function pageGuard(guard: () => Promise<unknown>): Promise<string> {
  try {
    await guard();
    return "shown";
  } catch (error) {
    const digest = (error as { digest?: string }).digest ?? "";
    return digest.split(";")[2] ?? String(error);
  }
}

beforeAll(async () => {
  for (const who of ["admin", "agent"] as const) {
    const [user] = await database.db
      .insert(users)
      .values({ email: `${who}@rule.test`, name: people[who].name, role: people[who].role, passwordHash: "x" })
      .returning({ id: users.id });
    const [session] = await database.db
      .insert(userSessions)
      .values({ userId: user?.id ?? "", expiresAt: new Date(Date.now() + 3_600_000) })
      .returning({ id: userSessions.id });
    Object.assign(people[who], { id: user?.id ?? "", sessionId: session?.id ?? "" });
  }
});
beforeEach(async () => {
  await database.db.delete(securitySettings);
  await database.db.delete(userFactors);
  current = null;
});
afterAll(async () => {
  await database.close();
});

describe("the second-factor requirement", () => {
  it("is off in development until the admin turns it on; production forces it unless opted out on purpose", async () => {
    expect(await getSecondFactorRequirement(database.db, DEVELOPMENT)).toMatchObject({
      setting: false,
      required: false,
    });
    expect(await getSecondFactorRequirement(database.db, PRODUCTION)).toMatchObject({
      setting: false,
      forcedByProduction: true,
      required: true,
    });
    expect(await getSecondFactorRequirement(database.db, PRODUCTION_OPTED_OUT)).toMatchObject({
      forcedByProduction: false,
      optedOut: true,
      required: false,
    });
    expect(await mustEnrolSecondFactor(database.db, people.agent.id, DEVELOPMENT)).toBe(false);
    expect(await mustEnrolSecondFactor(database.db, people.agent.id, PRODUCTION)).toBe(true);

    await withApp(people.admin);
    expect(await saveSecondFactorRequirement(database.db, people.admin, { required: "on" })).toMatchObject({
      ok: true,
    });
    expect(await getSecondFactorRequirement(database.db, PRODUCTION_OPTED_OUT)).toMatchObject({ required: true });
    expect(await mustEnrolSecondFactor(database.db, people.agent.id, DEVELOPMENT)).toBe(true);
    // A user with a factor passes.
    expect(await mustEnrolSecondFactor(database.db, people.admin.id, PRODUCTION)).toBe(false);
  });

  it("is changed by admins only, audited, never turned on by an admin who has no factor", async () => {
    const [{ before } = { before: 0 }] = await database.db
      .select({ before: sql<number>`coalesce(max(${auditEvents.id}), 0)`.mapWith(Number) })
      .from(auditEvents);
    expect(await saveSecondFactorRequirement(database.db, people.agent, { required: "on" })).toMatchObject({
      ok: false,
      code: "FORBIDDEN",
    });
    expect(await saveSecondFactorRequirement(database.db, people.admin, { required: "on" })).toMatchObject({
      ok: false,
      field: "required",
      message: expect.stringContaining("Set up your own second factor first"),
    });
    expect(await saveSecondFactorRequirement(database.db, people.admin, { required: "maybe" as "on" })).toMatchObject({
      ok: false,
      field: "required",
    });
    expect((await getSecondFactorRequirement(database.db, DEVELOPMENT)).setting).toBe(false);

    await withApp(people.admin);
    await saveSecondFactorRequirement(database.db, people.admin, { required: "on" });
    await saveSecondFactorRequirement(database.db, people.admin, { required: "on" });
    await saveSecondFactorRequirement(database.db, people.admin, { required: "off" });
    const changes = await database.db
      .select({ actorId: auditEvents.actorId, details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "SECOND_FACTOR_REQUIREMENT_CHANGED"), gt(auditEvents.id, before)))
      .orderBy(auditEvents.id);
    // Saving what already holds records nothing.
    expect(changes).toEqual([
      { actorId: people.admin.id, details: { from: false, to: true } },
      { actorId: people.admin.id, details: { from: true, to: false } },
    ]);
  });

  it("sends a user without a factor to the security page from every page but that one, while it holds", async () => {
    current = people.agent;
    expect(await pageGuard(requireUser)).toBe("shown");
    await withApp(people.admin);
    await saveSecondFactorRequirement(database.db, people.admin, { required: "on" });

    expect(await pageGuard(requireUser)).toBe("/account/security");
    expect(await requireUserWhileEnrolling()).toMatchObject({ user: { id: people.agent.id }, mustEnrol: true });
    current = people.admin;
    expect(await pageGuard(requireUser)).toBe("shown");
    current = null;
    expect(await pageGuard(requireUser)).toBe("/login");
  });
});

describe("the pages' guard", () => {
  /** Every page.tsx under a folder. */
  const pagesUnder = (dir: string): string[] =>
    readdirSync(dir).flatMap((entry) => {
      const full = path.join(dir, entry);
      return statSync(full).isDirectory() ? pagesUnder(full) : entry === "page.tsx" ? [full] : [];
    });

  it("is requireUser or requirePermission on every signed-in page, so none shows while a factor is owed", () => {
    const pages = pagesUnder(path.join(process.cwd(), "app", "(app)"));
    expect(pages.length).toBeGreaterThan(10);
    const unguarded = pages.filter((file) => {
      const source = readFileSync(file, "utf8");
      if (file.endsWith(path.join("account", "security", "page.tsx")))
        return !source.includes("requireUserWhileEnrolling()");
      // A page that only sends the browser elsewhere shows nothing (the old address of the alert rules).
      if (/^\s*permanentRedirect\(/m.test(source) && !source.includes("getDb")) return false;
      return !/\brequire(User|Permission)\(/.test(source);
    });
    expect(unguarded.map((file) => path.relative(process.cwd(), file))).toEqual([]);
  });
});
