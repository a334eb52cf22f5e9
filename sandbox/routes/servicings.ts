import { z } from "zod";
import { describeIssues, type Routes } from "../context";
import { fail, send } from "../http";
import { readBody } from "../flows/input";
import { createServicing, servedServicing, servicingRequestSchema } from "../flows/servicing";
import { teamState } from "../flows/team-state";

// Team routes on servicing requests (service-notes, "Servicing"):
//   POST /servicings        { pull_id, servicing_actions } → { pull_id, pull_jwt, servicing_action_ids };
//                           400 INVALID_INPUT, PULL_TOO_OLD; 404 NOT_FOUND for an unknown pull
//   GET  /servicings        limit (1–100, default 100), offset, pull_id → { total_servicings, servicings };
//                           400 VALIDATION_ERROR
//   GET  /servicings/{id}   the ServicingAction, bare; 404 NOT_FOUND

const listQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(100),
  offset: z.coerce.number().int().min(0).default(0),
  pull_id: z.uuid().optional(),
});

export const servicingRoutes: Routes = async (ctx, { req, res, method, path, url }) => {
  const servicings = teamState(ctx).servicings;
  if (path === "/servicings") {
    if (method === "POST") {
      const body = await readBody(req, res, servicingRequestSchema);
      if (!body) return true;
      const created = createServicing(ctx, body);
      return created.ok ? send(res, 200, created.answer) : fail(res, created.status, created.code, created.message);
    }
    if (method !== "GET") return fail(res, 405, "METHOD_NOT_ALLOWED");
    const query = listQuerySchema.safeParse(Object.fromEntries(url.searchParams));
    if (!query.success) return fail(res, 400, "VALIDATION_ERROR", describeIssues(query.error.issues));
    const { limit, offset, pull_id } = query.data;
    // A pull's actions are those of the servicing pull, or those that reused its login.
    const matching = [...servicings.values()]
      .reverse()
      .filter((r) => !pull_id || r.pullId === pull_id || r.sourcePullId === pull_id);
    return send(res, 200, {
      total_servicings: matching.length,
      servicings: matching.slice(offset, offset + limit).map(servedServicing),
    });
  }
  const one = /^\/servicings\/([^/]+)$/.exec(path);
  if (!one) return false;
  if (method !== "GET") return fail(res, 405, "METHOD_NOT_ALLOWED");
  const record = servicings.get(one[1] ?? "");
  return record ? send(res, 200, servedServicing(record)) : fail(res, 404, "NOT_FOUND");
};
