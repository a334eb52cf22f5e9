import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { z } from "zod";
import type { Routes, SandboxContext } from "../context";
import { fail, send, teamAuthOk } from "../http";
import { readBody } from "../flows/input";
import { chooseOption, connect, submitCode, type StepResult } from "../flows/link";
import { redeemReconnectToken } from "../flows/refresh";
import { submitLink } from "../flows/submit";
import { teamState } from "../flows/team-state";
import { issuePullJwt, pullJwtAllows } from "../flows/tokens";

// The consent and whitelabel flows (service-notes, "Consent and whitelabel flows"), served
// without the team prefix. consentAndConnect takes the team's auth (Basic or x-canopy-client-*); reconnectToken that or the
// x-service-client-* headers (spec 5.3); the per-pull steps only the `pull-jwt` header.

const text = (max: number) => z.string().trim().min(1).max(max);
/** terms_version is the integer of GET /tos; a string (even "2") is refused as the service does. */
const consentSchema = z.object({
  device_identifier: text(500),
  terms_version: z.number().int().min(0),
  consent_language: text(20_000),
});
const credentials = {
  insurerName: text(200),
  insurerUsername: text(500),
  insurerPassword: z.string().max(500).optional(),
  insurerThirdField: z.string().max(500).optional(),
};
const consentAndConnectSchema = consentSchema.extend({
  public_alias: text(200),
  ...credentials,
  /** An object, kept as sent and served back as that object on the pull and its webhooks. */
  meta_data: z.record(z.string(), z.unknown()).nullable().optional(),
});
const connectSchema = z.object(credentials);
const optionSchema = z.object({ optionKey: text(200) });
const codeSchema = z.object({ mfaValue: text(50) });
const reconnectSchema = z.object({ reconnect_token: text(10_000) });

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The team's own credentials (Basic or x-canopy-client-*), or the spec's x-service-client-* headers. */
function clientAuthOk(ctx: SandboxContext, req: IncomingMessage): boolean {
  if (teamAuthOk(req, ctx.options.clientId, ctx.options.clientSecret)) return true;
  const id = req.headers["x-service-client-id"];
  const secret = req.headers["x-service-client-secret"];
  if (typeof id !== "string" || typeof secret !== "string") return false;
  const idOk = same(id, ctx.options.clientId);
  const secretOk = same(secret, ctx.options.clientSecret);
  return idOk && secretOk;
}

const STEP = /^\/widget\/pull\/([^/]+)\/(connect|idvoptions|idv)$/;

export const widgetRoutes: Routes = async (ctx, { req, res, method, path }) => {
  const step = STEP.exec(path);
  const known =
    path === "/consent" || path === "/widget/pull/consentAndConnect" || path === "/widget/pull/reconnectToken" || step;
  if (!known) return false;
  if (method !== "POST") return fail(res, 405, "METHOD_NOT_ALLOWED");

  if (path === "/consent") {
    // The SDK flow calls this from the consumer's device, so no client secret is asked for.
    // Nothing later asks for the token back (no documented call takes it), so none is kept.
    if (!(await readBody(req, res, consentSchema))) return true;
    return send(res, 200, { consent_token: `cst_${randomBytes(24).toString("hex")}` });
  }

  if (path === "/widget/pull/consentAndConnect") {
    if (!teamAuthOk(req, ctx.options.clientId, ctx.options.clientSecret)) return fail(res, 401, "UNAUTHORIZED");
    const body = await readBody(req, res, consentAndConnectSchema);
    if (!body) return true;
    const link = submitLink(ctx, {
      insurerName: body.insurerName,
      username: body.insurerUsername,
      password: body.insurerPassword ?? null,
      publicAlias: body.public_alias,
      metaData: body.meta_data ?? null,
    });
    return link.ok
      ? send(res, 200, { pull_id: link.pull_id, pull_jwt: link.pull_jwt })
      : fail(res, link.status, link.code, link.message);
  }

  if (path === "/widget/pull/reconnectToken") {
    if (!clientAuthOk(ctx, req)) return fail(res, 401, "UNAUTHORIZED");
    const body = await readBody(req, res, reconnectSchema);
    if (!body) return true;
    // An agency without whitelabel access reconnects on the service's hosted page (its
    // reconnect_url); the answer's code is not published, see README.
    if (!teamState(ctx).plan.whitelabel) return fail(res, 403, "FORBIDDEN");
    const redeemed = redeemReconnectToken(ctx, body.reconnect_token);
    if (!redeemed.ok) return fail(res, 400, redeemed.code);
    return send(res, 200, { pull_id: redeemed.pullId, pull_jwt: issuePullJwt(ctx, redeemed.pullId) });
  }

  if (!step) return false;
  const pullId = step[1] ?? "";
  const jwt = req.headers["pull-jwt"];
  // The service answers a pull-jwt that does not open this pull with 403 UNAUTHORIZED.
  if (!pullJwtAllows(ctx, typeof jwt === "string" ? jwt : undefined, pullId)) return fail(res, 403, "UNAUTHORIZED");
  let result: StepResult;
  if (step[2] === "connect") {
    const body = await readBody(req, res, connectSchema);
    if (!body) return true;
    result = connect(ctx, pullId, {
      insurerName: body.insurerName,
      username: body.insurerUsername,
      password: body.insurerPassword ?? null,
    });
  } else if (step[2] === "idvoptions") {
    const body = await readBody(req, res, optionSchema);
    if (!body) return true;
    result = chooseOption(ctx, pullId, body.optionKey);
  } else {
    const body = await readBody(req, res, codeSchema);
    if (!body) return true;
    result = submitCode(ctx, pullId, body.mfaValue);
  }
  if (!result.ok) return fail(res, result.status, result.code, result.message);
  // connect answers in its published envelope (shouldPoll is deprecated); idvoptions and idv bare.
  return send(res, 200, step[2] === "connect" ? { pull: { pull_id: pullId }, shouldPoll: true } : { pull_id: pullId });
};
