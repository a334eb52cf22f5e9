import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { userSessions, users } from "@/db/schema";
import { parseEnv } from "@/lib/env";
import { DEMO_PASSWORD, ensureDemoUsers } from "@/lib/auth/demo-users";
import { saveUser } from "@/lib/users/save-user";
import { resetPassword, updateUser, deactivateUser } from "@/lib/users/users-admin";
import { createTestDatabase, type TestDatabase } from "@/test/database";

// A session cookie is a signed JWT that stays valid until it expires, whatever happens on the
// server. These tests hold the decoded cookie fixed (as a copy of it would be) and check what
// the server makes of it after a sign-out, a password reset, the absolute lifetime, a
// deactivation or a role change. Only next-auth's cookie decoding is stood in for.

/** What next-auth would decode from the cookie the browser (or a thief) sends. */
let cookie: { user: { id: string }; sessionId?: string } | null = null;
vi.mock("next-auth", async (original) => ({
  ...(await original<typeof import("next-auth")>()),
  getServerSession: async () => cookie,
}));

// The app's database client is this test's database, before any module caches another.
const database: TestDatabase = await createTestDatabase();
(globalThis as unknown as { __coverdeskDb?: { connection?: Promise<unknown> } }).__coverdeskDb = {
  connection: Promise.resolve(database),
};
const { getSessionUser } = await import("./session");
const { getAuthOptions } = await import("./options");

const idOf = async (email: string) =>
  (await database.db.select().from(users).where(eq(users.email, email)))[0]?.id ?? "";

/** Signs in through the credentials provider's authorize(), as next-auth does, and returns the cookie it would issue. */
async function signIn(email: string, password = DEMO_PASSWORD): Promise<{ user: { id: string }; sessionId?: string }> {
  const provider = getAuthOptions().providers[0] as unknown as {
    options: { authorize: (c: unknown, r: unknown) => Promise<{ id: string; sessionId?: string } | null> };
  };
  const user = await provider.options.authorize({ email, password }, { headers: { "x-forwarded-for": "192.0.2.80" } });
  if (!user) throw new Error(`could not sign in as ${email}`);
  const jwt = await getAuthOptions().callbacks?.jwt?.({ token: {}, user: user as never, account: null });
  const session = await getAuthOptions().callbacks?.session?.({
    session: { expires: "", user: {} },
    token: jwt ?? {},
  } as never);
  return session as unknown as { user: { id: string }; sessionId?: string };
}
const as = async (session: typeof cookie) => {
  cookie = session;
  return getSessionUser();
};

beforeAll(async () => {
  await ensureDemoUsers(database.db);
});
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate login_throttles`);
});

describe("server-side sessions", () => {
  it("a signed-in cookie names an open session of its user", async () => {
    const session = await signIn("agent@example.com");
    expect(session.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await as(session)).toMatchObject({
      id: await idOf("agent@example.com"),
      role: "AGENT",
      sessionId: session.sessionId,
    });
    // A cookie from before sessions were kept, or naming another user's session, is no session.
    expect(await as({ user: session.user })).toBeNull();
    expect(await as({ user: { id: await idOf("admin@example.com") }, sessionId: session.sessionId })).toBeNull();
  });

  it("signing out ends the session on the server: a copied cookie stops working, other sessions go on", async () => {
    const laptop = await signIn("manager@example.com");
    const phone = await signIn("manager@example.com");
    const copied = structuredClone(laptop);
    await getAuthOptions().events?.signOut?.({
      token: { userId: laptop.user.id, sid: laptop.sessionId },
      session: undefined as never,
    });
    expect(await as(copied)).toBeNull();
    expect(await as(phone)).toMatchObject({ id: await idOf("manager@example.com") });
    const [row] = await database.db
      .select()
      .from(userSessions)
      .where(eq(userSessions.id, laptop.sessionId ?? ""));
    expect(row).toMatchObject({ endedReason: "SIGNED_OUT" });
  });

  it("a password reset by an admin ends every session of that user", async () => {
    const admin = await as(await signIn("admin@example.com"));
    if (!admin) throw new Error("admin not signed in");
    await saveUser(database.db, {
      email: "reset-me@example.com",
      name: "Reset Me",
      role: "AGENT",
      password: "first-password-1",
    });
    const sessions = [
      await signIn("reset-me@example.com", "first-password-1"),
      await signIn("reset-me@example.com", "first-password-1"),
    ];
    expect(
      await resetPassword(database.db, admin, {
        userId: await idOf("reset-me@example.com"),
        password: "second-password-2",
      }),
    ).toEqual({ ok: true });
    for (const session of sessions) expect(await as(session)).toBeNull();
    expect(await as(await signIn("reset-me@example.com", "second-password-2"))).toMatchObject({
      id: await idOf("reset-me@example.com"),
    });
  });

  it("an admin resetting their own password keeps the session they did it from and ends the others", async () => {
    const here = await signIn("admin@example.com");
    const elsewhere = await signIn("admin@example.com");
    const admin = await as(here);
    if (!admin) throw new Error("admin not signed in");
    expect(await resetPassword(database.db, admin, { userId: admin.id, password: "a-new-admin-password" })).toEqual({
      ok: true,
    });
    expect(await as(here)).toMatchObject({ id: admin.id });
    expect(await as(elsewhere)).toBeNull();
    await saveUser(database.db, {
      email: "admin@example.com",
      name: "Avery Admin",
      role: "ADMIN",
      password: "coverdesk-admin-3",
    });
    // npm run user:save ends every session, the last one included.
    expect(await as(here)).toBeNull();
  });

  it("ends at its absolute lifetime (12 hours by default) however active it is", async () => {
    expect(parseEnv({}).auth.sessionMaxSeconds).toBe(12 * 3600);
    expect(parseEnv({ COVERDESK_SESSION_MAX_HOURS: "2" }).auth.sessionMaxSeconds).toBe(2 * 3600);
    expect(() => parseEnv({ COVERDESK_SESSION_MAX_HOURS: "0" })).toThrow(/COVERDESK_SESSION_MAX_HOURS/);
    const session = await signIn("agent@example.com");
    const [row] = await database.db
      .select({ lifetime: sql<number>`extract(epoch from ${userSessions.expiresAt} - ${userSessions.createdAt})::int` })
      .from(userSessions)
      .where(eq(userSessions.id, session.sessionId ?? ""));
    expect(row?.lifetime).toBe(12 * 3600);
    expect(await as(session)).not.toBeNull();
    await database.db
      .update(userSessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(userSessions.id, session.sessionId ?? ""));
    expect(await as(session)).toBeNull();
  });

  it("still applies a deactivation and a role change at once, on a session that is open", async () => {
    const admin = await as(await signIn("admin@example.com", "coverdesk-admin-3"));
    if (!admin) throw new Error("admin not signed in");
    await saveUser(database.db, {
      email: "changing@example.com",
      name: "Changing",
      role: "AGENT",
      password: "changing-pass-1",
    });
    const session = await signIn("changing@example.com", "changing-pass-1");
    const id = await idOf("changing@example.com");
    expect(await as(session)).toMatchObject({ role: "AGENT" });
    expect(await updateUser(database.db, admin, { userId: id, role: "MANAGER" })).toEqual({ ok: true });
    expect(await as(session)).toMatchObject({ role: "MANAGER" });
    expect(await deactivateUser(database.db, admin, { userId: id, handoverTo: null })).toMatchObject({ ok: true });
    expect(await as(session)).toBeNull();
  });
});
