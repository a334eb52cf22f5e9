import "server-only";
import { and, eq, isNotNull, isNull, or, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { passkeyChallenges, userFactors, userPasskeys, users } from "@/db/schema";
import type { Db } from "@/db/types";
import { recordAudit } from "@/lib/audit/audit-log";
import type { Actor } from "@/lib/core/actor";
import type { FormState } from "@/lib/core/form-state";
import { invalid, stale, type CommandResult } from "@/lib/core/result";
import { hitRateLimit, type RateLimit } from "@/lib/security/rate-limit";
import { openSecret, sealSecret } from "@/lib/security/secret-box";
import { CODE_REFUSED_MESSAGE, throttledMessage } from "@/lib/security/sign-in-errors";
import {
  acceptedTotpStep,
  looksLikeTotpCode,
  newRecoveryCode,
  newTotpSecret,
  normalizedRecoveryCode,
  recoveryCodeHash,
  totpUri,
} from "@/lib/security/totp";

// A user's second factor: an authenticator app (TOTP), set up by the user on /account/security
// and asked for at sign-in once confirmed (lib/auth/credentials.ts). Its secret is sealed
// (lib/security/secret-box.ts); each accepted code moves the user's last used step forward in
// the same statement that checks it, so the same code, or any older one, is never accepted
// twice, even by two requests at once. Recovery codes are kept hashed and removed as used.

export const RECOVERY_CODE_COUNT = 10;

/**
 * Every change to one's own factors that checks a code (confirming an app, turning it off, new
 * recovery codes) or a passkey counts here, per user: a stolen session cannot guess its way to a
 * code or through the recovery codes faster than sign-in's throttle would let it.
 */
export const FACTOR_CHANGE_LIMIT: RateLimit = { limit: 10, windowSeconds: 15 * 60 };

/** Counts one change of the user's factors; a refusal to show when there were too many. */
export async function hitFactorChangeLimit(db: Db, userId: string): Promise<CommandResult> {
  const decision = await hitRateLimit(db, `second-factor-change:${userId}`, FACTOR_CHANGE_LIMIT);
  return decision.allowed ? { ok: true } : invalid(throttledMessage(decision.retryAfterSeconds), "code");
}

export const CODE_MESSAGE = "Enter the 6-digit code your authenticator app shows.";
export const WRONG_CODE_MESSAGE = CODE_REFUSED_MESSAGE;

/** The form of a command that takes a current code (confirming, removing). */
export const secondFactorCodeInputSchema = z.object({
  code: z.string(CODE_MESSAGE).trim().min(1, CODE_MESSAGE).max(64, CODE_MESSAGE),
});
export type SecondFactorCodeInput = z.input<typeof secondFactorCodeInputSchema>;

/** A command's code, read and counted toward the change limit before anything is checked. */
async function readCodeUnderLimit(
  db: Db,
  userId: string,
  input: SecondFactorCodeInput,
): Promise<{ ok: true; code: string } | Extract<CommandResult, { ok: false }>> {
  const parsed = secondFactorCodeInputSchema.safeParse(input);
  if (!parsed.success) return invalid(CODE_MESSAGE, "code");
  const limited = await hitFactorChangeLimit(db, userId);
  return limited.ok ? { ok: true, code: parsed.data.code } : limited;
}

/** The confirming form's answer: on success, the recovery codes, shown this once. */
export type RecoveryCodesState = FormState | { status: "done"; message: string; recoveryCodes: string[] };

export type SecondFactorState =
  | { state: "none" }
  /** Set up but not confirmed: the secret, to show as QR code and text, and the app's address. */
  | { state: "pending"; secret: string; uri: string }
  | { state: "confirmed"; confirmedAt: Date; recoveryCodesLeft: number };

async function getFactorRow(db: Db, userId: string) {
  const [row] = await db
    .select({
      secretSealed: userFactors.secretSealed,
      confirmedAt: userFactors.confirmedAt,
      lastUsedStep: userFactors.lastUsedStep,
      recoveryCodesLeft: sql<number>`cardinality(${userFactors.recoveryCodeHashes})`.mapWith(Number),
      email: users.email,
    })
    .from(userFactors)
    .innerJoin(users, eq(users.id, userFactors.userId))
    .where(eq(userFactors.userId, userId));
  return row ?? null;
}

/** Where a user's second factor stands, for their security page. */
export async function getSecondFactor(db: Db, userId: string): Promise<SecondFactorState> {
  const row = await getFactorRow(db, userId);
  if (!row) return { state: "none" };
  if (row.confirmedAt)
    return { state: "confirmed", confirmedAt: row.confirmedAt, recoveryCodesLeft: row.recoveryCodesLeft };
  const secret = openSecret(row.secretSealed, userId);
  // A pending secret sealed under a key no longer known is as good as none: start again.
  return secret ? { state: "pending", secret, uri: totpUri(secret, row.email) } : { state: "none" };
}

/** Whether the user has a confirmed authenticator app. */
async function hasConfirmedTotp(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: userFactors.userId })
    .from(userFactors)
    .where(and(eq(userFactors.userId, userId), isNotNull(userFactors.confirmedAt)));
  return row !== undefined;
}

/** Whether the user has a second factor (a confirmed app, or a passkey: lib/auth/passkeys.ts), so sign-in asks for it. */
export async function hasConfirmedSecondFactor(db: Db, userId: string): Promise<boolean> {
  if (await hasConfirmedTotp(db, userId)) return true;
  const [passkey] = await db
    .select({ id: userPasskeys.id })
    .from(userPasskeys)
    .where(eq(userPasskeys.userId, userId))
    .limit(1);
  return passkey !== undefined;
}

const ALREADY_ON = "Sign-in with an authenticator app is already on. Turn it off first to set up another app.";

/** Starts (or starts again) setting up an authenticator app: a new secret, pending until confirmed. */
export async function startSecondFactor(db: Db, actor: Actor): Promise<CommandResult> {
  const secretSealed = sealSecret(newTotpSecret(), actor.id);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(userFactors)
      .values({ userId: actor.id, secretSealed })
      .onConflictDoUpdate({
        target: userFactors.userId,
        set: { secretSealed, createdAt: sql`now()`, lastUsedStep: null, recoveryCodeHashes: sql`'{}'::text[]` },
        setWhere: isNull(userFactors.confirmedAt),
      })
      .returning({ userId: userFactors.userId });
    if (!row) return stale(ALREADY_ON);
    await recordAudit(tx, actor, "SECOND_FACTOR_STARTED", { subjectUserId: actor.id });
    return { ok: true };
  });
}

/**
 * Confirms a pending app with a current code: from then on sign-in asks for a code. Answers the
 * ten recovery codes, which exist nowhere else in plain text: the page shows them once.
 */
export async function confirmSecondFactor(
  db: Db,
  actor: Actor,
  input: SecondFactorCodeInput,
): Promise<CommandResult<{ recoveryCodes: string[] }>> {
  const read = await readCodeUnderLimit(db, actor.id, input);
  if (!read.ok) return read;
  const row = await getFactorRow(db, actor.id);
  if (!row) return stale("Set up an authenticator app first.");
  if (row.confirmedAt) return stale(ALREADY_ON);
  const secret = openSecret(row.secretSealed, actor.id);
  const step = secret ? acceptedTotpStep(secret, read.code, { after: null }) : null;
  if (step === null) return invalid(WRONG_CODE_MESSAGE, "code");
  const { recoveryCodes, hashes } = newRecoveryCodes(actor.id);
  return db.transaction(async (tx) => {
    const [confirmed] = await tx
      .update(userFactors)
      .set({ confirmedAt: sql`now()`, lastUsedStep: step, recoveryCodeHashes: hashes })
      // The secret the code was checked against, still pending (not replaced meanwhile).
      .where(
        and(
          eq(userFactors.userId, actor.id),
          eq(userFactors.secretSealed, row.secretSealed),
          isNull(userFactors.confirmedAt),
        ),
      )
      .returning({ userId: userFactors.userId });
    if (!confirmed) return stale("The set-up changed meanwhile. Reload the page and start again.");
    await recordAudit(tx, actor, "SECOND_FACTOR_CONFIRMED", { subjectUserId: actor.id });
    return { ok: true, recoveryCodes };
  });
}

function newRecoveryCodes(userId: string): { recoveryCodes: string[]; hashes: string[] } {
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  return {
    recoveryCodes,
    hashes: recoveryCodes.map((code) => recoveryCodeHash(userId, normalizedRecoveryCode(code) ?? "")),
  };
}

export type CodeCheck =
  { ok: true; method: "totp" } | { ok: true; method: "recovery-code"; recoveryCodesLeft: number } | { ok: false };

/**
 * Checks a code of a user's confirmed factor and uses it up: an authenticator code moves the
 * last used step forward (the same step, or an earlier one, is refused from then on); a
 * recovery code is removed. Both in the one statement that checks them.
 */
export async function spendSecondFactorCode(
  db: Db,
  userId: string,
  typed: string,
  at: number = Date.now(),
): Promise<CodeCheck> {
  const code = typed.trim().slice(0, 64);
  if (looksLikeTotpCode(code)) {
    const row = await getFactorRow(db, userId);
    const secret = row?.confirmedAt ? openSecret(row.secretSealed, userId) : null;
    const step = secret ? acceptedTotpStep(secret, code, { after: row?.lastUsedStep ?? null, at }) : null;
    if (step === null) return { ok: false };
    const [used] = await db
      .update(userFactors)
      .set({ lastUsedStep: step })
      .where(
        and(
          eq(userFactors.userId, userId),
          isNotNull(userFactors.confirmedAt),
          or(isNull(userFactors.lastUsedStep), lt(userFactors.lastUsedStep, step)),
        ),
      )
      .returning({ userId: userFactors.userId });
    return used ? { ok: true, method: "totp" } : { ok: false };
  }
  const recovery = normalizedRecoveryCode(code);
  if (!recovery) return { ok: false };
  const hash = recoveryCodeHash(userId, recovery);
  const [used] = await db
    .update(userFactors)
    .set({ recoveryCodeHashes: sql`array_remove(${userFactors.recoveryCodeHashes}, ${hash})` })
    .where(
      and(
        eq(userFactors.userId, userId),
        isNotNull(userFactors.confirmedAt),
        sql`${hash} = any(${userFactors.recoveryCodeHashes})`,
      ),
    )
    .returning({ left: sql<number>`cardinality(${userFactors.recoveryCodeHashes})`.mapWith(Number) });
  return used ? { ok: true, method: "recovery-code", recoveryCodesLeft: used.left } : { ok: false };
}

/**
 * Turns sign-in with the app off, given a current code (or a recovery code, which still works
 * when the app is lost); a pending set-up is simply dropped.
 */
export async function removeSecondFactor(db: Db, actor: Actor, input: SecondFactorCodeInput): Promise<CommandResult> {
  const read = await readCodeUnderLimit(db, actor.id, input);
  if (!read.ok) return read;
  return db.transaction(async (tx) => {
    const factor = await getFactorRow(tx, actor.id);
    if (!factor) return stale("Sign-in with an authenticator app is already off.");
    if (factor.confirmedAt && !(await spendSecondFactorCode(tx, actor.id, read.code)).ok)
      return invalid(WRONG_CODE_MESSAGE, "code");
    await tx.delete(userFactors).where(eq(userFactors.userId, actor.id));
    await recordAudit(tx, actor, "SECOND_FACTOR_REMOVED", {
      subjectUserId: actor.id,
      details: { confirmed: factor.confirmedAt !== null },
    });
    return { ok: true };
  });
}

/**
 * Ten new recovery codes for a confirmed app, given a current code (or a recovery code): the old
 * ones stop working at once. Answers the new ones, shown this once.
 */
export async function renewRecoveryCodes(
  db: Db,
  actor: Actor,
  input: SecondFactorCodeInput,
): Promise<CommandResult<{ recoveryCodes: string[] }>> {
  const read = await readCodeUnderLimit(db, actor.id, input);
  if (!read.ok) return read;
  const { recoveryCodes, hashes } = newRecoveryCodes(actor.id);
  return db.transaction(async (tx) => {
    if (!(await hasConfirmedTotp(tx, actor.id))) return stale("Set up an authenticator app first.");
    if (!(await spendSecondFactorCode(tx, actor.id, read.code)).ok) return invalid(WRONG_CODE_MESSAGE, "code");
    await tx.update(userFactors).set({ recoveryCodeHashes: hashes }).where(eq(userFactors.userId, actor.id));
    await recordAudit(tx, actor, "RECOVERY_CODES_RENEWED", { subjectUserId: actor.id });
    return { ok: true as const, recoveryCodes };
  });
}

/**
 * Removes every second factor of a user (an admin's reset, lib/users/users-admin.ts): the app, its
 * recovery codes, a pending set-up, the passkeys. Answers what there was, for the audit trail.
 */
export async function removeAllSecondFactors(
  db: Db,
  userId: string,
): Promise<{ totp: "none" | "pending" | "confirmed"; passkeys: number }> {
  const [removed] = await db
    .delete(userFactors)
    .where(eq(userFactors.userId, userId))
    .returning({ confirmedAt: userFactors.confirmedAt });
  const passkeys = await db
    .delete(userPasskeys)
    .where(eq(userPasskeys.userId, userId))
    .returning({ id: userPasskeys.id });
  await db.delete(passkeyChallenges).where(eq(passkeyChallenges.userId, userId));
  return { totp: removed ? (removed.confirmedAt ? "confirmed" : "pending") : "none", passkeys: passkeys.length };
}

/** Each user's second factors, for the users page: an app on, how many passkeys (users with neither are absent). */
export async function listSecondFactorsByUser(db: Db): Promise<Map<string, { totp: boolean; passkeys: number }>> {
  const [apps, passkeys] = await Promise.all([
    db.select({ userId: userFactors.userId }).from(userFactors).where(isNotNull(userFactors.confirmedAt)),
    db
      .select({ userId: userPasskeys.userId, n: sql<number>`count(*)`.mapWith(Number) })
      .from(userPasskeys)
      .groupBy(userPasskeys.userId),
  ]);
  const byUser = new Map<string, { totp: boolean; passkeys: number }>();
  for (const { userId } of apps) byUser.set(userId, { totp: true, passkeys: 0 });
  for (const { userId, n } of passkeys) byUser.set(userId, { totp: byUser.has(userId), passkeys: n });
  return byUser;
}
