// POST /api/v1/webhook-endpoints — register an endpoint for outgoing webhooks; its secret is in the answer, once.
// GET /api/v1/webhook-endpoints — the endpoints registered (scope webhooks:write for both).
import { apiError } from "@/lib/api/errors";
import { withApiKey } from "@/lib/api/guard";
import { toApiEndpoint, webhookEndpointCreateSchema } from "@/lib/api/webhook-schemas";
import { env } from "@/lib/env";
import { createWebhookEndpoint, listWebhookEndpoints, webhookUrlPolicy } from "@/lib/webhooks/endpoints";

export const dynamic = "force-dynamic";

export const POST = withApiKey(
  { scope: "webhooks:write", route: "POST /api/v1/webhook-endpoints", body: webhookEndpointCreateSchema },
  async ({ db, key, body }) => {
    const made = await createWebhookEndpoint(
      db,
      body,
      { name: `API key: ${key.name}` },
      webhookUrlPolicy(env().nodeEnv),
    );
    if (!made.ok) return apiError("INVALID", made.message, made.field);
    const endpoint = toApiEndpoint(made);
    return {
      status: 201,
      body: { ...endpoint, secret: made.secret },
      // A retry with the same Idempotency-Key gets the endpoint without its secret: the secret is
      // never kept in the clear (rotate-secret gives a new one).
      replay: { status: 201, body: { ...endpoint, secret: null } },
      audit: { details: { endpointId: made.id, url: made.url, events: made.events } },
    };
  },
);

export const GET = withApiKey({ scope: "webhooks:write", route: "GET /api/v1/webhook-endpoints" }, async ({ db }) => {
  const endpoints = await listWebhookEndpoints(db);
  return { status: 200, body: { data: endpoints.map(toApiEndpoint) } };
});
