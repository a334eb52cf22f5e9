import "server-only";
import { createHash } from "node:crypto";
import { and, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { loginThrottles } from "@/db/schema";
import type { Db } from "@/db/types";
import { addressBucket } from "./client-address";

// Failed sign-ins slow the one who fails, never the owner of the right password elsewhere.
// Two counters, in the database so they hold across instances and restarts:
// - per client address: spraying many accounts from one place;
// - per account and address: guessing one account's password from one place.
// There is deliberately no limit per account alone: anyone could then lock any account (the
// admin's included) by failing on purpose. After a few free failures each one doubles the wait
// before the next try under that counter, up to a cap; a quiet day forgets them.
//
// An attempt is counted as a failure before the password is checked (so that a burst of
// parallel guesses cannot all slip through) and taken back when it succeeds.

export type ThrottleRule = { freeFailures: number; firstWaitSeconds: number; maxWaitSeconds: number };

export const LOGIN_THROTTLE = {
  /** Guessing one account from one address: 3 free failures, then 2 s, 4 s, 8 s … up to 15 minutes. */
  perAccountAndAddress: { freeFailures: 3, firstWaitSeconds: 2, maxWaitSeconds: 15 * 60 },
  /** Trying many accounts from one address: 10 free failures, then 2 s, 4 s … up to 15 minutes. */
  perAddress: { freeFailures: 10, firstWaitSeconds: 2, maxWaitSeconds: 15 * 60 },
  /** A counter with no failure for this long starts again from zero. */
  forgetAfterSeconds: 24 * 60 * 60,
} as const;

/** The wait after the n-th failure in a row under a rule (0 while failures are free). */
export function waitAfterFailures(failures: number, rule: ThrottleRule): number {
  if (failures < rule.freeFailures) return 0;
  return Math.min(rule.maxWaitSeconds, rule.firstWaitSeconds * 2 ** Math.min(30, failures - rule.freeFailures));
}

// Emails are hashed: the table then holds no typed addresses, and every key has one length.
const emailHash = (email: string) => createHash("sha256").update(email.trim().toLowerCase()).digest("hex");

/** Who is knocking: the email typed (null when none was) and the client's address. */
export type LoginSubject = { email: string | null; address: string };

function keysOf({ email, address }: LoginSubject): Array<[string, ThrottleRule]> {
  const bucket = addressBucket(address);
  const keys: Array<[string, ThrottleRule]> = [[`login:address:${bucket}`, LOGIN_THROTTLE.perAddress]];
  if (email) keys.push([`login:account:${emailHash(email)}:${bucket}`, LOGIN_THROTTLE.perAccountAndAddress]);
  return keys;
}

export type CountedAttempt = {
  /** Still waiting under a counter: the password must not even be checked. Seconds left, else null. */
  throttledFor: number | null;
  /** If this attempt fails, the next one must wait this long (seconds), else null. */
  waitIfFails: number | null;
};

const time = (value: Date | string | null) => (value === null ? null : new Date(value).getTime());

/** Counts one attempt against the address and the account-and-address, unless one is still waiting. */
export async function countLoginAttempt(db: Db, subject: LoginSubject): Promise<CountedAttempt> {
  const keys = keysOf(subject);
  return db
    .transaction(async (tx) => {
      await tx
        .insert(loginThrottles)
        .values(keys.map(([key]) => ({ key })))
        .onConflictDoNothing();
      // Locked in one order (by key) by every attempt, so parallel attempts queue instead of deadlocking.
      const rows = await tx
        .select({
          key: loginThrottles.key,
          failures: loginThrottles.failures,
          lastFailureAt: loginThrottles.lastFailureAt,
          blockedUntil: loginThrottles.blockedUntil,
          now: sql<Date | string>`now()`,
        })
        .from(loginThrottles)
        .where(
          inArray(
            loginThrottles.key,
            keys.map(([key]) => key),
          ),
        )
        .orderBy(loginThrottles.key)
        .for("update");
      const now = time(rows[0]?.now ?? new Date()) ?? Date.now();
      const waiting = rows.map((row) => ((time(row.blockedUntil) ?? 0) - now) / 1000).filter((seconds) => seconds > 0);
      // A turned-away attempt checks no password, so it is held against nobody.
      if (waiting.length > 0) return { throttledFor: Math.ceil(Math.max(...waiting)), waitIfFails: null };

      let waitIfFails = 0;
      for (const [key, rule] of keys) {
        const row = rows.find((r) => r.key === key);
        const stale = (time(row?.lastFailureAt ?? null) ?? 0) < now - LOGIN_THROTTLE.forgetAfterSeconds * 1000;
        const failures = (stale ? 0 : (row?.failures ?? 0)) + 1;
        const wait = waitAfterFailures(failures, rule);
        waitIfFails = Math.max(waitIfFails, wait);
        await tx
          .update(loginThrottles)
          .set({
            failures,
            lastFailureAt: sql`now()`,
            blockedUntil: wait > 0 ? sql`now() + make_interval(secs => ${wait}::double precision)` : null,
          })
          .where(eq(loginThrottles.key, key));
      }
      return { throttledFor: null, waitIfFails: waitIfFails > 0 ? waitIfFails : null };
    })
    .finally(() => sweepForgotten(db));
}

/** Counters a quiet day has forgotten are dead weight; about one attempt in fifty sweeps them. */
async function sweepForgotten(db: Db): Promise<void> {
  if (Math.random() >= 0.02) return;
  await db
    .delete(loginThrottles)
    .where(
      and(
        lt(
          loginThrottles.lastFailureAt,
          sql`now() - make_interval(secs => ${LOGIN_THROTTLE.forgetAfterSeconds}::double precision)`,
        ),
        or(isNull(loginThrottles.blockedUntil), lt(loginThrottles.blockedUntil, sql`now()`)),
      ),
    );
}

/**
 * A successful sign-in is held against no one: the account-and-address counter starts again
 * from zero (the owner got in), the address gives back the one failure counted ahead.
 */
export async function forgetLoginAttempt(db: Db, subject: LoginSubject): Promise<void> {
  const [addressKey, accountKey] = keysOf(subject).map(([key]) => key);
  await db.transaction(async (tx) => {
    if (accountKey) await tx.delete(loginThrottles).where(inArray(loginThrottles.key, [accountKey]));
    if (addressKey) {
      await tx
        .update(loginThrottles)
        .set({ failures: sql`greatest(${loginThrottles.failures} - 1, 0)`, blockedUntil: null })
        .where(eq(loginThrottles.key, addressKey));
    }
  });
}

/**
 * An attempt that was neither a failure nor a success (the right password of an account whose
 * second factor must now be asked for): the one failure counted ahead is given back on both
 * counters, and the wait it started is lifted (any earlier wait had run out, or the attempt
 * would have been turned away). The failures before it stay.
 */
export async function giveBackLoginAttempt(db: Db, subject: LoginSubject): Promise<void> {
  await db
    .update(loginThrottles)
    .set({ failures: sql`greatest(${loginThrottles.failures} - 1, 0)`, blockedUntil: null })
    .where(
      inArray(
        loginThrottles.key,
        keysOf(subject).map(([key]) => key),
      ),
    );
}
