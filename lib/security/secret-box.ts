import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { env } from "@/lib/env";

// Secrets the server must read back (a second factor's TOTP seed) are stored sealed with
// AES-256-GCM, never as is: a copy of the database alone does not give them away. The key is
// derived with HKDF-SHA256 from NEXTAUTH_SECRET under a label of its own, so it is never the
// key that signs sessions. Each sealed value names its key (`k1`), so a key ring can later add
// keys and re-seal while old values still open. The associated data binds a value to its row
// (the user id): a sealed secret copied onto another user's row does not open.

/** The key id of every value sealed today: HKDF of NEXTAUTH_SECRET, label below. */
export const CURRENT_KEY_ID = "k1";
const LABEL = "coverdesk:secret-box:v1";

function keyOf(keyId: string, sessionSecret: string): Buffer | null {
  if (keyId !== CURRENT_KEY_ID) return null;
  return Buffer.from(hkdfSync("sha256", sessionSecret, "", LABEL, 32));
}

/** `k1.<iv>.<ciphertext>.<tag>` (base64url), sealed for `context` (the row it belongs to). */
export function sealSecret(plaintext: string, context: string, sessionSecret = env().auth.secret): string {
  const key = keyOf(CURRENT_KEY_ID, sessionSecret);
  if (!key) throw new Error("no current key");
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [CURRENT_KEY_ID, iv, ciphertext, cipher.getAuthTag()]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/** The plaintext, or null when the value is malformed, names an unknown key, or was not sealed for `context` with this key. */
export function openSecret(sealed: string, context: string, sessionSecret = env().auth.secret): string | null {
  const [keyId, iv, ciphertext, tag, extra] = sealed.split(".");
  if (!keyId || iv === undefined || ciphertext === undefined || tag === undefined || extra !== undefined) return null;
  const key = keyOf(keyId, sessionSecret);
  if (!key) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
