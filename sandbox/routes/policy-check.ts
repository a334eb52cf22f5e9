import { z } from "zod";
import { UUID, type Routes } from "../context";
import { fail, send } from "../http";
import { policyCheckPage } from "../documents/policy-check-report";
import { renderPdf } from "../documents/pdf";
import { readBody } from "../flows/input";
import { checkPull } from "../flows/policy-check";
import {
  applySettings,
  DEFAULT_POLICY_CHECK_SETTINGS,
  settingsBodySchema,
  settingsPatchSchema,
} from "../flows/policy-check-settings";
import { teamState } from "../flows/team-state";

// Team routes of policy check (service-notes, "Policy check"), all 403 FORBIDDEN when the plan
// lacks it (SandboxOptions.plan, or POST /_sandbox/plan):
//   GET  /policyChecks/settings          { success, policy_check_settings: { vehicle, dwelling } }
//   POST /policyChecks/settings          the same body (wrapper optional) → the settings now held; 400 INVALID_INPUT
//   POST /pulls/{pullId}/policyCheck     { policy_check_settings, filters? } → { success, pull }; 404 NOT_FOUND
//   GET  /pulls/{pullId}/policyCheck/pdf the report as application/pdf; 400 NOT_FOUND (a GET of an unknown pull)

/** An on-demand run checks exactly the rules it is sent; `filters` is accepted, its shape being unpublished. */
const runSchema = z.strictObject({
  policy_check_settings: settingsPatchSchema,
  filters: z.record(z.string(), z.unknown()).optional(),
});

const PULL = /^\/pulls\/([^/]+)\/policyCheck(\/pdf)?$/;

export const policyCheckRoutes: Routes = async (ctx, { req, res, method, path }) => {
  const pullRoute = PULL.exec(path);
  if (path !== "/policyChecks/settings" && !pullRoute) return false;
  const team = teamState(ctx);
  if (!team.plan.policyCheck) return fail(res, 403, "FORBIDDEN");

  if (!pullRoute) {
    if (method === "POST") {
      const body = await readBody(req, res, settingsBodySchema);
      if (!body) return true;
      team.policyCheckSettings = applySettings(team.policyCheckSettings, body);
    } else if (method !== "GET") return fail(res, 405, "METHOD_NOT_ALLOWED");
    return send(res, 200, { success: true, policy_check_settings: team.policyCheckSettings });
  }

  const pullId = pullRoute[1] ?? "";
  const pull = UUID.test(pullId) ? ctx.state.pulls.get(pullId) : undefined;
  if (pullRoute[2]) {
    if (method !== "GET") return fail(res, 405, "METHOD_NOT_ALLOWED");
    if (!pull) return fail(res, 400, "NOT_FOUND");
    const bytes = renderPdf(policyCheckPage(pull, ctx.clock.now()), ctx.options.now ?? new Date(0));
    res.writeHead(200, {
      "content-type": "application/pdf",
      "content-length": String(bytes.length),
      "content-disposition": `inline; filename="policy-check-${pull.pull_id}.pdf"`,
      "cache-control": "private, no-store",
    });
    res.end(bytes);
    return true;
  }
  if (method !== "POST") return fail(res, 405, "METHOD_NOT_ALLOWED");
  const body = await readBody(req, res, runSchema);
  if (!body) return true;
  const checked = pull
    ? checkPull(ctx, pull.pull_id, applySettings(DEFAULT_POLICY_CHECK_SETTINGS, body.policy_check_settings))
    : null;
  if (!checked) return fail(res, 404, "NOT_FOUND");
  return send(res, 200, { success: true, pull: ctx.served(checked) });
};
