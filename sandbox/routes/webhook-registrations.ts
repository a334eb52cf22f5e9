import { z } from "zod";
import { UUID, type Routes } from "../context";
import { fail, readJson, send } from "../http";
import { API_SETTABLE_EVENT_TYPES } from "../webhook-registry";

// Team routes registering webhook endpoints (service-notes, "Webhooks"): camelCase bodies,
// snake_case answers, and each bad part of a body with its own code.
//   GET /webhooks                              → { webhooks: [{ webhook_id, signing_secret, url, is_sandbox, is_active, event_types }] }
//   POST /webhooks {hookUrl, eventTypes}       → { webhook_id, signing_secret }; 400 INVALID_URL, INVALID_EVENT_TYPE
//   PATCH /webhooks/{id} {isActive?, eventTypes?} → { success: true }; 400 INVALID_WEBHOOK_ID, NOT_FOUND, INVALID_IS_ACTIVE, INVALID_EVENT_TYPE
//   DELETE /webhooks/{id}                      → { success: true }
// The registry (../webhook-registry.ts) also holds the webhooks made on the dashboard, and
// deliveries go to each active registration that asked for the event's type.

const hookUrl = z.url({ protocol: /^https?$/ }).max(2000);
const eventTypes = z
  .array(z.enum(API_SETTABLE_EVENT_TYPES))
  .min(1)
  .transform((types) => [...new Set(types)]);

type Body = Record<string, unknown>;
const isBody = (value: unknown): value is Body => typeof value === "object" && value !== null && !Array.isArray(value);

export const webhookRegistrationRoutes: Routes = async (ctx, { req, res, method, path }) => {
  if (path === "/webhooks") {
    if (method === "GET") return send(res, 200, { webhooks: ctx.webhooks.list() });
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
    const registration = ctx.webhooks.add({ url: url.data, eventTypes: types.data });
    return send(res, 200, { webhook_id: registration.webhook_id, signing_secret: registration.signing_secret });
  }
  const one = /^\/webhooks\/([^/]+)$/.exec(path);
  if (!one) return false;
  if (method !== "PATCH" && method !== "DELETE") return fail(res, 405, "METHOD_NOT_ALLOWED");
  const id = one[1] ?? "";
  if (!UUID.test(id)) return fail(res, 400, "INVALID_WEBHOOK_ID");
  if (!ctx.webhooks.get(id)) return fail(res, 400, "NOT_FOUND");
  if (method === "DELETE") {
    ctx.webhooks.remove(id);
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
  ctx.webhooks.update(id, { isActive, eventTypes: parsedTypes?.data });
  return send(res, 200, { success: true });
};
