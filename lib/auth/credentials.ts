import "server-only";
import { z } from "zod";
import type { Db } from "@/db/types";
import { getUserCredentialsByEmail } from "./credentials-lookup";
import { DEMO_PASSWORD } from "@/lib/auth/demo-users";
import { countLoginAttempt, forgetLoginAttempt, giveBackLoginAttempt } from "@/lib/security/login-throttle";
import { recordAudit } from "@/lib/audit/audit-log";
import { hashPassword, verifyPassword } from "./password";
import { hasConfirmedSecondFactor, spendSecondFactorCode } from "./second-factor";
import { spendPasskeySignIn, startPasskeySignIn, type RelyingParty } from "./passkeys";
import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import type { Actor } from "@/lib/core/actor";

export const credentialsSchema = z.object({
  email: z.email().max(320),
  password: z.string().min(1).max(200),
});

/** Who a password check vouches for: the actor before their session is opened, with the account's email (next-auth keeps it). */
export type AuthenticatedUser = Omit<Actor, "sessionId"> & { email: string };

// A password is checked even when no account matches, so that the time an answer takes does
// not tell whether the email exists. The hash is of a random string nobody can type.
let decoyHash: Promise<string> | undefined;
const decoy = () => (decoyHash ??= hashPassword(crypto.randomUUID()));

/** Why a check failed, for the audit trail only: every refusal reads alike to the visitor. */
type CheckedCredentials =
  | { user: AuthenticatedUser; account: { id: string; email: string }; failure: null }
  | {
      user: null;
      account: { id: string; email: string } | null;
      failure: "malformed" | "unknown-email" | "password" | "inactive";
    };

async function checkCredentials(db: Db, input: unknown, options: { demoMode: boolean }): Promise<CheckedCredentials> {
  const parsed = credentialsSchema.safeParse(input);
  if (!parsed.success) return { user: null, account: null, failure: "malformed" };
  const { email, password } = parsed.data;
  const found = await getUserCredentialsByEmail(db, email);
  const matches = await verifyPassword(password, found?.passwordHash ?? (await decoy()));
  if (!found) return { user: null, account: null, failure: "unknown-email" };
  const account = { id: found.id, email: found.email };
  if (!matches || (!options.demoMode && password === DEMO_PASSWORD))
    return { user: null, account, failure: "password" };
  if (!found.isActive) return { user: null, account, failure: "inactive" };
  return { user: { id: found.id, email: found.email, name: found.name, role: found.role }, account, failure: null };
}

/** Checks an email and password; null for any failure, so no answer tells which part was wrong. */
export async function authenticate(
  db: Db,
  input: unknown,
  options: { demoMode: boolean },
): Promise<AuthenticatedUser | null> {
  return (await checkCredentials(db, input, options)).user;
}

export type SignInOutcome =
  | { status: "signed-in"; user: AuthenticatedUser }
  | { status: "refused" }
  /** The password was right and the account has a second factor: ask for its code (nothing is counted against anyone). */
  | { status: "code-required" }
  /** The password was right, the code wrong or used already. */
  | { status: "code-refused" }
  /** Too many failures from this address (for this account, or for any): wait before the next try. */
  | { status: "throttled"; retryAfterSeconds: number };

/** The email as typed, for counting failures, whatever else is wrong with the input. */
function typedEmail(input: unknown): string | null {
  const email = input && typeof input === "object" ? (input as { email?: unknown }).email : undefined;
  return typeof email === "string" && email.trim() !== "" ? email.trim().toLowerCase().slice(0, 320) : null;
}

/** A passkey's answer (JSON text), when one was sent instead of a code. */
function typedPasskey(input: unknown): string | null {
  const passkey = input && typeof input === "object" ? (input as { passkey?: unknown }).passkey : undefined;
  return typeof passkey === "string" && passkey !== "" ? passkey : null;
}

/** The second factor's code as typed, when one was sent. */
function typedCode(input: unknown): string | null {
  const code = input && typeof input === "object" ? (input as { code?: unknown }).code : undefined;
  return typeof code === "string" && code.trim() !== "" ? code.trim().slice(0, 64) : null;
}

/**
 * Sign-in with its throttle: failures slow down the address they come from, for the account
 * and overall (lib/security/login-throttle.ts), never the account from elsewhere. Unknown and
 * known emails are counted and answered alike.
 */
export async function signInWithPassword(
  db: Db,
  input: unknown,
  options: { demoMode: boolean; address: string; relyingParty?: RelyingParty },
): Promise<SignInOutcome> {
  const subject = { email: typedEmail(input), address: options.address };
  const attempt = await countLoginAttempt(db, subject);
  if (attempt.throttledFor !== null) return { status: "throttled", retryAfterSeconds: attempt.throttledFor };
  const checked = await checkCredentials(db, input, options);
  const { user } = checked;
  let secondFactor: Record<string, unknown> = {};
  if (user && (await hasConfirmedSecondFactor(db, user.id))) {
    const code = typedCode(input);
    const passkey = typedPasskey(input);
    // Asking for the code is no failure, but no success either: the attempt is given back
    // without clearing the failures before it, so knowing the password never resets the count
    // of wrong codes.
    if (code === null && passkey === null) {
      await giveBackLoginAttempt(db, subject);
      return { status: "code-required" };
    }
    // A passkey's answer stands in for the code; a wrong one counts as a wrong code.
    const check =
      passkey !== null
        ? await spendPasskeySignIn(db, user.id, passkey, options.relyingParty)
        : await spendSecondFactorCode(db, user.id, code ?? "");
    if (!check.ok) {
      await recordAudit(db, null, "SIGN_IN_FAILED", {
        subjectUserId: user.id,
        details: { address: options.address, email: user.email, reason: "code" },
      });
      return attempt.waitIfFails !== null
        ? { status: "throttled", retryAfterSeconds: attempt.waitIfFails }
        : { status: "code-refused" };
    }
    secondFactor =
      "passkeyName" in check
        ? { secondFactor: "passkey", passkey: check.passkeyName }
        : check.method === "totp"
          ? { secondFactor: "totp" }
          : { secondFactor: "recovery-code", recoveryCodesLeft: check.recoveryCodesLeft };
  }
  if (user) {
    await forgetLoginAttempt(db, subject);
    await recordAudit(db, user, "SIGNED_IN", {
      subjectUserId: user.id,
      details: { address: options.address, ...secondFactor },
    });
    return { status: "signed-in", user };
  }
  return refusedSignIn(db, checked, attempt.waitIfFails, options.address);
}

/** A refused password: on the record, and the answer the throttle gives it. */
async function refusedSignIn(
  db: Db,
  checked: CheckedCredentials,
  waitIfFails: number | null,
  address: string,
): Promise<{ status: "refused" } | { status: "throttled"; retryAfterSeconds: number }> {
  // Every attempt whose password was checked is on the record, with its address; the email only
  // when it names an account (people type passwords into the email field, too).
  if (checked.failure !== "malformed") {
    await recordAudit(db, null, "SIGN_IN_FAILED", {
      subjectUserId: checked.account?.id ?? null,
      details: { address, email: checked.account?.email ?? null, reason: checked.failure },
    });
  }
  return waitIfFails !== null ? { status: "throttled", retryAfterSeconds: waitIfFails } : { status: "refused" };
}

export type PasskeyOptionsOutcome =
  | { status: "options"; options: PublicKeyCredentialRequestOptionsJSON }
  /** The password was right; the account has no passkey (its second step is the app's code). */
  | { status: "no-passkey" }
  | { status: "refused" }
  | { status: "throttled"; retryAfterSeconds: number };

/**
 * The second step with a passkey, first half: what the browser needs to sign with one of the
 * account's passkeys. Asked with the email and password again, under sign-in's throttle, so it
 * tells nobody without the password which passkeys an account has; a right password counts as
 * no failure (as when the code is asked for), a wrong one as a failed sign-in.
 */
export async function passkeySignInOptions(
  db: Db,
  input: unknown,
  options: { demoMode: boolean; address: string; relyingParty?: RelyingParty },
): Promise<PasskeyOptionsOutcome> {
  const subject = { email: typedEmail(input), address: options.address };
  const attempt = await countLoginAttempt(db, subject);
  if (attempt.throttledFor !== null) return { status: "throttled", retryAfterSeconds: attempt.throttledFor };
  const checked = await checkCredentials(db, input, options);
  if (!checked.user) return refusedSignIn(db, checked, attempt.waitIfFails, options.address);
  await giveBackLoginAttempt(db, subject);
  const passkeyOptions = await startPasskeySignIn(db, checked.user.id, options.relyingParty);
  return passkeyOptions ? { status: "options", options: passkeyOptions } : { status: "no-passkey" };
}
