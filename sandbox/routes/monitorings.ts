import { z } from "zod";
import { describeIssues, UUID, type Routes } from "../context";
import { fail, send } from "../http";
import { readBody } from "../flows/input";
import {
  enableMonitoring,
  isRefreshing,
  patchMonitoring,
  pullSummaries,
  servedMonitoring,
  stopMonitoring,
} from "../flows/monitorings";
import { freshReconnectToken, startRefresh } from "../flows/refresh";
import { ensureScheduler } from "../flows/scheduler";
import { flowState, type MonitoringRecord } from "../flows/state";

// Team routes on monitorings (service-notes, "Monitorings" table). Auth and the team prefix
// are settled by the server before these run; an unknown monitoring id is 404 NOT_FOUND. Bad
// query parameters of the reads are VALIDATION_ERROR, bad bodies of the writes INVALID_INPUT.

const dateTime = z.iso.datetime({ offset: true });
const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(100),
  before: z.string().min(1).optional(),
  pull_id: z.string().min(1).optional(),
  account_identifier: z.string().min(1).optional(),
  status: z.enum(["ACTIVE", "STOPPED"]).optional(),
});
const detailQuerySchema = z.object({
  with_pulls: z.enum(["true", "false"]).default("false"),
  limit: z.coerce.number().int().min(1).max(100).default(100),
  before: z.string().min(1).optional(),
});
const enableSchema = z.object({
  pull_id: z.string().regex(UUID, "must be a pull id"),
  interval: z.string().min(1).max(50),
  next_pull_date: dateTime.nullable().optional(),
  stop_after_date: dateTime.nullable().optional(),
});
/** interval and stop_after_date are checked by the flow, which has their own error codes. */
const patchSchema = z.object({
  interval: z.string().max(50).optional(),
  next_pull_date: dateTime.nullable().optional(),
  stop_after_date: z.string().max(50).nullable().optional(),
  status: z.enum(["ACTIVE", "STOPPED"]).optional(),
});

/** Items after the one named by `before` (all of them without a cursor); null for an unknown cursor. */
function afterCursor<T>(items: T[], id: (item: T) => string, before: string | undefined): T[] | null {
  if (before === undefined) return items;
  const at = items.findIndex((item) => id(item) === before);
  return at < 0 ? null : items.slice(at + 1);
}

const ONE = /^\/monitorings\/([^/]+)(?:\/(refresh|reconnectToken|events))?$/;

export const monitoringRoutes: Routes = async (ctx, { req, res, method, path, url }) => {
  const monitorings = flowState(ctx).monitorings;
  if (path === "/monitorings") {
    if (method === "GET") {
      const query = listQuerySchema.safeParse(Object.fromEntries(url.searchParams));
      if (!query.success) return fail(res, 400, "VALIDATION_ERROR", describeIssues(query.error.issues));
      const { limit, before, pull_id, account_identifier, status } = query.data;
      const matching = [...monitorings.values()]
        .reverse() // newest first
        .filter(
          (m) =>
            (!pull_id || m.pullIds.includes(pull_id)) &&
            (!account_identifier || m.account_identifier === account_identifier) &&
            (!status || m.status === status),
        );
      const page = afterCursor(matching, (m) => m.monitoring_id, before);
      if (!page) return fail(res, 400, "VALIDATION_ERROR", "before: no monitoring with this id in the list");
      return send(res, 200, {
        monitorings_count: matching.length,
        monitorings: page.slice(0, limit).map(servedMonitoring),
      });
    }
    if (method === "POST") {
      const body = await readBody(req, res, enableSchema);
      if (!body) return true;
      const scenario = flowState(ctx).sessions.get(body.pull_id)?.scenario ?? null;
      const enabled = enableMonitoring(ctx, body, scenario);
      if (!enabled.ok) return fail(res, 400, enabled.code, enabled.message);
      ensureScheduler(ctx);
      return send(res, 200, { success: true, monitoring: servedMonitoring(enabled.record) });
    }
    return fail(res, 405, "METHOD_NOT_ALLOWED");
  }

  const one = ONE.exec(path);
  if (!one) return false;
  const record: MonitoringRecord | undefined = monitorings.get(one[1] ?? "");
  if (!record) return fail(res, 404, "NOT_FOUND");
  const action = one[2];

  if (!action) {
    if (method === "GET") {
      const query = detailQuerySchema.safeParse(Object.fromEntries(url.searchParams));
      if (!query.success) return fail(res, 400, "VALIDATION_ERROR", describeIssues(query.error.issues));
      if (query.data.with_pulls === "false") return send(res, 200, { monitoring: servedMonitoring(record) });
      const pulls = afterCursor(pullSummaries(ctx, record), (p) => String(p.pull_id), query.data.before);
      if (!pulls) return fail(res, 400, "VALIDATION_ERROR", "before: no pull of this monitoring with this id");
      return send(res, 200, { monitoring: servedMonitoring(record), pulls: pulls.slice(0, query.data.limit) });
    }
    if (method === "PATCH") {
      const body = await readBody(req, res, patchSchema);
      if (!body) return true;
      const patched = patchMonitoring(ctx, record, body);
      if (!patched.ok) return fail(res, 400, patched.code, patched.message);
      return send(res, 200, { success: true, monitoring: servedMonitoring(patched.record) });
    }
    if (method === "DELETE") {
      stopMonitoring(record);
      return send(res, 200, { success: true, monitoring: servedMonitoring(record) });
    }
    return fail(res, 405, "METHOD_NOT_ALLOWED");
  }

  if (action === "refresh") {
    if (method !== "POST") return fail(res, 405, "METHOD_NOT_ALLOWED");
    if (record.status !== "ACTIVE") return fail(res, 400, "MONITORING_INACTIVE");
    if (isRefreshing(ctx, record)) return fail(res, 400, "CURRENTLY_REFRESHING");
    const pullId = startRefresh(ctx, record);
    return pullId ? send(res, 200, { pull_id: pullId }) : fail(res, 500, "INTERNAL_ERROR");
  }
  if (method !== "GET") return fail(res, 405, "METHOD_NOT_ALLOWED");
  if (action === "reconnectToken") {
    if (record.status !== "ACTIVE") return fail(res, 400, "MONITORING_INACTIVE");
    return send(res, 200, freshReconnectToken(ctx, record));
  }
  return send(res, 200, record.events);
};
