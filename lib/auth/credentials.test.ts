import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "@/db/schema";
import { DEMO_PASSWORD, DEMO_USERS, ensureDemoUsers } from "@/lib/users/demo-users";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { authenticate } from "./credentials";
import { hashPassword } from "./password";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe("demo users and sign-in", () => {
  it("creates the three demo users once, whatever the number of starts", async () => {
    expect(await ensureDemoUsers(database.db)).toBe(3);
    expect(await ensureDemoUsers(database.db)).toBe(0);
    const rows = await database.db.select({ email: users.email, role: users.role }).from(users);
    expect(rows.map((r) => `${r.email}:${r.role}`).sort()).toEqual(DEMO_USERS.map((u) => `${u.email}:${u.role}`).sort());
  });

  it("signs in with the right password, case-insensitively on the email", async () => {
    const user = await authenticate(database.db, { email: "ADMIN@example.com", password: DEMO_PASSWORD }, { demoMode: true });
    expect(user).toMatchObject({ email: "admin@example.com", role: "ADMIN" });
  });

  it("refuses a wrong password, an unknown user, malformed input and a deactivated user", async () => {
    expect(await authenticate(database.db, { email: "admin@example.com", password: "wrong" }, { demoMode: true })).toBeNull();
    expect(await authenticate(database.db, { email: "nobody@example.com", password: DEMO_PASSWORD }, { demoMode: true })).toBeNull();
    expect(await authenticate(database.db, { email: "not an email", password: DEMO_PASSWORD }, { demoMode: true })).toBeNull();
    expect(await authenticate(database.db, { email: ["admin@example.com"], password: {} }, { demoMode: true })).toBeNull();
    await database.db.update(users).set({ isActive: false }).where(eq(users.email, "agent@example.com"));
    expect(await authenticate(database.db, { email: "agent@example.com", password: DEMO_PASSWORD }, { demoMode: true })).toBeNull();
  });

  it("refuses the demo password outside demo mode, even for a user whose password it is", async () => {
    expect(await authenticate(database.db, { email: "manager@example.com", password: DEMO_PASSWORD }, { demoMode: false })).toBeNull();
    await database.db.insert(users).values({ email: "real@example.com", name: "Real", role: "AGENT", passwordHash: await hashPassword("a-real-password") });
    expect(await authenticate(database.db, { email: "real@example.com", password: "a-real-password" }, { demoMode: false })).toMatchObject({ role: "AGENT" });
  });
});
