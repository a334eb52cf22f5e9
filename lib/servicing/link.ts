import "server-only";
import { env, type Env } from "@/lib/env";
import { signedLinks, type LinkSecrets } from "@/lib/security/signed-link";

// The address of the consumer's confirm page: `/servicing/<id>.<mac>`, signed as reconnect pages
// are (lib/security/signed-link.ts), under a key of its own.

export type ServicingLinkKey = Buffer & { readonly __servicingLinkKey: true };

const links = signedLinks<ServicingLinkKey>({
  keyLabel: "coverdesk servicing-page links v1",
  macPrefix: "coverdesk-servicing-page",
});

export const servicingLinkKey = (secrets: LinkSecrets): ServicingLinkKey => links.key(secrets);

/** The key of this configuration (COVERDESK_LINK_SECRET, else derived from NEXTAUTH_SECRET). */
export function configuredServicingLinkKey(config: Env = env()): ServicingLinkKey {
  return servicingLinkKey({ sessionSecret: config.auth.secret, linkSecret: config.linkSecret });
}

/** A new request's id: also what its page's address carries. */
export const newServicingRequestId = links.newId;
export const servicingPageToken = links.token;
/** The request id a token stands for, or null when it is malformed or was not signed by us. */
export const readServicingPageToken = links.read;

/** The page's address, for staff to copy or send. */
export function servicingPageUrl(appUrl: string, key: ServicingLinkKey, id: string): string {
  return new URL(`/servicing/${servicingPageToken(key, id)}`, appUrl).toString();
}
