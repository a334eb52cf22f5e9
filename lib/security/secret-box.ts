import "server-only";
import { createDecipheriv, hkdfSync } from "node:crypto";
import { env } from "@/lib/env";
import { currentKeyRing, isSealed, KeyRingError, openValue, sealValue, type KeyRing } from "./key-ring";

// Secrets the server must read back (a second factor's TOTP seed) are stored sealed, never as
// is: a copy of the database alone does not give them away. They are sealed on the key ring
// (key-ring.ts: a data key of their own, wrapped by COVERDESK_ENCRYPTION_KEYS' primary key), so
// they rotate with everything else. The associated data binds a value to its row (the user id):
// a sealed secret copied onto another user's row does not open.
//
// Before the ring, seeds were sealed as `k1.<iv>.<ciphertext>.<tag>` with a key derived (HKDF)
// from NEXTAUTH_SECRET; those still open, and `npm run keys -- rotate` seals them on the ring.

const LEGACY_KEY_ID = "k1";
const LEGACY_LABEL = "coverdesk:secret-box:v1";

/** `sealed:v1:…` (key-ring.ts), sealed for `context` (the row it belongs to). */
export function sealSecret(plaintext: string, context: string, ring: KeyRing = currentKeyRing()): string {
  return sealValue(plaintext, ring, context);
}

/** The plaintext, or null when the value is malformed, names an unknown or retired key, or was not sealed for `context`. */
export function openSecret(
  sealed: string,
  context: string,
  sessionSecret = env().auth.secret,
  ring: KeyRing = currentKeyRing(),
): string | null {
  if (isSealed(sealed)) {
    try {
      return openValue(sealed, ring, context);
    } catch (error) {
      if (error instanceof KeyRingError) return null;
      throw error;
    }
  }
  return openLegacySecret(sealed, context, sessionSecret);
}

/** A seed sealed before the ring (`k1.`), with the key derived from NEXTAUTH_SECRET. */
function openLegacySecret(sealed: string, context: string, sessionSecret: string): string | null {
  const [keyId, iv, ciphertext, tag, extra] = sealed.split(".");
  if (
    keyId !== LEGACY_KEY_ID ||
    iv === undefined ||
    ciphertext === undefined ||
    tag === undefined ||
    extra !== undefined
  )
    return null;
  const key = Buffer.from(hkdfSync("sha256", sessionSecret, "", LEGACY_LABEL, 32));
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
