import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, users } from "@/db/schema";
import { DEMO_PASSWORD, DEMO_USERS, ensureDemoUsers } from "@/lib/auth/demo-users";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { LOGIN_THROTTLE, waitAfterFailures } from "@/lib/security/login-throttle";
import { signInErrorMessage, throttledError, WRONG_CREDENTIALS_MESSAGE } from "@/lib/security/sign-in-errors";
import { authenticate, signInWithPassword, type SignInOutcome } from "./credentials";
import { failedSignInsSincePreviousSignIn, recentFailedSignIns } from "@/lib/audit/audit-log";
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
    expect(rows.map((r) => `${r.email}:${r.role}`).sort()).toEqual(
      DEMO_USERS.map((u) => `${u.email}:${u.role}`).sort(),
    );
  });

  it("signs in with the right password, case-insensitively on the email", async () => {
    const user = await authenticate(
      database.db,
      { email: "ADMIN@example.com", password: DEMO_PASSWORD },
      { demoMode: true },
    );
    expect(user).toMatchObject({ email: "admin@example.com", role: "ADMIN" });
  });

  it("refuses a wrong password, an unknown user, malformed input and a deactivated user", async () => {
    expect(
      await authenticate(database.db, { email: "admin@example.com", password: "wrong" }, { demoMode: true }),
    ).toBeNull();
    expect(
      await authenticate(database.db, { email: "nobody@example.com", password: DEMO_PASSWORD }, { demoMode: true }),
    ).toBeNull();
    expect(
      await authenticate(database.db, { email: "not an email", password: DEMO_PASSWORD }, { demoMode: true }),
    ).toBeNull();
    expect(
      await authenticate(database.db, { email: ["admin@example.com"], password: {} }, { demoMode: true }),
    ).toBeNull();
    await database.db.update(users).set({ isActive: false }).where(eq(users.email, "agent@example.com"));
    expect(
      await authenticate(database.db, { email: "agent@example.com", password: DEMO_PASSWORD }, { demoMode: true }),
    ).toBeNull();
  });

  it("refuses the demo password outside demo mode, even for a user whose password it is", async () => {
    expect(
      await authenticate(database.db, { email: "manager@example.com", password: DEMO_PASSWORD }, { demoMode: false }),
    ).toBeNull();
    await database.db.insert(users).values({
      email: "real@example.com",
      name: "Real",
      role: "AGENT",
      passwordHash: await hashPassword("a-real-password"),
    });
    expect(
      await authenticate(database.db, { email: "real@example.com", password: "a-real-password" }, { demoMode: false }),
    ).toMatchObject({ role: "AGENT" });
  });
});

// What the login page would say for an outcome: the only thing a visitor ever sees.
const shown = (outcome: SignInOutcome) =>
  outcome.status === "signed-in"
    ? "signed in"
    : signInErrorMessage(
        outcome.status === "throttled" ? throttledError(outcome.retryAfterSeconds) : "CredentialsSignin",
      );

describe("sign-in throttling", () => {
  const demo = { demoMode: true };
  const rule = LOGIN_THROTTLE.perAccountAndAddress;
  /** As if every wait had run out (the counts stay). */
  const waitItOut = () => database.db.execute(sql`update login_throttles set blocked_until = null`);
  const guess = (email: string, address: string, password = "a-wrong-guess") =>
    signInWithPassword(database.db, { email, password }, { ...demo, address });

  it("doubles the wait after each failure past the free ones, up to the cap", () => {
    expect([1, 2, 3, 4, 5, 6, 11, 12, 40].map((n) => waitAfterFailures(n, rule))).toEqual([
      0, 0, 2, 4, 8, 16, 512, 900, 900,
    ]);
    expect(waitAfterFailures(10, LOGIN_THROTTLE.perAddress)).toBe(2);
  });

  it("slows a guesser from one address more after each failure, and turns away tries made before the wait is over", async () => {
    const from = "198.51.100.1";
    const answers: string[] = [];
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      const outcome = await guess("manager@example.com", from, `guess-${i}`);
      answers.push(shown(outcome));
      if (outcome.status === "throttled") waits.push(outcome.retryAfterSeconds);
      // Straight away, before the wait is over: not even checked, the right password included.
      if (outcome.status === "throttled")
        expect((await guess("manager@example.com", from, DEMO_PASSWORD)).status).toBe("throttled");
      await waitItOut();
    }
    expect(answers.slice(0, 2)).toEqual(Array(2).fill(WRONG_CREDENTIALS_MESSAGE));
    expect(answers[2]).toBe("Too many attempts. Try again in 2 seconds.");
    expect(waits).toEqual([2, 4, 8, 16, 32]);
  });

  it("never keeps the owner of the right password out from another address, however long the attack", async () => {
    const attacker = "203.0.113.66";
    for (let i = 0; i < 30; i++) {
      await guess("admin@example.com", attacker, `attack-${i}`);
      await waitItOut();
    }
    await guess("admin@example.com", attacker); // the attacker's address is waiting now
    expect((await guess("admin@example.com", attacker, DEMO_PASSWORD)).status).toBe("throttled");
    // The admin, elsewhere, signs in at once with the right password.
    expect((await guess("admin@example.com", "198.51.100.200", DEMO_PASSWORD)).status).toBe("signed-in");
    expect((await guess("Admin@Example.com", "2001:db8:9::1", DEMO_PASSWORD)).status).toBe("signed-in");
  });

  it("answers an unknown email exactly as it answers a known one", async () => {
    const answersFor = async (email: string, address: string) => {
      const answers = [];
      for (let i = 0; i < rule.freeFailures + 3; i++) answers.push(shown(await guess(email, address, `guess-${i}`)));
      return answers;
    };
    await database.db.insert(users).values({
      email: "known@example.com",
      name: "Known",
      role: "AGENT",
      passwordHash: await hashPassword("known-password-1"),
    });
    expect(await answersFor("nobody-here@example.com", "198.51.100.3")).toEqual(
      await answersFor("known@example.com", "198.51.100.4"),
    );
  });

  it("slows an address that sprays many accounts, whatever the email; other addresses are not", async () => {
    const address = "203.0.113.9";
    const statuses = [];
    for (let i = 0; i < LOGIN_THROTTLE.perAddress.freeFailures; i++)
      statuses.push((await guess(`spray-${i}@example.com`, address)).status);
    expect(statuses.slice(0, -1).every((s) => s === "refused")).toBe(true);
    expect(statuses.at(-1)).toBe("throttled");
    expect((await guess("admin@example.com", address, DEMO_PASSWORD)).status).toBe("throttled");
    expect((await guess("admin@example.com", "203.0.113.10", DEMO_PASSWORD)).status).toBe("signed-in");
    // An IPv6 client is one /64: rotating through its subnet does not give it fresh counters.
    for (let i = 0; i < LOGIN_THROTTLE.perAddress.freeFailures; i++)
      await guess(`v6-${i}@example.com`, `2001:db8:5:6::${(i + 1).toString(16)}`);
    expect((await guess("admin@example.com", "2001:db8:5:6:ffff::1", DEMO_PASSWORD)).status).toBe("throttled");
  });

  it("counts malformed attempts against the address too", async () => {
    const address = "203.0.113.20";
    for (let i = 0; i < LOGIN_THROTTLE.perAddress.freeFailures; i++) {
      expect(
        (await signInWithPassword(database.db, { email: ["x"], password: {} }, { ...demo, address })).status,
      ).not.toBe("signed-in");
    }
    expect((await guess("admin@example.com", address, DEMO_PASSWORD)).status).toBe("throttled");
  });

  it("does not hold successful sign-ins against anyone, and a success starts the account's count again", async () => {
    const from = "198.51.100.50";
    for (let i = 0; i < 12; i++)
      expect((await guess("admin@example.com", from, DEMO_PASSWORD)).status).toBe("signed-in");
    await guess("admin@example.com", from, "typo");
    await guess("admin@example.com", from, "typo");
    expect((await guess("admin@example.com", from, DEMO_PASSWORD)).status).toBe("signed-in");
    // Two typos, then in: the next two typos are free again.
    expect([
      (await guess("admin@example.com", from, "typo")).status,
      (await guess("admin@example.com", from, "typo")).status,
    ]).toEqual(["refused", "refused"]);
  });

  it("forgets the failures of an account and address after a quiet day", async () => {
    const from = "198.51.100.70";
    for (let i = 0; i < 6; i++) {
      await guess("quiet@example.com", from);
      await waitItOut();
    }
    await database.db.execute(sql`update login_throttles set last_failure_at = now() - interval '25 hours'`);
    expect((await guess("quiet@example.com", from)).status).toBe("refused");
  });

  it("lets a burst of parallel guesses check only as many passwords as are free", async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) => guess("burst@example.com", "198.51.100.60", `guess-${i}`)),
    );
    // Three were checked (two refused, the third failed and set the first wait); nine never reached the password.
    expect(outcomes.filter((o) => o.status === "refused")).toHaveLength(rule.freeFailures - 1);
    expect(outcomes.filter((o) => o.status === "throttled")).toHaveLength(12 - (rule.freeFailures - 1));
    const checked = await database.db.select().from(auditEvents).where(eq(auditEvents.action, "SIGN_IN_FAILED"));
    expect(checked.filter((e) => (e.details as { address?: string }).address === "198.51.100.60")).toHaveLength(
      rule.freeFailures,
    );
  });
});

describe("sign-ins and sign-outs on the audit trail", () => {
  const demo = { demoMode: true };
  const trail = async (action: "SIGNED_IN" | "SIGN_IN_FAILED" | "SIGNED_OUT", address?: string) =>
    (await database.db.select().from(auditEvents).where(eq(auditEvents.action, action))).filter(
      (e) => address === undefined || (e.details as { address?: string }).address === address,
    );

  it("records a success with the user and the address it came from", async () => {
    const outcome = await signInWithPassword(
      database.db,
      { email: "admin@example.com", password: DEMO_PASSWORD },
      { ...demo, address: "192.0.2.41" },
    );
    expect(outcome.status).toBe("signed-in");
    const [entry] = await trail("SIGNED_IN", "192.0.2.41");
    expect(entry).toMatchObject({
      actorName: "Avery Admin",
      subjectUserId: outcome.status === "signed-in" ? outcome.user.id : "",
    });
  });

  it("records a failure with the address, and the account only when the email names one", async () => {
    const [audited] = await database.db
      .insert(users)
      .values({
        email: "audited@example.com",
        name: "Audited",
        role: "AGENT",
        passwordHash: await hashPassword("audited-password-1"),
      })
      .returning();
    await signInWithPassword(
      database.db,
      { email: "Audited@example.com", password: "not-it" },
      { ...demo, address: "192.0.2.42" },
    );
    await signInWithPassword(
      database.db,
      { email: "someone-else@example.com", password: "my-password-typed-here" },
      { ...demo, address: "192.0.2.42" },
    );
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
    (globalThis as unknown as { __coverdeskDb?: { connection?: Promise<unknown> } }).__coverdeskDb = {
      connection: Promise.resolve(database),
    };
    const { getAuthOptions } = await import("./options");
    await getAuthOptions().events?.signOut?.({ token: { userId: admin?.id }, session: undefined as never });
    await getAuthOptions().events?.signOut?.({ token: { userId: "not-a-uuid" }, session: undefined as never });
    const outs = await trail("SIGNED_OUT");
    expect(outs.map((o) => [o.actorName, o.subjectUserId])).toEqual([["Avery Admin", admin?.id]]);
  });

  it("tells a user of the failures on their account since their previous sign-in, and admins of every recent one", async () => {
    const [told] = await database.db
      .insert(users)
      .values({
        email: "told@example.com",
        name: "Told",
        role: "AGENT",
        passwordHash: await hashPassword("told-password-12"),
      })
      .returning();
    const id = told?.id ?? "";
    const signIn = (address: string) =>
      signInWithPassword(
        database.db,
        { email: "told@example.com", password: "told-password-12" },
        { ...demo, address },
      );
    expect((await signIn("192.0.2.50")).status).toBe("signed-in");
    for (const address of ["192.0.2.51", "192.0.2.52", "192.0.2.52"]) {
      await signInWithPassword(database.db, { email: "told@example.com", password: "guess" }, { ...demo, address });
    }
    expect((await signIn("192.0.2.50")).status).toBe("signed-in");
    const since = await failedSignInsSincePreviousSignIn(database.db, id, 2);
    expect(since.total).toBe(3);
    expect(since.recent.map((f) => f.address)).toEqual(["192.0.2.52", "192.0.2.52"]);
    // Someone else's failures are not theirs.
    const [other] = await database.db
      .insert(users)
      .values({ email: "other-told@example.com", name: "Other", role: "AGENT", passwordHash: "x" })
      .returning();
    expect((await failedSignInsSincePreviousSignIn(database.db, other?.id ?? "")).total).toBe(0);
    // Signed in once more: those were before the previous sign-in now.
    expect((await signIn("192.0.2.50")).status).toBe("signed-in");
    expect((await failedSignInsSincePreviousSignIn(database.db, id)).total).toBe(0);
    const forAdmins = await recentFailedSignIns(database.db, 3);
    expect(forAdmins.map((f) => [f.email, f.address])).toEqual([
      ["told@example.com", "192.0.2.52"],
      ["told@example.com", "192.0.2.52"],
      ["told@example.com", "192.0.2.51"],
    ]);
  });
});
