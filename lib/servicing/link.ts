import "server-only";
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { env, type Env } from "@/lib/env";

// The address of the consumer's confirm page: `/servicing/<id>.<mac>`, the mac an HMAC of the
// request's id, as reconnect pages are made (lib/monitoring/reconnect-page-token.ts). Only the id
// is stored, so a leaked database gives no working link. The key is derived with a label of its
// own, so a reconnect link's token never opens a servicing page, nor the other way round.

const ID_BYTES = 16;
const TOKEN_SHAPE = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
const KEY_LABEL = "coverdesk servicing-page links v1";

export type ServicingLinkKey = Buffer & { readonly __servicingLinkKey: true };

export function servicingLinkKey(secrets: { sessionSecret: string; linkSecret: string | null }): ServicingLinkKey {
  return Buffer.from(
    hkdfSync("sha256", secrets.linkSecret ?? secrets.sessionSecret, "", KEY_LABEL, 32),
  ) as ServicingLinkKey;
}

/** The key of this configuration (COVERDESK_LINK_SECRET, else derived from NEXTAUTH_SECRET). */
export function configuredServicingLinkKey(config: Env = env()): ServicingLinkKey {
  return servicingLinkKey({ sessionSecret: config.auth.secret, linkSecret: config.linkSecret });
}

const mac = (key: ServicingLinkKey, id: string) =>
  createHmac("sha256", key).update(`coverdesk-servicing-page:${id}`).digest("base64url");

/** A new request's id: also what its page's address carries. */
export function newServicingRequestId(): string {
  return randomBytes(ID_BYTES).toString("base64url");
}

export function servicingPageToken(key: ServicingLinkKey, id: string): string {
  return `${id}.${mac(key, id)}`;
}

/** The request id a token stands for, or null when it is malformed or was not signed by us. */
export function readServicingPageToken(key: ServicingLinkKey, token: string): string | null {
  const match = TOKEN_SHAPE.exec(token);
  if (!match?.[1] || !match[2]) return null;
  const expected = Buffer.from(mac(key, match[1]));
  const given = Buffer.from(match[2]);
  return expected.length === given.length && timingSafeEqual(expected, given) ? match[1] : null;
}

/** The page's address, for staff to copy or send. */
export function servicingPageUrl(appUrl: string, key: ServicingLinkKey, id: string): string {
  return new URL(`/servicing/${servicingPageToken(key, id)}`, appUrl).toString();
}
