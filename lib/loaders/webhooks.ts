import "server-only";
import type { Db } from "@/db/types";
import { can } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import {
  listRecentDeliveries,
  listWebhookEndpoints,
  type WebhookDeliverySummary,
  type WebhookEndpoint,
} from "@/lib/webhooks/endpoints";

/** The admins' webhooks page: every live endpoint, each with its newest deliveries. */
export type WebhooksPage =
  { ok: true; endpoints: Array<WebhookEndpoint & { deliveries: WebhookDeliverySummary[] }> } | { ok: false };

export async function loadWebhooksPage(db: Db, user: Pick<Actor, "role"> | null): Promise<WebhooksPage> {
  if (!can(user, "webhooks:manage")) return { ok: false };
  const endpoints = await listWebhookEndpoints(db);
  const deliveries = await listRecentDeliveries(
    db,
    endpoints.map((endpoint) => endpoint.id),
    20,
  );
  return {
    ok: true,
    endpoints: endpoints.map((endpoint) => ({
      ...endpoint,
      deliveries: deliveries.filter((delivery) => delivery.endpointId === endpoint.id),
    })),
  };
}
