import "server-only";
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

// The address of a Coverdesk-hosted reconnect page: `<id>.<mac>`, where the mac is an HMAC of
// the id under the reconnect-page key. Only the id is stored, so a leaked database gives no
// working link, and staff can be shown the same link again. Rotating the key retires every link.
//
// The key is its own, derived (HKDF-SHA256, with a label of its own) from COVERDESK_LINK_SECRET,
// or from the session secret (NEXTAUTH_SECRET) when that is unset: a link never carries a MAC
// under the secret that signs sessions, and the two can be rotated apart (to change the session
// secret and keep the links, set COVERDESK_LINK_SECRET to its old value).

const ID_BYTES = 16;
const TOKEN_SHAPE = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
const KEY_LABEL = "coverdesk reconnect-page links v1";

/** The key that signs reconnect-page addresses; only reconnectPageKey makes one. */
export type ReconnectPageKey = Buffer & { readonly __reconnectPageKey: true };

export function reconnectPageKey(secrets: { sessionSecret: string; linkSecret: string | null }): ReconnectPageKey {
  return Buffer.from(
    hkdfSync("sha256", secrets.linkSecret ?? secrets.sessionSecret, "", KEY_LABEL, 32),
  ) as ReconnectPageKey;
}

function mac(key: ReconnectPageKey, id: string): string {
  return createHmac("sha256", key).update(`coverdesk-reconnect-page:${id}`).digest("base64url");
}

export function newReconnectPageId(): string {
  return randomBytes(ID_BYTES).toString("base64url");
}

export function reconnectPageToken(key: ReconnectPageKey, id: string): string {
  return `${id}.${mac(key, id)}`;
}

/** The page id a token stands for, or null when it is malformed or was not signed by us. */
export function readReconnectPageToken(key: ReconnectPageKey, token: string): string | null {
  const match = TOKEN_SHAPE.exec(token);
  if (!match?.[1] || !match[2]) return null;
  const expected = Buffer.from(mac(key, match[1]));
  const given = Buffer.from(match[2]);
  return expected.length === given.length && timingSafeEqual(expected, given) ? match[1] : null;
}
