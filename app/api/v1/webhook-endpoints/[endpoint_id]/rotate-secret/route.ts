// POST /api/v1/webhook-endpoints/{endpoint_id}/rotate-secret — a new signing secret; the old one
// signs beside it for 24 hours (scope webhooks:write).
import { apiError } from "@/lib/api/errors";
import { withApiKey } from "@/lib/api/guard";
import { webhookEndpointIdParamsSchema } from "@/lib/api/webhook-schemas";
import { rotateWebhookSecret } from "@/lib/webhooks/endpoints";

export const dynamic = "force-dynamic";

export const POST = withApiKey(
  {
    scope: "webhooks:write",
    route: "POST /api/v1/webhook-endpoints/{endpoint_id}/rotate-secret",
    params: webhookEndpointIdParamsSchema,
  },
  async ({ db, params }) => {
    const rotated = await rotateWebhookSecret(db, params.endpoint_id);
    if (!rotated) return apiError("NOT_FOUND", "That webhook endpoint does not exist.");
    return {
      status: 200,
      body: { secret: rotated.secret, previous_secret_expires_at: rotated.previousSecretExpiresAt.toISOString() },
      audit: { details: { endpointId: params.endpoint_id, rotated: true } },
    };
  },
);
