import { z } from "zod";
import { describeIssues, NO_FAULTS, UUID, type SandboxContext } from "../context";
import { fail, readJson, send } from "../http";
import type { RouteRequest } from "../context";

// The control API under /_sandbox, for tests and demos: never part of the service's surface.

const faultsSchema = z.object({
  errorRate: z.number().min(0).max(1).optional(),
  timeoutRate: z.number().min(0).max(1).optional(),
  latencyMs: z.number().int().min(0).max(60_000).optional(),
});
const deliverSchema = z.object({ pull_ids: z.array(z.string().regex(UUID)).optional() });
const advanceSchema = z.object({ days: z.number().min(0).max(3650).optional(), hours: z.number().min(0).max(87_600).optional() });

export type ControlHooks = { deliverComplete: (pullIds?: string[]) => number; reset: () => void };

export async function controlRoutes(ctx: SandboxContext, hooks: ControlHooks, { req, res, method, path }: RouteRequest): Promise<boolean> {
  if (path === "/state" && method === "GET") {
    return send(res, 200, { pulls: ctx.state.pulls.size, deliveries: ctx.deliveries.counts, faults: ctx.state.faults, now: ctx.clock.now().toISOString() });
  }
  if (method !== "POST") return fail(res, 405, "METHOD_NOT_ALLOWED");
  const body = await readJson(req);
  if (!body.ok) return fail(res, 400, "INVALID_INPUT", "The body is not valid JSON.");
  if (path === "/faults") {
    const parsed = faultsSchema.safeParse(body.value);
    if (!parsed.success) return fail(res, 400, "INVALID_INPUT", describeIssues(parsed.error.issues));
    ctx.state.faults = { ...ctx.state.faults, ...parsed.data };
    return send(res, 200, { faults: ctx.state.faults });
  }
  if (path === "/deliver") {
    const parsed = deliverSchema.safeParse(body.value);
    if (!parsed.success) return fail(res, 400, "INVALID_INPUT", "pull_ids must be a list of UUIDs");
    return send(res, 200, { queued: hooks.deliverComplete(parsed.data.pull_ids) });
  }
  if (path === "/clock/advance") {
    const parsed = advanceSchema.safeParse(body.value);
    if (!parsed.success) return fail(res, 400, "INVALID_INPUT", describeIssues(parsed.error.issues));
    ctx.clock.advance(((parsed.data.days ?? 0) * 24 + (parsed.data.hours ?? 0)) * 3_600_000);
    return send(res, 200, { now: ctx.clock.now().toISOString() });
  }
  if (path === "/reset") {
    hooks.reset();
    ctx.state.faults = { ...NO_FAULTS };
    return send(res, 200, { reset: true });
  }
  return fail(res, 404, "NOT_FOUND");
}
