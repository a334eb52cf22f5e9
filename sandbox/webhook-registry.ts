import { randomBytes, randomUUID } from "node:crypto";

// The team's webhook registrations, as the service keeps them (service-notes, "Webhooks"): each
// with its own signing secret, its own event types and an on/off switch. Registrations made
// through the API may hold only the API-settable types; the service's dashboard may switch on
// any type, for a webhook of its own or for one registered through the API. GET /webhooks lists
// both kinds alike. An event goes only to the active registrations that asked for its type.

/** Only these can be set through the API. */
export const API_SETTABLE_EVENT_TYPES = [
  "COMPLETE",
  "POLICIES_AVAILABLE",
  "POLICY_AVAILABLE",
  "AUTH_STATUS",
  "VALIDATION_COMPLETE",
] as const;

/** Switched on only on the service's dashboard. */
export const DASHBOARD_ONLY_EVENT_TYPES = [
  "ERROR",
  "MONITORING_EVENTS",
  "MONITORING_RECONNECT",
  "DATA_UPDATED",
  "SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION",
] as const;

export const ALL_EVENT_TYPES = [...API_SETTABLE_EVENT_TYPES, ...DASHBOARD_ONLY_EVENT_TYPES] as const;

export type Registration = {
  webhook_id: string;
  signing_secret: string;
  url: string;
  is_sandbox: boolean;
  is_active: boolean;
  event_types: string[];
};

export type WebhookRegistry = {
  list: () => Registration[];
  get: (webhookId: string) => Registration | undefined;
  add: (input: { url: string; eventTypes: readonly string[]; secret?: string | null }) => Registration;
  update: (webhookId: string, patch: { isActive?: boolean; eventTypes?: readonly string[] }) => void;
  remove: (webhookId: string) => void;
  /** The active registrations that asked for this event type. */
  recipients: (eventType: string) => Registration[];
};

export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString("hex")}`;
}

export function createWebhookRegistry(): WebhookRegistry {
  const registrations = new Map<string, Registration>();
  return {
    list: () => [...registrations.values()],
    get: (webhookId) => registrations.get(webhookId),
    add({ url, eventTypes, secret }) {
      const registration: Registration = {
        webhook_id: randomUUID(),
        signing_secret: secret || newSigningSecret(),
        url,
        is_sandbox: true,
        is_active: true,
        event_types: [...new Set(eventTypes)],
      };
      registrations.set(registration.webhook_id, registration);
      return registration;
    },
    update(webhookId, patch) {
      const registration = registrations.get(webhookId);
      if (!registration) return;
      registrations.set(webhookId, {
        ...registration,
        is_active: patch.isActive ?? registration.is_active,
        event_types: patch.eventTypes ? [...new Set(patch.eventTypes)] : registration.event_types,
      });
    },
    remove: (webhookId) => void registrations.delete(webhookId),
    recipients: (eventType) =>
      [...registrations.values()].filter((r) => r.is_active && r.event_types.includes(eventType)),
  };
}
