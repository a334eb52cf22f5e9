import type { ServerResponse } from "node:http";
import { z } from "zod";
import { describeIssues, type SandboxContext } from "../context";
import { fail, send } from "../http";
import { isRefreshing } from "../flows/monitorings";
import { CHANGE_KINDS } from "../flows/change-kinds";
import { startRefresh } from "../flows/refresh";
import { flowState } from "../flows/state";

// Control API triggers on a monitoring: refresh it now, or make its next refresh need the
// consumer (MONITORING_RECONNECT), so that apps can be tested against both paths.

const PATH = /^\/monitorings\/([^/]+)\/(refresh|reconnect-needed)$/;
const refreshSchema = z.object({ change: z.enum(CHANGE_KINDS).optional() });
const reconnectSchema = z.object({
  auth_status: z
    .enum(["NOT_AUTHENTICATED", "IDENTITY_VERIFICATION_OPTIONS", "IDENTITY_VERIFICATION"])
    .default("NOT_AUTHENTICATED"),
});

export function monitoringControl(ctx: SandboxContext, path: string, body: unknown, res: ServerResponse): true {
  const match = PATH.exec(path);
  const record = match ? flowState(ctx).monitorings.get(match[1] ?? "") : undefined;
  if (!match || !record) return fail(res, 404, "NOT_FOUND");
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
