import "server-only";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { passkeyChallenges, userPasskeys, users } from "@/db/schema";
import type { Db } from "@/db/types";
import { recordAudit } from "@/lib/audit/audit-log";
import type { Actor } from "@/lib/core/actor";
import { invalid, notFound, stale, type CommandResult } from "@/lib/core/result";
import { env } from "@/lib/env";
import { PASSKEY_REFUSED_MESSAGE } from "@/lib/security/sign-in-errors";
import { hitFactorChangeLimit } from "./second-factor";

// Passkeys (WebAuthn) as a second factor beside the authenticator app: a user registers one on
// /account/security, and sign-in's second step takes it instead of a code. The relying party is
// this app: its ID is the public URL's host name and the only origin accepted is that URL's own
// (NEXTAUTH_URL), so a passkey made for Coverdesk signs nothing for another site. Every
// ceremony signs a challenge the server made for that user and that purpose, which is used up
// by the first answer and lapses after five minutes: an answer cannot be replayed. Where the
// authenticator keeps a signature counter, a sign-in must carry a higher one than the last,
// checked again in the update that stores it, so a cloned key gives itself away.

const RP_NAME = "Coverdesk";
const CHALLENGE_MINUTES = 5;
/** A browser's answer is a few kilobytes at most; anything larger is not one. */
const MAX_RESPONSE_CHARS = 16_000;
const TRANSPORTS: readonly AuthenticatorTransportFuture[] = [
  "ble",
  "cable",
  "hybrid",
  "internal",
  "nfc",
  "smart-card",
  "usb",
];

/** The answer to "options for a new passkey" (a server action's), for the form that makes one. */
export type PasskeyOptionsAnswer =
  { ok: true; options: PublicKeyCredentialCreationOptionsJSON } | { ok: false; message: string };

/** Who the passkeys are for: this app's host name (RP ID) and origin, from its public URL. */
export type RelyingParty = { id: string; origin: string };

export function relyingParty(publicUrl: string = env().auth.url): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin };
}

export type PasskeySummary = { id: string; name: string; createdAt: Date; lastUsedAt: Date | null };

/** A user's passkeys, newest first, for their security page. */
export async function listPasskeys(db: Db, userId: string): Promise<PasskeySummary[]> {
  return db
    .select({
      id: userPasskeys.id,
      name: userPasskeys.name,
      createdAt: userPasskeys.createdAt,
      lastUsedAt: userPasskeys.lastUsedAt,
    })
    .from(userPasskeys)
    .where(eq(userPasskeys.userId, userId))
    .orderBy(sql`${userPasskeys.createdAt} desc`);
}

const transportsOf = (stored: string[]): AuthenticatorTransportFuture[] =>
  stored.filter((t): t is AuthenticatorTransportFuture => (TRANSPORTS as readonly string[]).includes(t));

type Purpose = "REGISTRATION" | "SIGN_IN";

async function keepChallenge(db: Db, userId: string, purpose: Purpose, challenge: string): Promise<void> {
  // A user's lapsed challenges go as new ones come.
  await db
    .delete(passkeyChallenges)
    .where(and(eq(passkeyChallenges.userId, userId), lt(passkeyChallenges.expiresAt, sql`now()`)));
  await db.insert(passkeyChallenges).values({
    challenge,
    userId,
    purpose,
    expiresAt: sql`now() + make_interval(mins => ${CHALLENGE_MINUTES})`,
  });
}

/** The challenge the browser signed (from its client data), if it is one of ours for this user and purpose, used up now. */
async function spendChallenge(
  db: Db,
  userId: string,
  purpose: Purpose,
  clientDataJSON: string,
): Promise<string | null> {
  let challenge: unknown;
  try {
    challenge = (JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")) as { challenge?: unknown })
      .challenge;
  } catch {
    return null;
  }
  if (typeof challenge !== "string" || challenge.length === 0 || challenge.length > 200) return null;
  const [spent] = await db
    .delete(passkeyChallenges)
    .where(
      and(
        eq(passkeyChallenges.challenge, challenge),
        eq(passkeyChallenges.userId, userId),
        eq(passkeyChallenges.purpose, purpose),
        gt(passkeyChallenges.expiresAt, sql`now()`),
      ),
    )
    .returning({ challenge: passkeyChallenges.challenge });
  return spent?.challenge ?? null;
}

/** A browser's answer as sent (JSON text), read loosely: the library checks every part of it. */
const responseShape = z.object({
  id: z.string().min(1).max(1_000),
  rawId: z.string().min(1).max(1_000),
  type: z.literal("public-key"),
  response: z.object({ clientDataJSON: z.string().min(1).max(MAX_RESPONSE_CHARS) }).loose(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
});

function parseResponse(text: string): z.infer<typeof responseShape> | null {
  if (text.length > MAX_RESPONSE_CHARS) return null;
  try {
    const parsed = responseShape.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** What the browser needs to make a passkey for the user (none of their existing ones again). */
export async function startPasskeyRegistration(
  db: Db,
  actor: Actor,
  rp: RelyingParty = relyingParty(),
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const [user] = await db.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, actor.id));
  const existing = await db
    .select({ credentialId: userPasskeys.credentialId, transports: userPasskeys.transports })
    .from(userPasskeys)
    .where(eq(userPasskeys.userId, actor.id));
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.id,
    userName: user?.email ?? actor.id,
    userDisplayName: user?.name ?? actor.name,
    // The user handle: the user's id, so a passkey names no email.
    userID: new TextEncoder().encode(actor.id),
    attestationType: "none",
    excludeCredentials: existing.map((e) => ({ id: e.credentialId, transports: transportsOf(e.transports) })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  });
  await keepChallenge(db, actor.id, "REGISTRATION", options.challenge);
  return options;
}

export const NAME_MESSAGE = "Name the passkey (up to 60 characters), so you can tell it from others.";

export const registerPasskeyInputSchema = z.object({
  name: z.string(NAME_MESSAGE).trim().min(1, NAME_MESSAGE).max(60, NAME_MESSAGE),
  /** The browser's answer (RegistrationResponseJSON), as JSON text. */
  response: z.string("The browser sent no passkey. Try again.").min(1).max(MAX_RESPONSE_CHARS),
});

/** Stores the passkey the browser made, once its answer verifies against the user's challenge (audited). */
export async function registerPasskey(
  db: Db,
  actor: Actor,
  input: z.input<typeof registerPasskeyInputSchema>,
  rp: RelyingParty = relyingParty(),
): Promise<CommandResult<{ passkeyId: string }>> {
  const parsed = registerPasskeyInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return invalid(issue?.message ?? NAME_MESSAGE, issue?.path[0]?.toString());
  }
  const limited = await hitFactorChangeLimit(db, actor.id);
  if (!limited.ok) return limited;
  const response = parseResponse(parsed.data.response) as RegistrationResponseJSON | null;
  if (!response) return invalid(PASSKEY_REFUSED_MESSAGE, "response");
  const challenge = await spendChallenge(db, actor.id, "REGISTRATION", response.response.clientDataJSON);
  if (!challenge) return stale("That request lapsed. Add the passkey again.");
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch {
    return invalid(PASSKEY_REFUSED_MESSAGE, "response");
  }
  if (!verified.verified || !verified.registrationInfo) return invalid(PASSKEY_REFUSED_MESSAGE, "response");
  const { credential } = verified.registrationInfo;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(userPasskeys)
      .values({
        userId: actor.id,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString("base64url"),
        counter: credential.counter,
        transports: transportsOf(credential.transports ?? response.response.transports ?? []),
        name: parsed.data.name,
      })
      .onConflictDoNothing()
      .returning({ id: userPasskeys.id });
    if (!row) return invalid("That passkey is registered already.", "response");
    await recordAudit(tx, actor, "PASSKEY_ADDED", { subjectUserId: actor.id, details: { name: parsed.data.name } });
    return { ok: true as const, passkeyId: row.id };
  });
}

export const removePasskeyInputSchema = z.object({ passkeyId: z.uuid("Unknown passkey.") });

/** Removes one of the user's own passkeys (audited); another's is as good as absent. */
export async function removePasskey(
  db: Db,
  actor: Actor,
  input: z.input<typeof removePasskeyInputSchema>,
): Promise<CommandResult> {
  const parsed = removePasskeyInputSchema.safeParse(input);
  if (!parsed.success) return invalid("Unknown passkey.", "passkeyId");
  return db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(userPasskeys)
      .where(and(eq(userPasskeys.id, parsed.data.passkeyId), eq(userPasskeys.userId, actor.id)))
      .returning({ name: userPasskeys.name });
    if (!removed) return notFound("That passkey");
    await recordAudit(tx, actor, "PASSKEY_REMOVED", { subjectUserId: actor.id, details: { name: removed.name } });
    return { ok: true as const };
  });
}

/** What the browser needs to sign in with one of the user's passkeys; null when they have none. */
export async function startPasskeySignIn(
  db: Db,
  userId: string,
  rp: RelyingParty = relyingParty(),
): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
  const passkeys = await db
    .select({ credentialId: userPasskeys.credentialId, transports: userPasskeys.transports })
    .from(userPasskeys)
    .where(eq(userPasskeys.userId, userId));
  if (passkeys.length === 0) return null;
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: transportsOf(p.transports) })),
    userVerification: "preferred",
  });
  await keepChallenge(db, userId, "SIGN_IN", options.challenge);
  return options;
}

/**
 * Checks a sign-in's passkey answer (JSON text) for the user: one of their passkeys, signing the
 * challenge made for them, from this app's origin, with a counter past the last one. Uses the
 * challenge up and stores the new counter, whether or not the rest holds for the challenge.
 */
export async function spendPasskeySignIn(
  db: Db,
  userId: string,
  text: string,
  rp: RelyingParty = relyingParty(),
): Promise<{ ok: true; passkeyName: string } | { ok: false }> {
  const response = parseResponse(text) as AuthenticationResponseJSON | null;
  if (!response) return { ok: false };
  const [passkey] = await db
    .select()
    .from(userPasskeys)
    .where(and(eq(userPasskeys.userId, userId), eq(userPasskeys.credentialId, response.id)));
  if (!passkey) return { ok: false };
  const challenge = await spendChallenge(db, userId, "SIGN_IN", response.response.clientDataJSON);
  if (!challenge) return { ok: false };
  let newCounter: number;
  try {
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, "base64url")),
        counter: passkey.counter,
        transports: transportsOf(passkey.transports),
      },
      requireUserVerification: false,
    });
    if (!verified.verified) return { ok: false };
    newCounter = verified.authenticationInfo.newCounter;
  } catch {
    // A wrong signature, origin or RP ID, or a counter that did not grow.
    return { ok: false };
  }
  // The counter checked above, again where it is stored: two sign-ins racing with one counter value cannot both pass.
  const [used] = await db
    .update(userPasskeys)
    .set({ counter: newCounter, lastUsedAt: sql`now()` })
    .where(
      and(
        eq(userPasskeys.id, passkey.id),
        // An authenticator that keeps no counter sends 0 every time; one that does must go up.
        newCounter === 0 ? eq(userPasskeys.counter, 0) : lt(userPasskeys.counter, newCounter),
      ),
    )
    .returning({ id: userPasskeys.id });
  return used ? { ok: true, passkeyName: passkey.name } : { ok: false };
}
