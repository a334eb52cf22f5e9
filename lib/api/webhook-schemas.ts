import { z } from "zod";
import { WEBHOOK_EVENTS } from "@/lib/webhooks/events";

// The public shapes of /api/v1/webhook-endpoints (see ./schemas.ts for the pulls'), parsed by
// the handlers and written into the OpenAPI document.

export const webhookEndpointIdParamsSchema = z.object({
  endpoint_id: z
    .uuid()
    .meta({ description: "The endpoint's id (a UUID).", param: { name: "endpoint_id", in: "path" } }),
});

export const webhookEndpointCreateSchema = z
  .strictObject({
    url: z
      .url({ protocol: /^https?$/, message: "url must be an https URL." })
      .max(2000, "url must be under 2000 characters.")
      .meta({ description: "Where to POST the events: https, a public address, no redirect." }),
    events: z
      .array(z.enum(WEBHOOK_EVENTS, { message: `events are ${WEBHOOK_EVENTS.join(", ")}.` }))
      .min(1, "Name at least one event.")
      .max(WEBHOOK_EVENTS.length)
      .meta({ description: `The events to receive: ${WEBHOOK_EVENTS.join(", ")}.` }),
  })
  .meta({ id: "WebhookEndpointCreate" });

export const webhookEndpointSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    created_at: z.string().meta({ description: "ISO 8601." }),
    disabled_at: z
      .string()
      .nullable()
      .meta({ description: "When deliveries stopped (the endpoint answered 410 Gone), or null." }),
    disabled_reason: z.string().nullable(),
  })
  .meta({ id: "WebhookEndpoint" });

export const webhookEndpointCreatedSchema = webhookEndpointSchema
  .extend({
    secret: z.string().nullable().meta({
      description:
        "`whsec_…`: the Standard Webhooks signing secret of this endpoint. Shown only now; keep it to verify `webhook-signature`. Null in the replay to a retry with the same Idempotency-Key (the secret is never kept in the clear): rotate the secret to get a new one.",
    }),
  })
  .meta({ id: "WebhookEndpointCreated" });

export const webhookEndpointListSchema = z
  .object({ data: z.array(webhookEndpointSchema) })
  .meta({ id: "WebhookEndpointList" });

export const webhookSecretRotatedSchema = z
  .object({
    secret: z.string().meta({ description: "The new `whsec_…` secret. Shown only now." }),
    previous_secret_expires_at: z
      .string()
      .meta({ description: "Until then each delivery carries a signature with the old secret too (ISO 8601)." }),
  })
  .meta({ id: "WebhookSecretRotated" });

export const toApiEndpoint = (endpoint: {
  id: string;
  url: string;
  events: string[];
  createdAt: Date;
  disabledAt: Date | null;
  disabledReason: string | null;
}): z.output<typeof webhookEndpointSchema> => ({
  id: endpoint.id,
  url: endpoint.url,
  events: endpoint.events.filter((event): event is (typeof WEBHOOK_EVENTS)[number] =>
    (WEBHOOK_EVENTS as readonly string[]).includes(event),
  ),
  created_at: endpoint.createdAt.toISOString(),
  disabled_at: endpoint.disabledAt?.toISOString() ?? null,
  disabled_reason: endpoint.disabledReason,
});
