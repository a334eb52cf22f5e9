// POST /api/v1/pulls/{pull_id}/handoffs — the pull sent to AgencyZoom as a lead: created, or the kept lead updated (scope handoffs:write).
import { withApiKey } from "@/lib/api/guard";
import { createApiHandoff, handoffCreateSchema } from "@/lib/api/handoffs";
import { pullIdParamsSchema } from "@/lib/api/schemas";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";

export const POST = withApiKey(
  {
    scope: "handoffs:write",
    route: "POST /api/v1/pulls/{pull_id}/handoffs",
    params: pullIdParamsSchema,
    body: handoffCreateSchema,
    pullIdOf: (params) => params.pull_id,
  },
  async ({ db, actor, params, body }) => {
    const answer = await createApiHandoff(db, env().agencyzoom, actor, params.pull_id, body);
    return { ...answer, audit: { details: { target: body.target } } };
  },
);
