import { createHmac, timingSafeEqual } from "node:crypto";

// Webhook signatures: header `t=<unix seconds>,s=<hex>` where s = HMAC-SHA256("<t>.<raw body>"),
// keyed by the signing secret of the registration that sent it. Each registration has its own
// secret, so a delivery is checked against every secret it may have been made with.
// A bounded age stops an attacker from replaying an old, validly signed delivery for ever; the
// bound is the caller's (it must outlast the sender's retries, see lib/env.ts).

/** A signature from the future is refused beyond this much clock difference. */
export const MAX_CLOCK_SKEW_SECONDS = 300;

export type SignatureCheck = { ok: true } | { ok: false; reason: "missing" | "malformed" | "stale" | "mismatch" };

export function signPayload(secret: string, rawBody: string, timestampSeconds: number): string {
  const digest = createHmac("sha256", secret).update(`${timestampSeconds}.${rawBody}`).digest("hex");
  return `t=${timestampSeconds},s=${digest}`;
}

/** `mismatch` when no secret in `secrets` made the signature (an empty list included). */
export function verifySignature(params: {
  secrets: readonly string[];
  header: string | null;
  rawBody: string;
  nowSeconds?: number;
  maxAgeSeconds: number;
}): SignatureCheck {
  if (!params.header) return { ok: false, reason: "missing" };
  const parts = new Map<string, string>();
  for (const piece of params.header.split(",")) {
    const at = piece.indexOf("=");
    if (at > 0) parts.set(piece.slice(0, at).trim(), piece.slice(at + 1).trim());
  }
  const t = parts.get("t");
  const s = parts.get("s");
  if (!t || !s || !/^\d{1,12}$/.test(t) || !/^[0-9a-f]{64}$/i.test(s)) return { ok: false, reason: "malformed" };

  const now = params.nowSeconds ?? Math.floor(Date.now() / 1000);
  const age = now - Number(t);
  if (age > params.maxAgeSeconds || age < -MAX_CLOCK_SKEW_SECONDS) return { ok: false, reason: "stale" };

  const given = Buffer.from(s, "hex");
  const madeWith = (secret: string) => {
    const expected = createHmac("sha256", secret).update(`${t}.${params.rawBody}`).digest();
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  return params.secrets.some(madeWith) ? { ok: true } : { ok: false, reason: "mismatch" };
}
