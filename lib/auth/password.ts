import "server-only";
import bcrypt from "bcryptjs";

// bcrypt with cost 10: about 60 ms per check on these machines, slow enough for offline attacks.
const COST = 10;

/**
 * bcrypt reads only the first 72 bytes of a password and silently ignores the rest, so a longer
 * one would be cut without anyone knowing (and any text sharing its first 72 bytes would match).
 * Such passwords are refused where a password is set, rather than pre-hashed: existing hashes
 * stay valid, and 72 bytes is far more than a 12-character minimum needs.
 */
export const MAX_PASSWORD_BYTES = 72;
export const PASSWORD_TOO_LONG_MESSAGE = `Use a password of at most ${MAX_PASSWORD_BYTES} bytes (${MAX_PASSWORD_BYTES} plain letters or digits; accented letters and symbols take 2 to 4 bytes each): longer ones would be cut without notice.`;

export function passwordFitsBcrypt(password: string): boolean {
  return Buffer.byteLength(password, "utf8") <= MAX_PASSWORD_BYTES;
}

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}
