import "server-only";
import { z } from "zod";
import type { Db } from "@/db/types";
import { can } from "@/lib/auth/permissions";
import type { ServiceConfig } from "@/lib/service/client";
import { API_SETTABLE_WEBHOOK_EVENT_TYPES } from "@/lib/service/schemas";
import { listWebhooks, registerWebhook, updateWebhook } from "@/lib/service/webhook-registrations-api";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { forbidden, invalid, notFound, type CommandResult } from "@/lib/core/result";
import { describeServiceFailure, ownHookUrl } from "./overview";

// Registering this instance's webhook address with the service, and pausing or resuming it.
// Only COMPLETE, POLICIES_AVAILABLE, POLICY_AVAILABLE, AUTH_STATUS and VALIDATION_COMPLETE can
// be set through the API; the other events are switched on in the service's dashboard.

const NOT_ALLOWED = "Only admins manage the service connection.";

/**
 * Registers the address for every event the API can set. Its signing secret stays with the
 * service: the receiver reads it from the registration list (lib/service/webhook-signing-secrets.ts).
 */
export async function registerOwnWebhook(
  db: Db,
  config: ServiceConfig,
  actor: Actor,
  appUrl: string,
): Promise<CommandResult<{ webhookId: string }>> {
  if (!can(actor, "service:manage")) return forbidden(NOT_ALLOWED);
  const hookUrl = ownHookUrl(appUrl);
  try {
    const existing = (await listWebhooks(config)).find((hook) => hook.url === hookUrl);
    if (existing) return invalid("This address is already registered; pause or resume it instead.");
    const registration = await registerWebhook(config, { hookUrl, eventTypes: [...API_SETTABLE_WEBHOOK_EVENT_TYPES] });
    await recordAudit(db, actor, "SERVICE_CONNECTION_CHANGED", {
      details: { change: "registered Coverdesk's webhook address", webhookId: registration.webhook_id, hookUrl },
    });
    return { ok: true, webhookId: registration.webhook_id };
  } catch (error) {
    return { ok: false, code: "CONFLICT", message: describeServiceFailure(error) };
  }
}

const CHOOSE_TOGGLE = "Choose a registration and whether to pause or resume it.";

/** Pause ("false") or resume ("true") a registration; the form's text or a boolean. */
export const setWebhookActiveInputSchema = z.object({
  webhookId: z.string(CHOOSE_TOGGLE).trim().min(1, CHOOSE_TOGGLE).max(100, CHOOSE_TOGGLE),
  active: z.preprocess(
    (value) => (value === "true" ? true : value === "false" ? false : value),
    z.boolean(CHOOSE_TOGGLE),
  ),
});

/** Pauses or resumes this instance's own registration (never another address's). */
export async function setOwnWebhookActive(
  db: Db,
  config: ServiceConfig,
  actor: Actor,
  appUrl: string,
  input: { webhookId?: string; active?: unknown },
): Promise<CommandResult> {
  if (!can(actor, "service:manage")) return forbidden(NOT_ALLOWED);
  const parsed = setWebhookActiveInputSchema.safeParse(input);
  if (!parsed.success) return invalid(CHOOSE_TOGGLE);
  try {
    const hook = (await listWebhooks(config)).find((h) => h.webhook_id === parsed.data.webhookId);
    if (!hook || hook.url !== ownHookUrl(appUrl)) return notFound("That registration of Coverdesk's address");
    await updateWebhook(config, hook.webhook_id, { isActive: parsed.data.active });
    await recordAudit(db, actor, "SERVICE_CONNECTION_CHANGED", {
      details: {
        change: parsed.data.active ? "resumed Coverdesk's webhook" : "paused Coverdesk's webhook",
        webhookId: hook.webhook_id,
      },
    });
    return { ok: true };
  } catch (error) {
    return { ok: false, code: "CONFLICT", message: describeServiceFailure(error) };
  }
}
