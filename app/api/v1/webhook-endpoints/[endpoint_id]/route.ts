// GET /api/v1/webhook-endpoints/{endpoint_id} — one endpoint (scope webhooks:write).
// DELETE /api/v1/webhook-endpoints/{endpoint_id} — no more deliveries to it (Zapier's unsubscribe).
import { apiError } from "@/lib/api/errors";
import { withApiKey } from "@/lib/api/guard";
import { toApiEndpoint, webhookEndpointIdParamsSchema } from "@/lib/api/webhook-schemas";
import { deleteWebhookEndpoint, getWebhookEndpoint } from "@/lib/webhooks/endpoints";

export const dynamic = "force-dynamic";

const GONE = "That webhook endpoint does not exist.";

export const GET = withApiKey(
  {
    scope: "webhooks:write",
    route: "GET /api/v1/webhook-endpoints/{endpoint_id}",
    params: webhookEndpointIdParamsSchema,
  },
  async ({ db, params }) => {
    const endpoint = await getWebhookEndpoint(db, params.endpoint_id);
    return endpoint ? { status: 200, body: toApiEndpoint(endpoint) } : apiError("NOT_FOUND", GONE);
  },
);

export const DELETE = withApiKey(
  {
    scope: "webhooks:write",
    route: "DELETE /api/v1/webhook-endpoints/{endpoint_id}",
    params: webhookEndpointIdParamsSchema,
  },
  async ({ db, params }) => {
    const deleted = await deleteWebhookEndpoint(db, params.endpoint_id);
    return deleted
      ? {
          status: 200,
          body: { id: params.endpoint_id, deleted: true },
          audit: { details: { endpointId: params.endpoint_id } },
        }
      : apiError("NOT_FOUND", GONE);
  },
);
