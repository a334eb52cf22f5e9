import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, users } from "@/db/schema";
import { DEMO_PASSWORD, DEMO_USERS, ensureDemoUsers } from "@/lib/users/demo-users";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { LOGIN_LIMITS } from "@/lib/security/login-throttle";
import { signInErrorMessage, throttledError } from "@/lib/security/sign-in-errors";
import { authenticate, signInWithPassword, type SignInOutcome } from "./credentials";
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

// What the login page would say for an outcome: the only thing a visitor ever sees.
const shown = (outcome: SignInOutcome) =>
  outcome.status === "signed-in" ? "signed in" : signInErrorMessage(outcome.status === "throttled" ? throttledError(outcome.retryAfterSeconds) : "CredentialsSignin");

describe("sign-in throttling", () => {
  const demo = { demoMode: true };

  it("after 5 failures for an email, even the right password is refused, with the time to wait", async () => {
    const from = { ...demo, address: "198.51.100.1" };
    const answers = [];
    for (let i = 0; i < LOGIN_LIMITS.perEmail.limit; i++) answers.push(shown(await signInWithPassword(database.db, { email: "manager@example.com", password: `guess-${i}` }, from)));
    expect(answers.slice(0, 4)).toEqual(Array(4).fill("That email and password do not match an active account."));
    expect(answers[4]).toMatch(/^Too many attempts\. Try again in (1[0-5]|[1-9]) minutes?\.$/);
    const right = await signInWithPassword(database.db, { email: "Manager@Example.com", password: DEMO_PASSWORD }, from);
    expect(right.status).toBe("throttled");
    expect(shown(right)).toMatch(/^Too many attempts\. Try again in \d+ minutes?\.$/);
    // The limit is the email's, not the address's: the same email from elsewhere waits too.
    expect((await signInWithPassword(database.db, { email: "manager@example.com", password: DEMO_PASSWORD }, { ...demo, address: "198.51.100.2" })).status).toBe("throttled");
    // Another account from the first address is unaffected.
    expect((await signInWithPassword(database.db, { email: "admin@example.com", password: DEMO_PASSWORD }, from)).status).toBe("signed-in");
  });

  it("answers an unknown email exactly as it answers a known one", async () => {
    const answersFor = async (email: string, address: string) => {
      const answers = [];
      for (let i = 0; i < LOGIN_LIMITS.perEmail.limit + 2; i++) answers.push(shown(await signInWithPassword(database.db, { email, password: `guess-${i}` }, { ...demo, address })));
      return answers;
    };
    await database.db.insert(users).values({ email: "known@example.com", name: "Known", role: "AGENT", passwordHash: await hashPassword("known-password-1") });
    expect(await answersFor("nobody-here@example.com", "198.51.100.3")).toEqual(await answersFor("known@example.com", "198.51.100.4"));
  });

  it("after 20 failures from one address, that address waits whatever the email; other addresses do not", async () => {
    const address = "203.0.113.9";
    for (let i = 0; i < LOGIN_LIMITS.perAddress.limit; i++) {
      await signInWithPassword(database.db, { email: `spray-${i}@example.com`, password: "guess" }, { ...demo, address });
    }
    expect((await signInWithPassword(database.db, { email: "admin@example.com", password: DEMO_PASSWORD }, { ...demo, address })).status).toBe("throttled");
    expect((await signInWithPassword(database.db, { email: "admin@example.com", password: DEMO_PASSWORD }, { ...demo, address: "203.0.113.10" })).status).toBe("signed-in");
  });

  it("counts malformed attempts against the address too", async () => {
    const address = "203.0.113.20";
    for (let i = 0; i < LOGIN_LIMITS.perAddress.limit; i++) {
      expect((await signInWithPassword(database.db, { email: ["x"], password: {} }, { ...demo, address })).status).not.toBe("signed-in");
    }
    expect((await signInWithPassword(database.db, { email: "admin@example.com", password: DEMO_PASSWORD }, { ...demo, address })).status).toBe("throttled");
  });

  it("does not hold successful sign-ins against anyone", async () => {
    const from = { ...demo, address: "198.51.100.50" };
    for (let i = 0; i < LOGIN_LIMITS.perEmail.limit * 2; i++) {
      expect((await signInWithPassword(database.db, { email: "admin@example.com", password: DEMO_PASSWORD }, from)).status).toBe("signed-in");
    }
    // Still five tries left for typos after all those successes.
    const typos = [];
    for (let i = 0; i < 4; i++) typos.push((await signInWithPassword(database.db, { email: "admin@example.com", password: "typo" }, from)).status);
    expect(typos).toEqual(["refused", "refused", "refused", "refused"]);
  });

  it("lets a burst of parallel guesses check only as many passwords as the limit allows", async () => {
    const from = { ...demo, address: "198.51.100.60" };
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) => signInWithPassword(database.db, { email: "burst@example.com", password: `guess-${i}` }, from)),
    );
    // Five were checked (four refused, the fifth used the last try); seven never reached the password.
    expect(outcomes.filter((o) => o.status === "refused")).toHaveLength(LOGIN_LIMITS.perEmail.limit - 1);
    expect(outcomes.filter((o) => o.status === "throttled")).toHaveLength(12 - (LOGIN_LIMITS.perEmail.limit - 1));
  });
});

describe("sign-ins and sign-outs on the audit trail", () => {
  const demo = { demoMode: true };
  const trail = async (action: "SIGNED_IN" | "SIGN_IN_FAILED" | "SIGNED_OUT", address?: string) =>
    (await database.db.select().from(auditEvents).where(eq(auditEvents.action, action))).filter((e) => address === undefined || (e.details as { address?: string }).address === address);

  it("records a success with the user and the address it came from", async () => {
    const outcome = await signInWithPassword(database.db, { email: "admin@example.com", password: DEMO_PASSWORD }, { ...demo, address: "192.0.2.41" });
    expect(outcome.status).toBe("signed-in");
    const [entry] = await trail("SIGNED_IN", "192.0.2.41");
    expect(entry).toMatchObject({ actorName: "Avery Admin", subjectUserId: outcome.status === "signed-in" ? outcome.user.id : "" });
  });

  it("records a failure with the address, and the account only when the email names one", async () => {
    const [audited] = await database.db.insert(users).values({ email: "audited@example.com", name: "Audited", role: "AGENT", passwordHash: await hashPassword("audited-password-1") }).returning();
    await signInWithPassword(database.db, { email: "Audited@example.com", password: "not-it" }, { ...demo, address: "192.0.2.42" });
    await signInWithPassword(database.db, { email: "someone-else@example.com", password: "my-password-typed-here" }, { ...demo, address: "192.0.2.42" });
    const failures = await trail("SIGN_IN_FAILED", "192.0.2.42");
    expect(failures.map((f) => [f.subjectUserId, f.details])).toEqual([
      [audited?.id, { address: "192.0.2.42", email: "audited@example.com", reason: "password" }],
      [null, { address: "192.0.2.42", email: null, reason: "unknown-email" }],
    ]);
    // What was typed into the email field for no account is not kept.
    expect(JSON.stringify(failures)).not.toContain("someone-else");
  });

  it("records a sign-out through next-auth's signOut event, for the user the session named", async () => {
    const [admin] = await database.db.select().from(users).where(eq(users.email, "admin@example.com"));
    (globalThis as unknown as { __coverdeskDb?: { connection?: Promise<unknown> } }).__coverdeskDb = { connection: Promise.resolve(database) };
    const { getAuthOptions } = await import("./options");
    await getAuthOptions().events?.signOut?.({ token: { userId: admin?.id }, session: undefined as never });
    await getAuthOptions().events?.signOut?.({ token: { userId: "not-a-uuid" }, session: undefined as never });
    const outs = await trail("SIGNED_OUT");
    expect(outs.map((o) => [o.actorName, o.subjectUserId])).toEqual([["Avery Admin", admin?.id]]);
  });
});
