import "server-only";
import { env, type Env } from "@/lib/env";
import { reconnectPageKey, type ReconnectPageKey } from "./reconnect-page-token";

/** The reconnect-page key of this configuration (COVERDESK_LINK_SECRET, else derived from NEXTAUTH_SECRET). */
export function configuredReconnectPageKey(config: Env = env()): ReconnectPageKey {
  return reconnectPageKey({ sessionSecret: config.auth.secret, linkSecret: config.linkSecret });
}
