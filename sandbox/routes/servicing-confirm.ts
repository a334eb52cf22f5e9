import { z } from "zod";
import type { Routes } from "../context";
import { fail, send } from "../http";
import { readBody } from "../flows/input";
import { confirmServicingAction } from "../flows/servicing";
import { pullJwtAllows } from "../flows/tokens";

// The consumer's answer to a servicing action (service-notes, "Consent and whitelabel flows"):
//   POST /widget/pull/{pullId}/servicingAction { servicing_action_id, is_confirmed } → { pull_id }
// Public (no team prefix), authorised only by the `pull-jwt` header of the servicing pull, as
// the other whitelabel steps. 401 UNAUTHORIZED, 400 INVALID_INPUT / INVALID_ACTION, 404 NOT_FOUND.

const PATH = /^\/widget\/pull\/([^/]+)\/servicingAction$/;
const confirmSchema = z.object({ servicing_action_id: z.string().trim().min(1).max(100), is_confirmed: z.boolean() });

export const servicingConfirmRoutes: Routes = async (ctx, { req, res, method, path }) => {
  const match = PATH.exec(path);
  if (!match) return false;
  if (method !== "POST") return fail(res, 405, "METHOD_NOT_ALLOWED");
  const pullId = match[1] ?? "";
  const jwt = req.headers["pull-jwt"];
  if (!pullJwtAllows(ctx, typeof jwt === "string" ? jwt : undefined, pullId)) return fail(res, 401, "UNAUTHORIZED");
  const body = await readBody(req, res, confirmSchema);
  if (!body) return true;
  const result = confirmServicingAction(ctx, pullId, body.servicing_action_id, body.is_confirmed);
  return result.ok ? send(res, 200, { pull_id: pullId }) : fail(res, result.status, result.code, result.message);
};
