import { z } from "zod";
import { describeIssues, UUID, type Routes } from "../context";
import { fail, readJson, send } from "../http";
import { unspecifiedOrder } from "../data/list-order";

// Team routes on pulls: list (in no particular order, as the service's), get (in the `{success, pull}` envelope), and archive or restore
// (PATCH `{is_archived}`, the only write the service allows on a pull). Auth and the team
// prefix are settled by the server before these run.

const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  offset: z.coerce.number().int().min(0).default(0),
  since: z.iso.datetime({ offset: true }).optional(),
  before: z.iso.datetime({ offset: true }).optional(),
});

/** Strict: the funnel and every other field are read-only, so anything else is refused. */
const patchSchema = z.strictObject({ is_archived: z.boolean() });

export const pullRoutes: Routes = async (ctx, { req, res, method, path, url }) => {
  if (path === "/pulls") {
    if (method !== "GET") return fail(res, 405, "METHOD_NOT_ALLOWED");
    const query = listQuerySchema.safeParse(Object.fromEntries(url.searchParams));
    // A list route: bad query parameters are VALIDATION_ERROR (service-notes, "Error codes").
    if (!query.success) return fail(res, 400, "VALIDATION_ERROR", describeIssues(query.error.issues));
    const { limit, offset, since, before } = query.data;
    const from = since ? new Date(since).toISOString() : null;
    const until = before ? new Date(before).toISOString() : null;
    const matching = unspecifiedOrder(
      ctx,
      [...ctx.state.pulls.values()].filter((p) => (!from || p.created_at >= from) && (!until || p.created_at <= until)),
    );
    return send(res, 200, {
      total_pulls: matching.length,
      pulls: matching.slice(offset, offset + limit).map(ctx.served),
    });
  }
  const one = /^\/pulls\/([^/]+)$/.exec(path);
  if (one) {
    if (method !== "GET" && method !== "PATCH") return fail(res, 405, "METHOD_NOT_ALLOWED");
    const id = one[1] ?? "";
    const pull = UUID.test(id) ? ctx.state.pulls.get(id) : undefined;
    if (method === "PATCH") {
      // The body is checked first: a bad body is a bad request whichever pull it names.
      const body = await readJson(req);
      if (!body.ok) return fail(res, 400, "INVALID_INPUT", "The body is not valid JSON.");
      const parsed = patchSchema.safeParse(body.value);
      if (!parsed.success) return fail(res, 400, "INVALID_INPUT", describeIssues(parsed.error.issues));
      // Unlike GET, a PATCH of an unknown pull answers 404 (service-notes, "Error codes").
      if (!pull) return fail(res, 404, "NOT_FOUND");
      ctx.state.pulls.set(pull.pull_id, { ...pull, is_archived: parsed.data.is_archived });
      return send(res, 200, { success: true });
    }
    if (!pull) return fail(res, 400, "NOT_FOUND"); // as the real service answers unknown ids
    return send(res, 200, { success: true, pull: ctx.served(pull) });
  }
  return false;
};
