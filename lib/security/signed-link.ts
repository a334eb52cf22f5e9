import "server-only";
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

// The addresses of the pages Coverdesk hosts for consumers (reconnect, servicing): `<id>.<mac>`,
// the mac an HMAC-SHA256 of the id. Only the id is stored, so a leaked database gives no working
// link, and staff can be shown the same link again. Each kind of link has a key of its own,
// derived (HKDF-SHA256, with the kind's label) from COVERDESK_LINK_SECRET, or from the session
// secret when that is unset: a link never carries a MAC under the secret that signs sessions, and
// a reconnect link's token never opens a servicing page, nor the other way round.

const ID_BYTES = 16;
const TOKEN_SHAPE = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

export type LinkSecrets = { sessionSecret: string; linkSecret: string | null };

/** One kind of link: `Key` is its branded key type, so one kind's key cannot sign another's. */
export function signedLinks<Key extends Buffer>(kind: { keyLabel: string; macPrefix: string }) {
  const mac = (key: Key, id: string) => createHmac("sha256", key).update(`${kind.macPrefix}:${id}`).digest("base64url");
  return {
    key: (secrets: LinkSecrets): Key =>
      Buffer.from(hkdfSync("sha256", secrets.linkSecret ?? secrets.sessionSecret, "", kind.keyLabel, 32)) as Key,
    /** A new page's id: also what its address carries. */
    newId: (): string => randomBytes(ID_BYTES).toString("base64url"),
    token: (key: Key, id: string): string => `${id}.${mac(key, id)}`,
    /** The id a token stands for, or null when it is malformed or was not signed with this key. */
    read: (key: Key, token: string): string | null => {
      const match = TOKEN_SHAPE.exec(token);
      if (!match?.[1] || !match[2]) return null;
      const expected = Buffer.from(mac(key, match[1]));
      const given = Buffer.from(match[2]);
      return expected.length === given.length && timingSafeEqual(expected, given) ? match[1] : null;
    },
  };
}
