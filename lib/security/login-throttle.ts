import "server-only";
import { createHash } from "node:crypto";
import type { Db } from "@/db/types";
import { addressBucket } from "./client-address";
import { hitRateLimit, releaseRateLimitHit, type RateLimit } from "./rate-limit";

// Failed sign-ins are limited per email and per client address in the database limiter, so a
// password cannot be guessed faster than this from any number of app instances. An attempt is
// counted before the password is checked (so that a burst of parallel guesses cannot all slip
// under the limit) and taken back when it succeeds: only failures count.

export const LOGIN_LIMITS = {
  /** Guessing one account's password: 5 failures per 15 minutes. */
  perEmail: { limit: 5, windowSeconds: 15 * 60 },
  /** Spraying many accounts from one address: 20 failures per 15 minutes. */
  perAddress: { limit: 20, windowSeconds: 15 * 60 },
} as const satisfies Record<string, RateLimit>;

// Emails are hashed: the table then holds no typed addresses, and every key has one length.
const emailKey = (email: string) => `login:email:${createHash("sha256").update(email.trim().toLowerCase()).digest("hex")}`;
const addressKey = (address: string) => `login:address:${addressBucket(address)}`;

/** Who is knocking: the email typed (null when none was) and the client's address. */
export type LoginSubject = { email: string | null; address: string };

function keysOf({ email, address }: LoginSubject): Array<[string, RateLimit]> {
  const keys: Array<[string, RateLimit]> = [[addressKey(address), LOGIN_LIMITS.perAddress]];
  if (email) keys.push([emailKey(email), LOGIN_LIMITS.perEmail]);
  return keys;
}

export type CountedAttempt = {
  /** Past a limit already: the password must not even be checked. Seconds to wait, else null. */
  throttledFor: number | null;
  /** This attempt is the last one a limit allows: if it fails, the next ones wait this long. */
  lastBeforeWait: number | null;
};

/** Counts one attempt against the email and the address. */
export async function countLoginAttempt(db: Db, subject: LoginSubject): Promise<CountedAttempt> {
  let throttledFor: number | null = null;
  let lastBeforeWait: number | null = null;
  for (const [key, rule] of keysOf(subject)) {
    const decision = await hitRateLimit(db, key, rule);
    if (!decision.allowed) throttledFor = Math.max(throttledFor ?? 0, decision.retryAfterSeconds);
    else if (decision.hits >= rule.limit) lastBeforeWait = Math.max(lastBeforeWait ?? 0, decision.retryAfterSeconds);
  }
  // A turned-away attempt checks no password, so it is held against nobody: an address over its
  // limit must not use up the tries of the accounts it names.
  if (throttledFor !== null) await forgetLoginAttempt(db, subject);
  return { throttledFor, lastBeforeWait };
}

/** A successful sign-in is not held against anyone. */
export async function forgetLoginAttempt(db: Db, subject: LoginSubject): Promise<void> {
  for (const [key, rule] of keysOf(subject)) await releaseRateLimitHit(db, key, rule);
}
