import { randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import { UUID, type Routes, type SandboxContext } from "../context";
import { fail, readJson, send } from "../http";

// Team routes registering webhook endpoints (service-notes, "Webhooks"): camelCase bodies,
// snake_case answers, and each bad part of a body with its own code.
//   GET /webhooks                              → { webhooks: [{ webhook_id, signing_secret, url, is_sandbox, is_active, event_types }] }
//   POST /webhooks {hookUrl, eventTypes}       → { webhook_id, signing_secret }; 400 INVALID_URL, INVALID_EVENT_TYPE
//   PATCH /webhooks/{id} {isActive?, eventTypes?} → { success: true }; 400 INVALID_WEBHOOK_ID, NOT_FOUND, INVALID_IS_ACTIVE, INVALID_EVENT_TYPE
//   DELETE /webhooks/{id}                      → { success: true }
// The registry is kept per running sandbox; deliveries still go to the configured webhook URL.

/** Only these can be set through the API; ERROR, the monitoring events and the rest on the dashboard. */
export const API_SETTABLE_EVENT_TYPES = [
  "COMPLETE",
  "POLICIES_AVAILABLE",
  "POLICY_AVAILABLE",
  "AUTH_STATUS",
  "VALIDATION_COMPLETE",
] as const;

type Registration = {
  webhook_id: string;
  signing_secret: string;
  url: string;
  is_sandbox: boolean;
  is_active: boolean;
  event_types: string[];
};

const hookUrl = z.url({ protocol: /^https?$/ }).max(2000);
const eventTypes = z
  .array(z.enum(API_SETTABLE_EVENT_TYPES))
  .min(1)
  .transform((types) => [...new Set(types)]);

const registries = new WeakMap<SandboxContext, Map<string, Registration>>();
function registry(ctx: SandboxContext): Map<string, Registration> {
  let found = registries.get(ctx);
  if (!found) {
    found = new Map();
    registries.set(ctx, found);
  }
  return found;
}

type Body = Record<string, unknown>;
const isBody = (value: unknown): value is Body => typeof value === "object" && value !== null && !Array.isArray(value);

export const webhookRegistrationRoutes: Routes = async (ctx, { req, res, method, path }) => {
  if (path === "/webhooks") {
    if (method === "GET") return send(res, 200, { webhooks: [...registry(ctx).values()] });
    if (method !== "POST") return fail(res, 405, "METHOD_NOT_ALLOWED");
    const body = await readJson(req);
    if (!body.ok || !isBody(body.value)) return fail(res, 400, "INVALID_INPUT", "The body is not a JSON object.");
    const url = hookUrl.safeParse(body.value.hookUrl);
    if (!url.success) return fail(res, 400, "INVALID_URL", "hookUrl must be an http(s) URL.");
    const types = eventTypes.safeParse(body.value.eventTypes);
    if (!types.success)
      return fail(
        res,
        400,
        "INVALID_EVENT_TYPE",
        `eventTypes must list some of ${API_SETTABLE_EVENT_TYPES.join(", ")}.`,
      );
    const registration: Registration = {
      webhook_id: randomUUID(),
      signing_secret: `whsec_${randomBytes(24).toString("hex")}`,
      url: url.data,
      is_sandbox: true,
      is_active: true,
      event_types: types.data,
    };
    registry(ctx).set(registration.webhook_id, registration);
    return send(res, 200, { webhook_id: registration.webhook_id, signing_secret: registration.signing_secret });
  }
  const one = /^\/webhooks\/([^/]+)$/.exec(path);
  if (!one) return false;
  if (method !== "PATCH" && method !== "DELETE") return fail(res, 405, "METHOD_NOT_ALLOWED");
  const id = one[1] ?? "";
  if (!UUID.test(id)) return fail(res, 400, "INVALID_WEBHOOK_ID");
  const registration = registry(ctx).get(id);
  if (!registration) return fail(res, 400, "NOT_FOUND");
  if (method === "DELETE") {
    registry(ctx).delete(id);
    return send(res, 200, { success: true });
  }
  const body = await readJson(req);
  if (!body.ok || !isBody(body.value)) return fail(res, 400, "INVALID_INPUT", "The body is not a JSON object.");
  const { isActive, eventTypes: types } = body.value;
  if (isActive === undefined && types === undefined)
    return fail(res, 400, "INVALID_INPUT", "Give isActive, eventTypes or both.");
  if (isActive !== undefined && typeof isActive !== "boolean")
    return fail(res, 400, "INVALID_IS_ACTIVE", "isActive must be true or false.");
  const parsedTypes = types === undefined ? null : eventTypes.safeParse(types);
  if (parsedTypes && !parsedTypes.success)
    return fail(res, 400, "INVALID_EVENT_TYPE", `eventTypes must list some of ${API_SETTABLE_EVENT_TYPES.join(", ")}.`);
  registry(ctx).set(id, {
    ...registration,
    is_active: isActive ?? registration.is_active,
    event_types: parsedTypes?.data ?? registration.event_types,
  });
  return send(res, 200, { success: true });
};
