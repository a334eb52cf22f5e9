import "server-only";
import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";

// RFC 6238 codes as every authenticator app makes them: SHA-1, 6 digits, 30-second steps.
// A code is accepted for the current step or one either side (clock drift), and only for a
// step later than the last one accepted for the user, so a code seen over someone's shoulder
// or replayed from a log is worth nothing once used (the caller keeps that step).

export const TOTP_PERIOD_SECONDS = 30;
const DIGITS = 6;
const DRIFT_STEPS = 1;
const ISSUER = "Coverdesk";

/** A new random secret (160 bits, as RFC 4226 recommends), in base32 for the app. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The time step a moment falls in. */
export const totpStep = (at: number = Date.now()): number => Math.floor(at / 1000 / TOTP_PERIOD_SECONDS);

const totpOf = (secretBase32: string, label = "") =>
  new TOTP({
    issuer: ISSUER,
    label,
    secret: Secret.fromBase32(secretBase32),
    algorithm: "SHA1",
    digits: DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });

/** The code of a step (tests compute theirs with otpauth directly, as an app would). */
export function totpCodeAt(secretBase32: string, step: number): string {
  return totpOf(secretBase32).generate({ timestamp: step * TOTP_PERIOD_SECONDS * 1000 });
}

/** Whether what was typed has the shape of an authenticator code (six digits, spaces allowed). */
export const looksLikeTotpCode = (typed: string): boolean => /^\d{6}$/.test(typed.replace(/\s/g, ""));

/**
 * The latest step within the drift window whose code is `typed` and which is later than
 * `after` (the last step used), else null.
 */
export function acceptedTotpStep(
  secretBase32: string,
  typed: string,
  options: { after: number | null; at?: number },
): number | null {
  const code = typed.replace(/\s/g, "");
  if (!looksLikeTotpCode(code)) return null;
  const now = totpStep(options.at);
  let accepted: number | null = null;
  for (let step = now - DRIFT_STEPS; step <= now + DRIFT_STEPS; step++) {
    const expected = Buffer.from(totpCodeAt(secretBase32, step));
    const matches = timingSafeEqual(expected, Buffer.from(code));
    if (matches && (options.after === null || step > options.after)) accepted = step;
  }
  return accepted;
}

/** The otpauth:// address an app reads from the QR code. */
export const totpUri = (secretBase32: string, accountName: string): string =>
  totpOf(secretBase32, accountName).toString();

/** The QR code of an otpauth:// address, as an SVG document drawn on the server. */
export const totpQrSvg = (uri: string): Promise<string> =>
  QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });

// Recovery codes: ten characters of a 31-letter alphabet without look-alikes (0/o, 1/l/i), about
// 50 bits each, shown once as `xxxxx-xxxxx`, kept as a SHA-256 of the user id and the code. The
// throttle on sign-in stands against guessing them, as it does for passwords.
const RECOVERY_LETTERS = "23456789abcdefghjkmnpqrstuvwxyz";
const RECOVERY_LENGTH = 10;

export function newRecoveryCode(): string {
  const chars = Array.from({ length: RECOVERY_LENGTH }, () => RECOVERY_LETTERS[randomInt(RECOVERY_LETTERS.length)]);
  return `${chars.slice(0, 5).join("")}-${chars.slice(5).join("")}`;
}

/** A typed recovery code as stored: lower case, without spaces or dashes; null when it cannot be one. */
export function normalizedRecoveryCode(typed: string): string | null {
  const code = typed.toLowerCase().replace(/[\s-]/g, "");
  return code.length === RECOVERY_LENGTH && [...code].every((c) => RECOVERY_LETTERS.includes(c)) ? code : null;
}

export const recoveryCodeHash = (userId: string, normalized: string): string =>
  createHash("sha256").update(`${userId}:${normalized}`).digest("hex");
