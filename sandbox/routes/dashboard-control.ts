import type { ServerResponse } from "node:http";
import { z } from "zod";
import { describeIssues, UUID, type SandboxContext } from "../context";
import { fail, send } from "../http";
import { ALL_EVENT_TYPES } from "../webhook-registry";

// Control API: what an agency does on the service's own dashboard, where any event type can be
// switched on (the API sets only five). As there, a webhook is made with its own signing secret,
// and the events of any webhook, one registered through the API included, can be changed.
//   POST /_sandbox/dashboard/webhooks       {url, eventTypes, isActive?} → {webhook_id, signing_secret}
//   POST /_sandbox/dashboard/webhooks/{id}  {eventTypes?, isActive?}     → {webhook}

const eventTypes = z.array(z.enum(ALL_EVENT_TYPES)).min(1);
const createSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).max(2000),
  eventTypes,
  isActive: z.boolean().optional(),
});
const editSchema = z.strictObject({ eventTypes: eventTypes.optional(), isActive: z.boolean().optional() });

export function dashboardControl(ctx: SandboxContext, path: string, body: unknown, res: ServerResponse): true {
  if (path === "/dashboard/webhooks") {
    const parsed = createSchema.safeParse(body);
    if (!parsed.success) return fail(res, 400, "INVALID_INPUT", describeIssues(parsed.error.issues));
    const made = ctx.webhooks.add({ url: parsed.data.url, eventTypes: parsed.data.eventTypes });
    if (parsed.data.isActive === false) ctx.webhooks.update(made.webhook_id, { isActive: false });
    return send(res, 200, { webhook_id: made.webhook_id, signing_secret: made.signing_secret });
  }
  const one = /^\/dashboard\/webhooks\/([^/]+)$/.exec(path);
  const id = one?.[1] ?? "";
  if (!one || !UUID.test(id)) return fail(res, 404, "NOT_FOUND");
  if (!ctx.webhooks.get(id)) return fail(res, 404, "NOT_FOUND", "No webhook with that id.");
  const parsed = editSchema.safeParse(body);
  if (!parsed.success) return fail(res, 400, "INVALID_INPUT", describeIssues(parsed.error.issues));
  ctx.webhooks.update(id, parsed.data);
  return send(res, 200, { webhook: ctx.webhooks.get(id) });
}
