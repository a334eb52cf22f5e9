import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { users } from "@/db/schema";
import { authenticate } from "@/lib/auth/credentials";
import { createUser, resetPassword } from "@/lib/users/users-admin";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { DEMO_PASSWORD } from "@/lib/auth/demo-users";
import { feedOwnerOf, renewCalendarFeed } from "@/lib/xdates/calendar-feed";
import { saveUser } from "./save-user";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe("saving a real user", () => {
  it("creates a user who can sign in, and resets role and password on a second save", async () => {
    const first = await saveUser(database.db, {
      email: " Ana@Agency.com ",
      name: "Ana Ruiz",
      role: "AGENT",
      password: "first-password-123",
    });
    expect(first.created).toBe(true);
    const signedIn = await authenticate(
      database.db,
      { email: "ana@agency.com", password: "first-password-123" },
      { demoMode: false },
    );
    expect(signedIn).toMatchObject({ email: "ana@agency.com", role: "AGENT" });

    const second = await saveUser(database.db, {
      email: "ANA@agency.com",
      name: "Ana Ruiz",
      role: "MANAGER",
      password: "second-password-456",
    });
    expect(second).toEqual({ id: first.id, created: false });
    expect(
      await authenticate(database.db, { email: "ana@agency.com", password: "first-password-123" }, { demoMode: false }),
    ).toBeNull();
    expect(
      await authenticate(
        database.db,
        { email: "ana@agency.com", password: "second-password-456" },
        { demoMode: false },
      ),
    ).toMatchObject({ role: "MANAGER" });
  });

  it("revokes the user's calendar feed address when the command resets their password", async () => {
    const saved = await saveUser(database.db, {
      email: "feed@agency.com",
      name: "Fe Ed",
      role: "AGENT",
      password: "first-password-123",
    });
    const token = await renewCalendarFeed(database.db, {
      id: saved.id,
      name: "Fe Ed",
      role: "AGENT",
      sessionId: "cli",
    });
    expect(await feedOwnerOf(database.db, token)).toMatchObject({ id: saved.id });
    await saveUser(database.db, {
      email: "feed@agency.com",
      name: "Fe Ed",
      role: "AGENT",
      password: "reset-password-456",
    });
    expect(await feedOwnerOf(database.db, token)).toBeNull();
  });

  it("refuses a bad email, an unknown role, a short password and the demo password", async () => {
    const good = { email: "bo@agency.com", name: "Bo", role: "ADMIN" as const, password: "a-long-password-1" };
    await expect(saveUser(database.db, { ...good, email: "not-an-email" })).rejects.toThrow(/valid email/);
    await expect(saveUser(database.db, { ...good, role: "OWNER" as "ADMIN" })).rejects.toThrow(/Role must be one of/);
    await expect(saveUser(database.db, { ...good, password: "short" })).rejects.toThrow(/at least 12/);
    await expect(saveUser(database.db, { ...good, password: DEMO_PASSWORD })).rejects.toThrow(/demo password/);
  });

  it("refuses a password longer than the 72 bytes bcrypt reads, rather than cutting it silently", async () => {
    const good = { email: "long@agency.com", name: "Long", role: "AGENT" as const };
    // 72 bytes is fine, and all of it counts.
    const exact = "p".repeat(72);
    await saveUser(database.db, { ...good, password: exact });
    expect(await authenticate(database.db, { email: good.email, password: exact }, { demoMode: false })).not.toBeNull();
    expect(
      await authenticate(database.db, { email: good.email, password: `${"p".repeat(71)}q` }, { demoMode: false }),
    ).toBeNull();
    // 73 ASCII characters, or 40 two-byte ones (80 bytes in 40 characters), are refused with a clear reason.
    await expect(saveUser(database.db, { ...good, password: "p".repeat(73) })).rejects.toThrow(/at most 72 bytes/);
    await expect(saveUser(database.db, { ...good, password: "é".repeat(40) })).rejects.toThrow(/at most 72 bytes/);
  });

  it("refuses a too-long password when an admin creates a user or resets a password", async () => {
    const [admin] = await database.db.select().from(users).where(eq(users.email, "ana@agency.com"));
    const actor = { id: admin?.id ?? "", name: "Ana", role: "ADMIN" as const };
    const created = await createUser(database.db, actor, {
      email: "cut@agency.com",
      name: "Cut",
      role: "AGENT",
      password: "x".repeat(100),
    });
    expect(created).toMatchObject({ ok: false, message: expect.stringMatching(/at most 72 bytes/) });
    const reset = await resetPassword(database.db, actor, { userId: admin?.id ?? "", password: "y".repeat(100) });
    expect(reset).toMatchObject({ ok: false, message: expect.stringMatching(/at most 72 bytes/) });
  });
});
