import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

// The address of a Coverdesk-hosted reconnect page: `<id>.<mac>`, where the mac is an HMAC of
// the id under the app's secret. Only the id is stored, so a leaked database gives no working
// link, and staff can be shown the same link again. Rotating the secret retires every link.

const ID_BYTES = 16;
const TOKEN_SHAPE = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

function mac(secret: string, id: string): string {
  return createHmac("sha256", secret).update(`coverdesk-reconnect-page:${id}`).digest("base64url");
}

export function newReconnectPageId(): string {
  return randomBytes(ID_BYTES).toString("base64url");
}

export function reconnectPageToken(secret: string, id: string): string {
  return `${id}.${mac(secret, id)}`;
}

/** The page id a token stands for, or null when it is malformed or was not signed by us. */
export function readReconnectPageToken(secret: string, token: string): string | null {
  const match = TOKEN_SHAPE.exec(token);
  if (!match?.[1] || !match[2]) return null;
  const expected = Buffer.from(mac(secret, match[1]));
  const given = Buffer.from(match[2]);
  return expected.length === given.length && timingSafeEqual(expected, given) ? match[1] : null;
}
