import type { ServerResponse } from "node:http";
import { z } from "zod";
import { describeIssues, type SandboxContext } from "../context";
import { fail, send } from "../http";
import { teamState } from "../flows/team-state";

// Control API: POST /_sandbox/plan {policyCheck?, policySearch?, enrichment?, whitelabel?} switches plan-gated features
// on or off for the running sandbox, so tests can see both answers of a gated route. The
// control API's reset goes back to SandboxOptions.plan.

const planSchema = z.strictObject({
  policyCheck: z.boolean().optional(),
  policySearch: z.boolean().optional(),
  enrichment: z.boolean().optional(),
  whitelabel: z.boolean().optional(),
});

export function planControl(ctx: SandboxContext, body: unknown, res: ServerResponse): true {
  const parsed = planSchema.safeParse(body);
  if (!parsed.success) return fail(res, 400, "INVALID_INPUT", describeIssues(parsed.error.issues));
  const team = teamState(ctx);
  team.plan = { ...team.plan, ...parsed.data };
  return send(res, 200, { plan: team.plan });
}
