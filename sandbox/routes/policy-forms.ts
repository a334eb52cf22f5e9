import type { Routes } from "../context";
import { getPolicyForm } from "../documents/policy-forms";
import { fail, send } from "../http";
import { signedFileUrl } from "./downloads";

// Team route of policy forms (service-notes, "Policy forms"), the same contract as document
// downloads: GET /policyForms/{policyFormId} → 302 with a short-lived signed link in Location
// and as { url }; the link serves the form as a PDF without credentials. 404 NOT_FOUND.

export const policyFormRoutes: Routes = async (ctx, { res, method, path }) => {
  const match = /^\/policyForms\/([^/]+)$/.exec(path);
  if (!match) return false;
  if (method !== "GET") return fail(res, 405, "METHOD_NOT_ALLOWED");
  const formId = match[1] ?? "";
  if (!getPolicyForm(ctx.state.pulls.values(), formId)) return fail(res, 404, "NOT_FOUND");
  const url = signedFileUrl(ctx, { kind: "form", formId });
  return send(res, 302, { url }, { location: url, "cache-control": "no-store" });
};
