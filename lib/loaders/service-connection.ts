import "server-only";
import type { Db } from "@/db/types";
import type { Env } from "@/lib/env";
import { getReplicaLag, type ReplicaLag } from "@/lib/replicas/replica-lag";
import type { ReplicaSet } from "@/lib/replicas/replica-set";
import { checksWebhookSignatures, teamSigningSecrets } from "@/lib/service/webhook-signing-secrets";
import { getServiceConnection, type ServiceConnection } from "@/lib/service-connection/overview";

/**
 * The Service connection page: the overview for this app's own address, whether that address is
 * registered, and how far behind the primary each database replica is (none without replicas).
 */
export async function loadServiceConnectionPage(
  db: Db,
  config: Pick<Env, "nodeEnv" | "service" | "auth">,
  replicas: ReplicaSet | null = null,
): Promise<{ view: ServiceConnection; registered: boolean; replicas: ReplicaLag[] }> {
  const [view, lag] = await Promise.all([
    getServiceConnection(db, config.service, {
      appUrl: config.auth.url,
      checksSignatures: checksWebhookSignatures(config),
      signingSecrets: teamSigningSecrets(config.service),
    }),
    replicas ? getReplicaLag(db, replicas) : [],
  ]);
  return { view, registered: view.webhooks.ok && view.webhooks.value.some((hook) => hook.ours), replicas: lag };
}
