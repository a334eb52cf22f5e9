import { z } from "zod";
import { serviceRequest, type ServiceConfig } from "./client";
import { readAnswer } from "./read-answer";
import { WEBHOOK_EVENT_TYPES, webhookListResponseSchema, webhookRegistrationSchema, type WebhookRegistration } from "./schemas";

// Registering where the service sends its webhooks (service-notes, "Webhooks"). The signing
// secret comes back once, from the registration: the caller must store it as SERVICE_WEBHOOK_SECRET.

const registrationSchema = z.object({
  hookUrl: z.url({ protocol: /^https?$/ }),
  eventTypes: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1),
});
const idSchema = z.string().min(1).max(100);
const path = (webhookId: string) => `/webhooks/${encodeURIComponent(idSchema.parse(webhookId))}`;

export async function listWebhooks(config: ServiceConfig): Promise<WebhookRegistration[]> {
  const response = await serviceRequest(config, { method: "GET", path: "/webhooks", teamScoped: true, idempotent: true });
  return readAnswer(webhookListResponseSchema, response, "GET /webhooks").value;
}

export async function registerWebhook(config: ServiceConfig, input: z.input<typeof registrationSchema>): Promise<WebhookRegistration> {
  const body = registrationSchema.parse(input);
  const response = await serviceRequest(config, { method: "POST", path: "/webhooks", teamScoped: true, idempotent: false, body });
  return readAnswer(webhookRegistrationSchema, response, "POST /webhooks").value;
}

export async function updateWebhook(config: ServiceConfig, webhookId: string, patch: Partial<z.input<typeof registrationSchema>>): Promise<void> {
  const body = registrationSchema.partial().parse(patch);
  // Any 2xx confirms; the answer's body is not documented.
  await serviceRequest(config, { method: "PATCH", path: path(webhookId), teamScoped: true, idempotent: true, body });
}

export async function deleteWebhook(config: ServiceConfig, webhookId: string): Promise<void> {
  await serviceRequest(config, { method: "DELETE", path: path(webhookId), teamScoped: true, idempotent: true });
}
