import "server-only";
import type { Db } from "@/db/types";
import type { Env } from "@/lib/env";
import { checksWebhookSignatures, teamSigningSecrets } from "@/lib/service/webhook-signing-secrets";
import { getServiceConnection, type ServiceConnection } from "@/lib/service-connection/overview";

/** The Service connection page: the overview for this app's own address, and whether that address is registered. */
export async function loadServiceConnectionPage(
  db: Db,
  config: Pick<Env, "nodeEnv" | "service" | "auth">,
): Promise<{ view: ServiceConnection; registered: boolean }> {
  const view = await getServiceConnection(db, config.service, {
    appUrl: config.auth.url,
    checksSignatures: checksWebhookSignatures(config),
    signingSecrets: teamSigningSecrets(config.service),
  });
  return { view, registered: view.webhooks.ok && view.webhooks.value.some((hook) => hook.ours) };
}
