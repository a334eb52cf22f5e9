import { z } from "zod";
import type { Db } from "@/db/types";
import type { Role } from "@/db/schema";
import { findUserByEmail } from "@/lib/users/queries";
import { DEMO_PASSWORD } from "@/lib/users/demo-users";
import { countLoginAttempt, forgetLoginAttempt } from "@/lib/security/login-throttle";
import { hashPassword, verifyPassword } from "./password";

export const credentialsSchema = z.object({
  email: z.email().max(320),
  password: z.string().min(1).max(200),
});

export type AuthenticatedUser = { id: string; email: string; name: string; role: Role };

// A password is checked even when no account matches, so that the time an answer takes does
// not tell whether the email exists. The hash is of a random string nobody can type.
let decoyHash: Promise<string> | undefined;
const decoy = () => (decoyHash ??= hashPassword(crypto.randomUUID()));

/** Checks an email and password; null for any failure, so no answer tells which part was wrong. */
export async function authenticate(
  db: Db,
  input: unknown,
  options: { demoMode: boolean },
): Promise<AuthenticatedUser | null> {
  const parsed = credentialsSchema.safeParse(input);
  if (!parsed.success) return null;
  const { email, password } = parsed.data;
  if (!options.demoMode && password === DEMO_PASSWORD) return null;

  const user = await findUserByEmail(db, email);
  const matches = await verifyPassword(password, user?.passwordHash ?? (await decoy()));
  if (!user || !user.isActive || !matches) return null;
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

export type SignInOutcome =
  | { status: "signed-in"; user: AuthenticatedUser }
  | { status: "refused" }
  /** Too many failures for this email or from this address: not even a right password gets in. */
  | { status: "throttled"; retryAfterSeconds: number };

/** The email as typed, for counting failures, whatever else is wrong with the input. */
function typedEmail(input: unknown): string | null {
  const email = input && typeof input === "object" ? (input as { email?: unknown }).email : undefined;
  return typeof email === "string" && email.trim() !== "" ? email.trim().toLowerCase().slice(0, 320) : null;
}

/**
 * Sign-in with its throttle: failures are limited per email and per client address
 * (lib/security/login-throttle.ts). Unknown and known emails are counted and answered alike.
 */
export async function signInWithPassword(
  db: Db,
  input: unknown,
  options: { demoMode: boolean; address: string },
): Promise<SignInOutcome> {
  const subject = { email: typedEmail(input), address: options.address };
  const attempt = await countLoginAttempt(db, subject);
  if (attempt.throttledFor !== null) return { status: "throttled", retryAfterSeconds: attempt.throttledFor };
  const user = await authenticate(db, input, options);
  if (user) {
    await forgetLoginAttempt(db, subject);
    return { status: "signed-in", user };
  }
  return attempt.lastBeforeWait !== null ? { status: "throttled", retryAfterSeconds: attempt.lastBeforeWait } : { status: "refused" };
}
