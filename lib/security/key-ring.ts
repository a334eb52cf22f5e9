import "server-only";
import { createCipheriv, createDecipheriv } from "node:crypto";
import { env } from "@/lib/env";
import { pooledRandomBytes } from "./random-pool";

// Envelope encryption for personal data at rest. Each value gets a random data key of its own
// (AES-256-GCM); the data key is wrapped (AES-256-GCM again) by the ring's primary key, and the
// sealed text names that key's id:
//
//   sealed:v1:<key id>:<wrapped data key>:<iv + ciphertext + tag>      (base64url)
//
// Rotating the ring re-wraps the data keys under the new primary key (`npm run keys -- rotate`):
// the values' ciphertexts need not change, and once every value names the new key the old one is
// recorded as retired and refused. The ring comes from COVERDESK_ENCRYPTION_KEYS (lib/env.ts);
// the retired ids from the database (encryption_key_retirements), loaded at start.

export const SEALED_PREFIX = "sealed:v1:";

export type RingKey = { id: string; key: Buffer };
export type KeyRing = { keys: readonly RingKey[]; retired: ReadonlySet<string> };

/** A sealed value that cannot be opened: its key is not in the ring, was retired, or it was altered. */
export class KeyRingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KeyRingError";
  }
}

const RETIRED = Symbol.for("coverdesk.key-ring.retired");
type WithRetired = typeof globalThis & { [RETIRED]?: ReadonlySet<string> };

/** The key ids retired in this database (lib/security/key-retirement.ts loads them at start). */
export function setRetiredKeyIds(ids: Iterable<string>): void {
  (globalThis as WithRetired)[RETIRED] = new Set(ids);
}

/** This process's ring: the configured keys, less nothing, and the ids the database retired. */
export function currentKeyRing(): KeyRing {
  return { keys: env().dataProtection.keys, retired: (globalThis as WithRetired)[RETIRED] ?? new Set() };
}

/** The key new values are sealed with: the first of the ring, unless it was retired. */
export function primaryKey(ring: KeyRing): RingKey {
  const primary = ring.keys[0];
  if (!primary) throw new KeyRingError("COVERDESK_ENCRYPTION_KEYS names no key.");
  if (ring.retired.has(primary.id))
    throw new KeyRingError(
      `The first key of COVERDESK_ENCRYPTION_KEYS (${primary.id}) was retired by a rotation; put a new key first.`,
    );
  return primary;
}

function keyFor(ring: KeyRing, id: string): Buffer {
  if (ring.retired.has(id))
    throw new KeyRingError(`This value is sealed under key ${id}, which was retired by a rotation: it is refused.`);
  const found = ring.keys.find((k) => k.id === id);
  if (!found)
    throw new KeyRingError(`This value is sealed under key ${id}, which COVERDESK_ENCRYPTION_KEYS does not hold.`);
  return found.key;
}

function gcmSeal(key: Buffer, plain: Buffer, aad: string): Buffer {
  const iv = pooledRandomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(aad, "utf8"));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]);
}

function gcmOpen(key: Buffer, sealed: Buffer, aad: string): Buffer {
  if (sealed.length < 28) throw new KeyRingError("A sealed value is cut short.");
  const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, 12));
  decipher.setAAD(Buffer.from(aad, "utf8"));
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]);
  } catch {
    throw new KeyRingError("A sealed value does not open: it was altered, or sealed for another record.");
  }
}

/** Whether a string is a value sealed by this module (it is then never sealed again). */
export function isSealed(value: unknown): boolean {
  return typeof value === "string" && value.startsWith(SEALED_PREFIX);
}

type Parts = { keyId: string; wrapped: Buffer; payload: Buffer };

function partsOf(sealed: string): Parts {
  const [keyId, wrapped, payload, extra] = sealed.slice(SEALED_PREFIX.length).split(":");
  if (!keyId || !wrapped || !payload || extra !== undefined) throw new KeyRingError("A sealed value is malformed.");
  return { keyId, wrapped: Buffer.from(wrapped, "base64url"), payload: Buffer.from(payload, "base64url") };
}

const wrapAad = (keyId: string) => `${SEALED_PREFIX}${keyId}`;

/** The key id a sealed value names. */
export function sealedKeyId(sealed: string): string {
  return partsOf(sealed).keyId;
}

/**
 * Seals `plain` under the ring's primary key. `context` (e.g. the row's id) is bound to the
 * ciphertext: the value opens only for the same context.
 */
export function sealValue(plain: string, ring: KeyRing = currentKeyRing(), context = ""): string {
  const primary = primaryKey(ring);
  const dataKey = pooledRandomBytes(32);
  const payload = gcmSeal(dataKey, Buffer.from(plain, "utf8"), context);
  const wrapped = gcmSeal(primary.key, dataKey, wrapAad(primary.id));
  return `${SEALED_PREFIX}${primary.id}:${wrapped.toString("base64url")}:${payload.toString("base64url")}`;
}

/** The plaintext of a sealed value; throws KeyRingError when its key is absent or retired, or it was altered. */
export function openValue(sealed: string, ring: KeyRing = currentKeyRing(), context = ""): string {
  const { keyId, wrapped, payload } = partsOf(sealed);
  const dataKey = gcmOpen(keyFor(ring, keyId), wrapped, wrapAad(keyId));
  return gcmOpen(dataKey, payload, context).toString("utf8");
}

/**
 * The same value with its data key wrapped by the primary key instead (rotation): the
 * ciphertext and what it is bound to stay as they were. A value already under the primary key is returned as is.
 */
export function rewrapValue(sealed: string, ring: KeyRing = currentKeyRing()): string {
  const primary = primaryKey(ring);
  const { keyId, wrapped, payload } = partsOf(sealed);
  if (keyId === primary.id) return sealed;
  const dataKey = gcmOpen(keyFor(ring, keyId), wrapped, wrapAad(keyId));
  const rewrapped = gcmSeal(primary.key, dataKey, wrapAad(primary.id));
  return `${SEALED_PREFIX}${primary.id}:${rewrapped.toString("base64url")}:${payload.toString("base64url")}`;
}
