import { randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import { describeIssues, UUID, type Routes, type SandboxContext } from "../context";
import { fail, readJson, send } from "../http";

// Team routes registering webhook endpoints (service-notes, "Webhooks"):
//   GET /webhooks                         → { webhooks: [...] }   (no secrets)
//   POST /webhooks {hookUrl, eventTypes}  → { webhook_id, signing_secret }
//   PATCH /webhooks/{id} {hookUrl?, eventTypes?} → { success, webhook }
//   DELETE /webhooks/{id}                 → { success }
// The registry is kept per running sandbox; deliveries still go to the configured webhook URL.

export const WEBHOOK_EVENT_TYPES = [
  "COMPLETE", "POLICIES_AVAILABLE", "POLICY_AVAILABLE", "AUTH_STATUS", "ERROR", "MONITORING_RECONNECT", "DATA_UPDATED", "MONITORING_EVENTS",
] as const;

type Registration = { webhook_id: string; hookUrl: string; eventTypes: string[]; signing_secret: string; created_at: string };

const hookUrl = z.url({ protocol: /^https?$/ }).max(2000);
const eventTypes = z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1).transform((types) => [...new Set(types)]);
const createSchema = z.object({ hookUrl, eventTypes });
const updateSchema = z.object({ hookUrl: hookUrl.optional(), eventTypes: eventTypes.optional() }).refine((b) => b.hookUrl !== undefined || b.eventTypes !== undefined, "give hookUrl, eventTypes or both");

const registries = new WeakMap<SandboxContext, Map<string, Registration>>();
function registry(ctx: SandboxContext): Map<string, Registration> {
  let found = registries.get(ctx);
  if (!found) {
    found = new Map();
    registries.set(ctx, found);
  }
  return found;
}

/** The secret is shown once, at registration, like the service's dashboard does. */
const listed = ({ signing_secret: _secret, ...rest }: Registration) => ({ ...rest, hook_url: rest.hookUrl, event_types: rest.eventTypes });

export const webhookRegistrationRoutes: Routes = async (ctx, { req, res, method, path }) => {
  if (path === "/webhooks") {
    if (method === "GET") return send(res, 200, { webhooks: [...registry(ctx).values()].map(listed) });
    if (method !== "POST") return fail(res, 405, "METHOD_NOT_ALLOWED");
    const body = await readJson(req);
    if (!body.ok) return fail(res, 400, "INVALID_INPUT", "The body is not valid JSON.");
    const parsed = createSchema.safeParse(body.value);
    if (!parsed.success) return fail(res, 400, "INVALID_INPUT", describeIssues(parsed.error.issues));
    const registration: Registration = {
      webhook_id: randomUUID(),
      ...parsed.data,
      signing_secret: `whsec_${randomBytes(24).toString("hex")}`,
      created_at: ctx.clock.now().toISOString(),
    };
    registry(ctx).set(registration.webhook_id, registration);
    return send(res, 200, { webhook_id: registration.webhook_id, signing_secret: registration.signing_secret });
  }
  const one = /^\/webhooks\/([^/]+)$/.exec(path);
  if (!one) return false;
  const id = one[1] ?? "";
  const registration = UUID.test(id) ? registry(ctx).get(id) : undefined;
  if (method !== "PATCH" && method !== "DELETE" && method !== "GET") return fail(res, 405, "METHOD_NOT_ALLOWED");
  if (!registration) return fail(res, 404, "NOT_FOUND");
  if (method === "GET") return send(res, 200, { webhook: listed(registration) });
  if (method === "DELETE") {
    registry(ctx).delete(id);
    return send(res, 200, { success: true });
  }
  const body = await readJson(req);
  if (!body.ok) return fail(res, 400, "INVALID_INPUT", "The body is not valid JSON.");
  const parsed = updateSchema.safeParse(body.value);
  if (!parsed.success) return fail(res, 400, "INVALID_INPUT", describeIssues(parsed.error.issues));
  const updated: Registration = { ...registration, hookUrl: parsed.data.hookUrl ?? registration.hookUrl, eventTypes: parsed.data.eventTypes ?? registration.eventTypes };
  registry(ctx).set(id, updated);
  return send(res, 200, { success: true, webhook: listed(updated) });
};
