import { eq, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, userFactors, users } from "@/db/schema";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import type { Actor } from "@/lib/core/actor";
import { LOGIN_THROTTLE } from "@/lib/security/login-throttle";
import { openSecret } from "@/lib/security/secret-box";
import { signInWithPassword } from "./credentials";
import { hashPassword } from "./password";
import {
  confirmSecondFactor,
  getSecondFactor,
  RECOVERY_CODE_COUNT,
  FACTOR_CHANGE_LIMIT,
  removeSecondFactor,
  renewRecoveryCodes,
  startSecondFactor,
} from "./second-factor";

// A user sets up an authenticator app and signs in with it, against a real database. The codes
// are computed here with otpauth, as the user's app would compute them.

let database: TestDatabase;
let actor: Actor;
const EMAIL = "two-factor@example.com";
const PASSWORD = "a-long-password-2fa";
const demo = { demoMode: true };

/** The code an app shows `stepsAhead` 30-second steps from now. */
const codeOf = (secret: string, stepsAhead = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + stepsAhead * 30_000 });
/** Six digits that are no code of the steps around now (the n-th such). */
function wrongCode(secret: string, n = 0): string {
  const near = new Set([-2, -1, 0, 1, 2].map((ahead) => codeOf(secret, ahead)));
  const wrong = [...Array(10).keys()].map((i) => String(100_000 + i * 7_919)).filter((code) => !near.has(code));
  return wrong[n] ?? "";
}

const signIn = (address: string, fields: { password?: string; code?: string } = {}) =>
  signInWithPassword(database.db, { email: EMAIL, password: PASSWORD, ...fields }, { ...demo, address });

async function pendingSecret(): Promise<string> {
  const state = await getSecondFactor(database.db, actor.id);
  if (state.state !== "pending") throw new Error(`expected a pending set-up, got ${state.state}`);
  return state.secret;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const [row] = await database.db
    .insert(users)
    .values({ email: EMAIL, name: "Tess Factor", role: "AGENT", passwordHash: await hashPassword(PASSWORD) })
    .returning({ id: users.id });
  actor = { id: row?.id ?? "", name: "Tess Factor", role: "AGENT" };
});
afterAll(async () => {
  await database?.close();
});

describe("setting up an authenticator app", () => {
  let secret = "";
  let recoveryCodes: string[] = [];

  it("starts pending: sign-in still takes the password alone", async () => {
    expect(await getSecondFactor(database.db, actor.id)).toEqual({ state: "none" });
    expect(await startSecondFactor(database.db, actor)).toEqual({ ok: true });
    secret = await pendingSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect((await getSecondFactor(database.db, actor.id)).state).toBe("pending");
    expect((await signIn("198.51.100.10")).status).toBe("signed-in");
  });

  it("keeps the secret sealed in the database, readable only for its own user", async () => {
    const [row] = await database.db.select().from(userFactors).where(eq(userFactors.userId, actor.id));
    expect(row?.secretSealed).toMatch(/^sealed:v1:/);
    expect(row?.secretSealed).not.toContain(secret);
    expect(openSecret(row?.secretSealed ?? "", actor.id)).toBe(secret);
    expect(openSecret(row?.secretSealed ?? "", crypto.randomUUID())).toBeNull();
    const otherRing = { keys: [{ id: "other", key: Buffer.alloc(32, 7) }], retired: new Set<string>() };
    expect(openSecret(row?.secretSealed ?? "", actor.id, undefined, otherRing)).toBeNull();
  });

  it("refuses to confirm with a wrong code, and confirms with the app's current code", async () => {
    expect(await confirmSecondFactor(database.db, actor, { code: wrongCode(secret) })).toMatchObject({
      ok: false,
      code: "INVALID",
      field: "code",
    });
    expect((await getSecondFactor(database.db, actor.id)).state).toBe("pending");
    const confirmed = await confirmSecondFactor(database.db, actor, { code: codeOf(secret) });
    if (!confirmed.ok) throw new Error(confirmed.message);
    expect(confirmed.recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(confirmed.recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of confirmed.recoveryCodes) expect(code).toMatch(/^[2-9a-hj-km-np-z]{5}-[2-9a-hj-km-np-z]{5}$/);
    expect(await getSecondFactor(database.db, actor.id)).toMatchObject({ state: "confirmed", recoveryCodesLeft: 10 });
    // Stored only as hashes.
    const [row] = await database.db.select().from(userFactors).where(eq(userFactors.userId, actor.id));
    const stored = JSON.stringify(row);
    for (const code of confirmed.recoveryCodes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace("-", ""));
    }
    recoveryCodes = confirmed.recoveryCodes;
  });

  it("asks for a code after the right password; refuses a wrong one, takes the right one once", async () => {
    const from = "198.51.100.11";
    expect((await signIn(from)).status).toBe("code-required");
    // A wrong password never reaches the code step.
    expect((await signIn(from, { password: "not-the-password", code: codeOf(secret) })).status).toBe("refused");
    expect((await signIn(from, { code: wrongCode(secret) })).status).toBe("code-refused");
    const code = codeOf(secret, 1); // the next step: the current one was used to confirm
    expect((await signIn(from, { code })).status).toBe("signed-in");
    // The same code again (a replay, or someone reading over the shoulder): refused.
    expect((await signIn("198.51.100.12", { code })).status).toBe("code-refused");
    // And so is an older one.
    expect((await signIn("198.51.100.12", { code: codeOf(secret) })).status).toBe("code-refused");
  });

  it("takes a recovery code instead of the app's code, once", async () => {
    const [first, second] = recoveryCodes;
    expect((await signIn("198.51.100.13", { code: first?.toUpperCase() })).status).toBe("signed-in");
    expect((await signIn("198.51.100.13", { code: first })).status).toBe("code-refused");
    // Typed without its dash, with spaces: the same code.
    expect((await signIn("198.51.100.13", { code: ` ${second?.replace("-", "")} ` })).status).toBe("signed-in");
    expect(await getSecondFactor(database.db, actor.id)).toMatchObject({ state: "confirmed", recoveryCodesLeft: 8 });
    const [entry] = await database.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.action, "SIGNED_IN"))
      .orderBy(sql`${auditEvents.id} desc`)
      .limit(1);
    expect(entry?.details).toMatchObject({ secondFactor: "recovery-code", recoveryCodesLeft: 8 });
  });

  it("counts wrong codes toward the sign-in throttle; asking for the code counts nothing", async () => {
    const from = "203.0.113.40";
    for (let i = 0; i < 10; i++) expect((await signIn(from)).status).toBe("code-required");
    const statuses = [];
    for (let i = 0; i < LOGIN_THROTTLE.perAccountAndAddress.freeFailures; i++)
      statuses.push((await signIn(from, { code: wrongCode(secret, i + 1) })).status);
    expect(statuses).toEqual(["code-refused", "code-refused", "throttled"]);
    // During the wait not even the right code is checked.
    expect((await signIn(from, { code: codeOf(secret, 1) })).status).toBe("throttled");
    // Giving the password alone again does not lift the wait or forget the failures.
    expect((await signIn(from)).status).toBe("throttled");
    await database.db.execute(sql`update login_throttles set blocked_until = null`);
    expect((await signIn(from)).status).toBe("code-required");
    expect((await signIn(from, { code: wrongCode(secret, 5) })).status).toBe("throttled");
    const failures = await database.db
      .select({ reason: sql<string>`${auditEvents.details}->>'reason'` })
      .from(auditEvents)
      .where(eq(auditEvents.action, "SIGN_IN_FAILED"));
    expect(failures.filter((f) => f.reason === "code").length).toBeGreaterThanOrEqual(4);
  });

  it("turns off only with a current code, then sign-in takes the password alone again", async () => {
    expect(await removeSecondFactor(database.db, actor, { code: wrongCode(secret, 6) })).toMatchObject({
      ok: false,
      field: "code",
    });
    expect((await getSecondFactor(database.db, actor.id)).state).toBe("confirmed");
    expect(await removeSecondFactor(database.db, actor, { code: recoveryCodes[2] ?? "" })).toEqual({ ok: true });
    expect(await getSecondFactor(database.db, actor.id)).toEqual({ state: "none" });
    expect((await signIn("198.51.100.14")).status).toBe("signed-in");
    const trail = await database.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.subjectUserId, actor.id))
      .orderBy(auditEvents.id);
    expect(trail.map((t) => t.action).filter((a) => a.startsWith("SECOND_FACTOR"))).toEqual([
      "SECOND_FACTOR_STARTED",
      "SECOND_FACTOR_CONFIRMED",
      "SECOND_FACTOR_REMOVED",
    ]);
  });
});

describe("changing one's factors", () => {
  /** A user of their own with an app set up: its secret and recovery codes. */
  async function userWithApp(email: string): Promise<{ who: Actor; secret: string; recoveryCodes: string[] }> {
    const [row] = await database.db
      .insert(users)
      .values({ email, name: email, role: "AGENT", passwordHash: await hashPassword(PASSWORD) })
      .returning({ id: users.id });
    const who: Actor = { id: row?.id ?? "", name: email, role: "AGENT" };
    await startSecondFactor(database.db, who);
    const state = await getSecondFactor(database.db, who.id);
    if (state.state !== "pending") throw new Error("not pending");
    const confirmed = await confirmSecondFactor(database.db, who, { code: codeOf(state.secret) });
    if (!confirmed.ok) throw new Error(confirmed.message);
    return { who, secret: state.secret, recoveryCodes: confirmed.recoveryCodes };
  }
  const signInAs = (email: string, code: string) =>
    signInWithPassword(database.db, { email, password: PASSWORD, code }, { ...demo, address: "198.51.100.30" });

  it("makes new recovery codes with a current code: the old ones stop working, the new ones work", async () => {
    const email = "renew@example.com";
    const { who, secret, recoveryCodes } = await userWithApp(email);
    expect(await renewRecoveryCodes(database.db, who, { code: wrongCode(secret) })).toMatchObject({
      ok: false,
      field: "code",
    });
    expect(await renewRecoveryCodes(database.db, who, { code: "" })).toMatchObject({ ok: false, field: "code" });
    const renewed = await renewRecoveryCodes(database.db, who, { code: recoveryCodes[0] ?? "" });
    if (!renewed.ok) throw new Error(renewed.message);
    expect(renewed.recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(renewed.recoveryCodes.some((code) => recoveryCodes.includes(code))).toBe(false);
    expect((await signInAs(email, recoveryCodes[1] ?? "")).status).toBe("code-refused");
    expect((await signInAs(email, renewed.recoveryCodes[0] ?? "")).status).toBe("signed-in");
    const trail = await database.db
      .select({ subject: auditEvents.subjectUserId })
      .from(auditEvents)
      .where(eq(auditEvents.action, "RECOVERY_CODES_RENEWED"));
    expect(trail).toEqual([{ subject: who.id }]);
  });

  it("refuses new recovery codes to a user without an app", async () => {
    expect(await renewRecoveryCodes(database.db, actor, { code: "123456" })).toMatchObject({
      ok: false,
      code: "STALE",
    });
  });

  it("limits the tries at confirming, removing and renewing, per user: even the right code waits", async () => {
    const email = "limited@example.com";
    const { who, secret, recoveryCodes } = await userWithApp(email); // one try: the confirmation
    for (let i = 1; i < FACTOR_CHANGE_LIMIT.limit; i++) {
      const attempt =
        i % 2 === 0
          ? await removeSecondFactor(database.db, who, { code: wrongCode(secret, i % 5) })
          : await renewRecoveryCodes(database.db, who, { code: wrongCode(secret, i % 5) });
      expect(attempt).toMatchObject({ ok: false, message: expect.stringContaining("not right") });
    }
    const refused = await removeSecondFactor(database.db, who, { code: recoveryCodes[0] ?? "" });
    expect(refused).toMatchObject({ ok: false, field: "code", message: expect.stringMatching(/^Too many attempts/) });
    expect((await getSecondFactor(database.db, who.id)).state).toBe("confirmed");
    // Another user is not held up.
    const other = await userWithApp("unlimited@example.com");
    expect(await renewRecoveryCodes(database.db, other.who, { code: other.recoveryCodes[0] ?? "" })).toMatchObject({
      ok: true,
    });
    // Nor is signing in, which has its own throttle.
    expect((await signInAs(email, recoveryCodes[1] ?? "")).status).toBe("signed-in");
  });
});
