import { generateKeyPairSync } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, passkeyChallenges, userPasskeys, users } from "@/db/schema";
import type { Actor } from "@/lib/core/actor";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { softwarePasskey, type SoftwarePasskey } from "@/test/software-authenticator";
import { passkeySignInOptions, signInWithPassword } from "./credentials";
import { hashPassword } from "./password";
import {
  listPasskeys,
  registerPasskey,
  relyingParty,
  removePasskey,
  startPasskeyRegistration,
  startPasskeySignIn,
} from "./passkeys";
import { hasConfirmedSecondFactor } from "./second-factor";

// Passkeys against a real database, answered by a passkey made in software (an EC P-256 key,
// attestation "none"), so registration and sign-in verify for real: signatures, challenge,
// origin, RP ID and the signature counter.

let database: TestDatabase;
const EMAIL = "keyholder@example.com";
const PASSWORD = "a-long-password-passkey";
const RP = relyingParty("https://coverdesk.example:8443/some/path");
const ELSEWHERE = "https://coverdesk.example.evil.test";
let owner: Actor;
let stranger: Actor;
let key: SoftwarePasskey;

const options = (address: string) => ({ demoMode: true, address, relyingParty: RP });
const askOptions = (address: string, password = PASSWORD) =>
  passkeySignInOptions(database.db, { email: EMAIL, password }, options(address));
const signIn = (address: string, passkey?: string) =>
  signInWithPassword(database.db, { email: EMAIL, password: PASSWORD, passkey }, options(address));

/** Options for a sign-in, as the browser gets them. */
async function signInOptions(address: string): Promise<{ challenge: string; allowCredentials?: { id: string }[] }> {
  const answer = await askOptions(address);
  if (answer.status !== "options") throw new Error(`no options: ${answer.status}`);
  return answer.options;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const rows = await database.db
    .insert(users)
    .values([
      { email: EMAIL, name: "Kay Holder", role: "AGENT", passwordHash: await hashPassword(PASSWORD) },
      { email: "stranger@example.com", name: "Stan Ger", role: "ADMIN", passwordHash: "x" },
    ])
    .returning({ id: users.id });
  owner = { id: rows[0]?.id ?? "", name: "Kay Holder", role: "AGENT" };
  stranger = { id: rows[1]?.id ?? "", name: "Stan Ger", role: "ADMIN" };
  key = softwarePasskey(RP.id);
});
afterAll(async () => {
  await database?.close();
});

describe("the relying party", () => {
  it("is the public URL's host name and origin", () => {
    expect(RP).toEqual({ id: "coverdesk.example", origin: "https://coverdesk.example:8443" });
  });
});

describe("registering a passkey", () => {
  it("asks for a name and an answer, and refuses an answer to no challenge of ours", async () => {
    expect(await registerPasskey(database.db, owner, { name: " ", response: "{}" }, RP)).toMatchObject({
      ok: false,
      field: "name",
    });
    expect(await registerPasskey(database.db, owner, { name: "Laptop", response: "not json" }, RP)).toMatchObject({
      ok: false,
      field: "response",
    });
    const made = key.register({ challenge: "bm90LW91cnM" }, RP.origin);
    expect(await registerPasskey(database.db, owner, { name: "Laptop", response: made }, RP)).toMatchObject({
      ok: false,
      code: "STALE",
    });
    expect(await listPasskeys(database.db, owner.id)).toEqual([]);
  });

  it("refuses a passkey made for another site, or answering another user's challenge", async () => {
    const theirs = await startPasskeyRegistration(database.db, stranger, RP);
    expect(
      await registerPasskey(database.db, owner, { name: "Laptop", response: key.register(theirs, RP.origin) }, RP),
    ).toMatchObject({ ok: false });
    const ours = await startPasskeyRegistration(database.db, owner, RP);
    expect(
      await registerPasskey(database.db, owner, { name: "Laptop", response: key.register(ours, ELSEWHERE) }, RP),
    ).toMatchObject({ ok: false, field: "response" });
    const again = await startPasskeyRegistration(database.db, owner, RP);
    expect(
      await registerPasskey(
        database.db,
        owner,
        { name: "Laptop", response: key.register(again, RP.origin, "evil.test") },
        RP,
      ),
    ).toMatchObject({ ok: false, field: "response" });
    expect(await listPasskeys(database.db, owner.id)).toEqual([]);
    expect(await hasConfirmedSecondFactor(database.db, owner.id)).toBe(false);
  });

  it("stores a verified passkey with its key, counter and transports; its challenge works once", async () => {
    const created = await startPasskeyRegistration(database.db, owner, RP);
    expect(created.rp).toEqual({ name: "Coverdesk", id: RP.id });
    expect(created.user.name).toBe(EMAIL);
    const made = key.register(created, RP.origin);
    const added = await registerPasskey(database.db, owner, { name: "Work laptop", response: made }, RP);
    expect(added).toMatchObject({ ok: true });
    expect(await listPasskeys(database.db, owner.id)).toEqual([
      expect.objectContaining({ name: "Work laptop", lastUsedAt: null }),
    ]);
    const [row] = await database.db.select().from(userPasskeys).where(eq(userPasskeys.userId, owner.id));
    expect(row).toMatchObject({ credentialId: key.credentialId, counter: 0, transports: ["internal", "hybrid"] });
    expect(row?.publicKey).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    // The same answer again: its challenge is spent.
    expect(await registerPasskey(database.db, owner, { name: "Again", response: made }, RP)).toMatchObject({
      ok: false,
      code: "STALE",
    });
    // A second registration leaves out the passkeys the user has.
    const next = await startPasskeyRegistration(database.db, owner, RP);
    expect(next.excludeCredentials?.map((c) => c.id)).toEqual([key.credentialId]);
    expect(await hasConfirmedSecondFactor(database.db, owner.id)).toBe(true);
    const [entry] = await database.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "PASSKEY_ADDED"), eq(auditEvents.subjectUserId, owner.id)));
    expect(entry?.details).toEqual({ name: "Work laptop" });
  });
});

describe("signing in with a passkey", () => {
  it("asks for the second step, and gives the passkey's options only for the right password", async () => {
    expect((await signIn("198.51.100.60")).status).toBe("code-required");
    expect(await askOptions("198.51.100.60", "not-the-password")).toEqual({ status: "refused" });
    const offered = await signInOptions("198.51.100.60");
    expect(offered.allowCredentials?.map((c) => c.id)).toEqual([key.credentialId]);
    // A stranger's account has none.
    expect(
      await passkeySignInOptions(
        database.db,
        { email: "stranger@example.com", password: "x" },
        options("198.51.100.60"),
      ),
    ).toEqual({ status: "refused" });
  });

  it("signs in with the passkey's answer, once; a replay or a counter that did not grow is refused", async () => {
    const first = key.signIn(await signInOptions("198.51.100.61"), RP.origin);
    expect((await signIn("198.51.100.61", first)).status).toBe("signed-in");
    // The same answer again: its challenge is spent.
    expect((await signIn("198.51.100.62", first)).status).toBe("code-refused");
    // A fresh challenge signed with the same counter (a cloned key): refused, and the counter stays.
    key.counter -= 1;
    const cloned = key.signIn(await signInOptions("198.51.100.63"), RP.origin);
    expect((await signIn("198.51.100.63", cloned)).status).toBe("code-refused");
    const [row] = await database.db.select().from(userPasskeys).where(eq(userPasskeys.userId, owner.id));
    expect(row?.counter).toBe(1);
    expect(row?.lastUsedAt).not.toBeNull();
    const next = key.signIn(await signInOptions("198.51.100.64"), RP.origin);
    expect((await signIn("198.51.100.64", next)).status).toBe("signed-in");
    const [entry] = await database.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "SIGNED_IN"), eq(auditEvents.subjectUserId, owner.id)))
      .orderBy(auditEvents.id);
    expect(entry?.details).toMatchObject({ secondFactor: "passkey", passkey: "Work laptop" });
  });

  it("refuses an answer from another origin, for another site, signed by another key, or not JSON", async () => {
    const elsewhere = key.signIn(await signInOptions("198.51.100.65"), ELSEWHERE);
    expect((await signIn("198.51.100.65", elsewhere)).status).toBe("code-refused");
    const otherSite = key.signIn(await signInOptions("198.51.100.66"), RP.origin, "evil.test");
    expect((await signIn("198.51.100.66", otherSite)).status).toBe("code-refused");
    const forged = softwarePasskey(RP.id, { key: generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey });
    const forgedAnswer = JSON.parse(forged.signIn(await signInOptions("198.51.100.67"), RP.origin)) as { id: string };
    const posing = JSON.stringify({ ...forgedAnswer, id: key.credentialId, rawId: key.credentialId });
    expect((await signIn("198.51.100.67", posing)).status).toBe("code-refused");
    expect((await signIn("198.51.100.68", "{not json")).status).toBe("code-refused");
    // Each refusal was a failed sign-in on the record.
    const failures = await database.db
      .select({ id: auditEvents.id })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "SIGN_IN_FAILED"), eq(auditEvents.subjectUserId, owner.id)));
    expect(failures.length).toBeGreaterThanOrEqual(6);
  });

  it("takes a passkey that keeps no counter (always 0), and still never the same answer twice", async () => {
    const uncounted = softwarePasskey(RP.id, { counting: false });
    const created = await startPasskeyRegistration(database.db, owner, RP);
    expect(
      await registerPasskey(
        database.db,
        owner,
        { name: "Phone", response: uncounted.register(created, RP.origin) },
        RP,
      ),
    ).toMatchObject({ ok: true });
    const answer = uncounted.signIn(await signInOptions("198.51.100.69"), RP.origin);
    expect((await signIn("198.51.100.69", answer)).status).toBe("signed-in");
    expect((await signIn("198.51.100.70", answer)).status).toBe("code-refused");
    const again = uncounted.signIn(await signInOptions("198.51.100.71"), RP.origin);
    expect((await signIn("198.51.100.71", again)).status).toBe("signed-in");
  });

  it("gives no options to an account without a passkey", async () => {
    expect(await startPasskeySignIn(database.db, stranger.id, RP)).toBeNull();
  });
});

describe("removing a passkey", () => {
  it("removes one's own only, audited", async () => {
    const [laptop] = (await listPasskeys(database.db, owner.id)).filter((p) => p.name === "Work laptop");
    expect(await removePasskey(database.db, stranger, { passkeyId: laptop?.id ?? "" })).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
    expect(await removePasskey(database.db, owner, { passkeyId: "nope" })).toMatchObject({ ok: false });
    expect(await removePasskey(database.db, owner, { passkeyId: laptop?.id ?? "" })).toEqual({ ok: true });
    expect((await listPasskeys(database.db, owner.id)).map((p) => p.name)).toEqual(["Phone"]);
    const [entry] = await database.db
      .select({ actorId: auditEvents.actorId, details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.action, "PASSKEY_REMOVED"));
    expect(entry).toEqual({ actorId: owner.id, details: { name: "Work laptop" } });
    // Spent and lapsed challenges do not pile up past the user's own ceremonies.
    const left = await database.db
      .select({ challenge: passkeyChallenges.challenge })
      .from(passkeyChallenges)
      .where(eq(passkeyChallenges.userId, owner.id));
    expect(left.length).toBeLessThan(5);
  });
});
