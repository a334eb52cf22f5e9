import "server-only";
import { z } from "zod";
import { serviceRequest, type ServiceConfig } from "./client";
import { ServiceError } from "./errors";
import { readAnswer } from "./read-answer";
import {
  API_SETTABLE_WEBHOOK_EVENT_TYPES,
  successResponseSchema,
  webhookCreatedResponseSchema,
  webhookListResponseSchema,
  type WebhookCreatedResponse,
  type WebhookRegistration,
} from "./schemas";

// Registering where the service sends its webhooks (service-notes, "Webhooks"). The bodies are
// camelCase, the answers snake_case. Only the API-settable event types can be named here: the
// others are enabled on the service's dashboard, so asking for them is refused before any call.

const eventTypes = z
  .array(z.string())
  .min(1, "Name at least one event type.")
  .superRefine((types, ctx) => {
    const other = types.filter((t) => !(API_SETTABLE_WEBHOOK_EVENT_TYPES as readonly string[]).includes(t));
    if (other.length > 0)
      ctx.addIssue({
        code: "custom",
        message: `${other.join(", ")} cannot be set through the API (only ${API_SETTABLE_WEBHOOK_EVENT_TYPES.join(", ")}); enable it on the service's dashboard.`,
      });
  })
  .transform((types) => [...new Set(types)]);
const registrationSchema = z.object({ hookUrl: z.url({ protocol: /^https?$/ }), eventTypes });
const updateSchema = z
  .object({ isActive: z.boolean().optional(), eventTypes: eventTypes.optional() })
  .refine(
    (patch) => patch.isActive !== undefined || patch.eventTypes !== undefined,
    "Give isActive, eventTypes or both.",
  );
const idSchema = z.string().min(1).max(100);
const path = (webhookId: string) => `/webhooks/${encodeURIComponent(idSchema.parse(webhookId))}`;

export type WebhookRegistrationInput = z.input<typeof registrationSchema>;
export type WebhookUpdate = z.input<typeof updateSchema>;

export async function listWebhooks(config: ServiceConfig): Promise<WebhookRegistration[]> {
  const response = await serviceRequest(config, {
    method: "GET",
    path: "/webhooks",
    teamScoped: true,
    idempotent: true,
  });
  return readAnswer(webhookListResponseSchema, response, "GET /webhooks").value;
}

/** The signing secret comes back here and in GET /webhooks, where the receiver reads it (./webhook-signing-secrets.ts). */
export async function registerWebhook(
  config: ServiceConfig,
  input: WebhookRegistrationInput,
): Promise<WebhookCreatedResponse> {
  const body = registrationSchema.parse(input);
  const response = await serviceRequest(config, {
    method: "POST",
    path: "/webhooks",
    teamScoped: true,
    idempotent: false,
    body,
  });
  return readAnswer(webhookCreatedResponseSchema, response, "POST /webhooks").value;
}

/** `{ success: true }` confirms; an answer that says `success: false` is not taken as done. */
function confirm(response: Awaited<ReturnType<typeof serviceRequest>>, label: string): void {
  const { value } = readAnswer(successResponseSchema, response, label);
  if (value.success === false)
    throw new ServiceError({
      status: response.status,
      code: "NOT_CONFIRMED",
      message: `${label}: the service answered success: false`,
      retryable: false,
    });
}

export async function updateWebhook(config: ServiceConfig, webhookId: string, patch: WebhookUpdate): Promise<void> {
  const body = updateSchema.parse(patch);
  const response = await serviceRequest(config, {
    method: "PATCH",
    path: path(webhookId),
    teamScoped: true,
    idempotent: true,
    body,
  });
  confirm(response, "PATCH /webhooks/:id");
}

export async function deleteWebhook(config: ServiceConfig, webhookId: string): Promise<void> {
  const response = await serviceRequest(config, {
    method: "DELETE",
    path: path(webhookId),
    teamScoped: true,
    idempotent: true,
  });
  confirm(response, "DELETE /webhooks/:id");
}
