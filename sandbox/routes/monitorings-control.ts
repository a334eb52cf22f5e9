import type { ServerResponse } from "node:http";
import { z } from "zod";
import { describeIssues, UUID, type SandboxContext } from "../context";
import { fail, send } from "../http";
import {
  enableMonitoring,
  isRefreshing,
  monitoringOfPull,
  servedMonitoring,
  stopMonitoring,
} from "../flows/monitorings";
import { intervalDays, MIN_INTERVAL_DAYS, parseInterval } from "../flows/interval";
import { teamState } from "../flows/team-state";
import { CHANGE_KINDS } from "../flows/change-kinds";
import { startRefresh } from "../flows/refresh";
import { ensureScheduler } from "../flows/scheduler";
import { flowState } from "../flows/state";

// Control API on monitorings. What the agency does on the service's own dashboard, out of the
// app's sight: start a monitoring on a pull, or stop one. And triggers on a monitoring: refresh
// it now, or make its next refresh need the consumer (MONITORING_RECONNECT), so that apps can
// be tested against both paths.

const PATH = /^\/monitorings\/([^/]+)\/(refresh|reconnect-needed|stop)$/;
const refreshSchema = z.object({ change: z.enum(CHANGE_KINDS).optional() });
const reconnectSchema = z.object({
  auth_status: z
    .enum(["NOT_AUTHENTICATED", "IDENTITY_VERIFICATION_OPTIONS", "IDENTITY_VERIFICATION"])
    .default("NOT_AUTHENTICATED"),
});
/** The dashboard's form: the same fields and rules as POST /monitorings. */
const dashboardStartSchema = z.object({
  pull_id: z.string().regex(UUID, "must be a pull id"),
  interval: z.string().min(1).max(50).default("P1M"),
  next_pull_date: z.iso.datetime({ offset: true }).nullable().optional(),
  stop_after_date: z.iso.datetime({ offset: true }).nullable().optional(),
});

/** Mode A on (every successful link monitored at this interval) or off (null). */
const teamWideSchema = z.object({ interval: z.string().min(1).max(50).nullable() });

/** Mode A switched on: every pull the service would monitor now is, and every link that succeeds later. */
function monitorTeamWide(ctx: SandboxContext, interval: string | null): number {
  teamState(ctx).teamWideMonitoring = interval;
  if (!interval) return 0;
  let monitored = 0;
  for (const pull of ctx.state.pulls.values()) {
    if (monitoringOfPull(ctx, pull.pull_id)) continue;
    const scenario = flowState(ctx).sessions.get(pull.pull_id)?.scenario ?? null;
    if (enableMonitoring(ctx, { pull_id: pull.pull_id, interval }, scenario).ok) monitored++;
  }
  ensureScheduler(ctx);
  return monitored;
}

function enableIntervalOk(interval: string): boolean {
  const parsed = parseInterval(interval);
  return parsed !== null && intervalDays(parsed) >= MIN_INTERVAL_DAYS;
}

export function monitoringControl(ctx: SandboxContext, path: string, body: unknown, res: ServerResponse): true {
  if (path === "/monitorings/team-wide") {
    const parsed = teamWideSchema.safeParse(body ?? {});
    if (!parsed.success) return fail(res, 400, "INVALID_INPUT", describeIssues(parsed.error.issues));
    if (parsed.data.interval !== null && !enableIntervalOk(parsed.data.interval))
      return fail(res, 400, "INVALID_INPUT", "interval: an ISO-8601 duration (P45D, P1M, P1Y) of at least 30 days");
    return send(res, 200, { interval: parsed.data.interval, monitored: monitorTeamWide(ctx, parsed.data.interval) });
  }
  if (path === "/monitorings") {
    const parsed = dashboardStartSchema.safeParse(body ?? {});
    if (!parsed.success) return fail(res, 400, "INVALID_INPUT", describeIssues(parsed.error.issues));
    const scenario = flowState(ctx).sessions.get(parsed.data.pull_id)?.scenario ?? null;
    const enabled = enableMonitoring(ctx, parsed.data, scenario);
    if (!enabled.ok) return fail(res, 400, enabled.code, enabled.message);
    ensureScheduler(ctx);
    return send(res, 200, { monitoring: servedMonitoring(enabled.record) });
  }
  const match = PATH.exec(path);
  const record = match ? flowState(ctx).monitorings.get(match[1] ?? "") : undefined;
  if (!match || !record) return fail(res, 404, "NOT_FOUND");
  if (match[2] === "stop") {
    stopMonitoring(record);
    return send(res, 200, { monitoring: servedMonitoring(record) });
  }
  if (record.status !== "ACTIVE") return fail(res, 400, "MONITORING_INACTIVE");
  if (isRefreshing(ctx, record)) return fail(res, 400, "CURRENTLY_REFRESHING");
  if (match[2] === "refresh") {
    const refresh = refreshSchema.safeParse(body ?? {});
    if (!refresh.success) return fail(res, 400, "INVALID_INPUT", describeIssues(refresh.error.issues));
    return send(res, 200, { pull_id: startRefresh(ctx, record, null, refresh.data.change ?? null) });
  }
  const parsed = reconnectSchema.safeParse(body);
  if (!parsed.success) return fail(res, 400, "INVALID_INPUT", describeIssues(parsed.error.issues));
  return send(res, 200, { pull_id: startRefresh(ctx, record, parsed.data.auth_status) });
}
