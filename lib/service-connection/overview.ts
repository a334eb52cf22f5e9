import "server-only";
import type { Db } from "@/db/types";
import type { ServiceConfig } from "@/lib/service/client";
import { rateLimitedMessage, ServiceError } from "@/lib/service/errors";
import { getServiceHealth } from "@/lib/service/service-health-api";
import { listWebhooks } from "@/lib/service/webhook-registrations-api";
import type { SigningSecrets } from "@/lib/service/webhook-signing-secrets";
import { listWidgets } from "@/lib/service/widgets-api";
import { countEventNeeds, describeEventTypes, lastReceivedByEventType, type EventTypeView } from "./event-types";

// What the admin's Service connection page shows: is the service up, which links (widgets) the
// team has, where the service sends its webhooks, and which event types reach Coverdesk. Each
// part is asked separately, so a part the plan or an outage refuses says so without hiding the
// others. Signing secrets never leave this module: the receiver's store keeps the list read here.

export type Part<T> = { ok: true; value: T } | { ok: false; message: string };

export type LinkView = {
  widgetId: string;
  name: string;
  publicAlias: string | null;
  publicUrl: string | null;
  isSandbox: boolean | null;
  agents: number;
};
export type WebhookView = {
  webhookId: string;
  url: string;
  isActive: boolean | null;
  isSandbox: boolean | null;
  eventTypes: string[];
  ours: boolean;
};

export type ServiceConnection = {
  baseUrl: string;
  teamId: string;
  /** Where this Coverdesk instance receives webhooks. */
  hookUrl: string;
  /** False in development without SERVICE_WEBHOOK_SECRET: every delivery is taken unchecked. */
  checksSignatures: boolean;
  health: Part<{ healthy: boolean }>;
  links: Part<LinkView[]>;
  webhooks: Part<WebhookView[]>;
  /** One row per event type: enabled where, last received, and a warning where one is needed but never came. */
  events: EventTypeView[];
};

export function ownHookUrl(appUrl: string): string {
  return new URL("/api/webhooks/service", appUrl).toString();
}

/** A failed call in words, without credentials or the raw answer. */
export function describeServiceFailure(error: unknown): string {
  if (error instanceof ServiceError) {
    const limited = rateLimitedMessage(error);
    if (limited) return limited;
    if (error.status === 401)
      return "The service refused Coverdesk's credentials (SERVICE_CLIENT_ID, SERVICE_CLIENT_SECRET).";
    if (error.status === 403) return `The service's plan for this team does not include this (${error.code}).`;
    if (error.status === 404) return "The service does not know this team (SERVICE_TEAM_ID).";
    if (error.status === 0 || error.status >= 500) return "The service is not answering right now.";
    return `The service refused (${error.code}).`;
  }
  throw error;
}

async function part<T>(load: () => Promise<T>): Promise<Part<T>> {
  try {
    return { ok: true, value: await load() };
  } catch (error) {
    return { ok: false, message: describeServiceFailure(error) };
  }
}

export async function getServiceConnection(
  db: Db,
  config: ServiceConfig & { teamId: string },
  options: { appUrl: string; checksSignatures: boolean; signingSecrets?: SigningSecrets },
): Promise<ServiceConnection> {
  const hookUrl = ownHookUrl(options.appUrl);
  const [health, links, webhooks, lastReceived, needs] = await Promise.all([
    part(() => getServiceHealth(config)),
    part(async () => {
      const { value } = await listWidgets(config, { limit: 100 });
      return (value.widgets ?? []).map((w): LinkView => ({
        widgetId: w.widget_id,
        name: w.intro_title ?? w.company_name ?? w.public_alias ?? w.widget_id,
        publicAlias: w.public_alias,
        publicUrl: w.public_url,
        isSandbox: w.is_sandbox,
        agents: w.agents?.length ?? 0,
      }));
    }),
    part(async () => {
      const registrations = await listWebhooks(config);
      // The receiver checks deliveries against these secrets: a page load keeps them current.
      options.signingSecrets?.remember(registrations);
      return registrations.map((h): WebhookView => ({
        webhookId: h.webhook_id,
        url: h.url ?? "",
        isActive: h.is_active,
        isSandbox: h.is_sandbox,
        eventTypes: [...(h.event_types ?? [])],
        ours: h.url === hookUrl,
      }));
    }),
    lastReceivedByEventType(db),
    countEventNeeds(db),
  ]);
  const events = describeEventTypes({
    hookUrl,
    registrations: webhooks.ok ? webhooks.value : null,
    lastReceived,
    needs,
  });
  return {
    baseUrl: config.baseUrl,
    teamId: config.teamId,
    hookUrl,
    checksSignatures: options.checksSignatures,
    health,
    links,
    webhooks,
    events,
  };
}
