import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticate } from "@/lib/auth/credentials";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { DEMO_PASSWORD } from "./demo-users";
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
    const first = await saveUser(database.db, { email: " Ana@Agency.com ", name: "Ana Ruiz", role: "AGENT", password: "first-password-123" });
    expect(first.created).toBe(true);
    const signedIn = await authenticate(database.db, { email: "ana@agency.com", password: "first-password-123" }, { demoMode: false });
    expect(signedIn).toMatchObject({ email: "ana@agency.com", role: "AGENT" });

    const second = await saveUser(database.db, { email: "ANA@agency.com", name: "Ana Ruiz", role: "MANAGER", password: "second-password-456" });
    expect(second).toEqual({ id: first.id, created: false });
    expect(await authenticate(database.db, { email: "ana@agency.com", password: "first-password-123" }, { demoMode: false })).toBeNull();
    expect(await authenticate(database.db, { email: "ana@agency.com", password: "second-password-456" }, { demoMode: false })).toMatchObject({ role: "MANAGER" });
  });

  it("refuses a bad email, an unknown role, a short password and the demo password", async () => {
    const good = { email: "bo@agency.com", name: "Bo", role: "ADMIN" as const, password: "a-long-password-1" };
    await expect(saveUser(database.db, { ...good, email: "not-an-email" })).rejects.toThrow(/valid email/);
    await expect(saveUser(database.db, { ...good, role: "OWNER" as "ADMIN" })).rejects.toThrow(/Role must be one of/);
    await expect(saveUser(database.db, { ...good, password: "short" })).rejects.toThrow(/at least 12/);
    await expect(saveUser(database.db, { ...good, password: DEMO_PASSWORD })).rejects.toThrow(/demo password/);
  });
});
