import "server-only";
import { signedLinks, type LinkSecrets } from "@/lib/security/signed-link";

// The address of a Coverdesk-hosted reconnect page: `<id>.<mac>` (lib/security/signed-link.ts).
// Rotating the key retires every link; to change the session secret and keep the links, set
// COVERDESK_LINK_SECRET to its old value.

/** The key that signs reconnect-page addresses; only reconnectPageKey makes one. */
export type ReconnectPageKey = Buffer & { readonly __reconnectPageKey: true };

const links = signedLinks<ReconnectPageKey>({
  keyLabel: "coverdesk reconnect-page links v1",
  macPrefix: "coverdesk-reconnect-page",
});

export const reconnectPageKey = (secrets: LinkSecrets): ReconnectPageKey => links.key(secrets);
export const newReconnectPageId = links.newId;
export const reconnectPageToken = links.token;
/** The page id a token stands for, or null when it is malformed or was not signed by us. */
export const readReconnectPageToken = links.read;
