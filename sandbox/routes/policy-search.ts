import type { Routes } from "../context";
import { fail, send } from "../http";
import { readBody } from "../flows/input";
import { policySearchSchema, submitPolicySearch } from "../flows/policy-search";
import { teamState } from "../flows/team-state";

// Team route of credential-less policy search (service-notes, "Policy search"):
//   POST /policySearch  consent fields + public_alias, insurerName, searchType, searchData
//                       → { pull_id, pull_jwt }; 400 INVALID_INPUT, INVALID_PUBLIC_ALIAS,
//                       INVALID_POLICY_LOOKUP_DATA; 403 FORBIDDEN without it in the plan;
//                       500 INTERNAL_ERROR (sandbox: zipCode 00000)

export const policySearchRoutes: Routes = async (ctx, { req, res, method, path }) => {
  if (path !== "/policySearch") return false;
  if (method !== "POST") return fail(res, 405, "METHOD_NOT_ALLOWED");
  if (!teamState(ctx).plan.policySearch) return fail(res, 403, "FORBIDDEN");
  const body = await readBody(req, res, policySearchSchema);
  if (!body) return true;
  const result = submitPolicySearch(ctx, body, body.meta_data ?? null);
  return result.ok ? send(res, 200, result.answer) : fail(res, result.status, result.code, result.message);
};
