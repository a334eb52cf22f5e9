// GET /api/v1/pulls/{pull_id} — one pull in the API's shape (scope pulls:read).
// PATCH /api/v1/pulls/{pull_id} — its stage, premium or owner, through the pages' commands (scope pulls:write).
import { commandRefusal } from "@/lib/api/errors";
import { withApiKey } from "@/lib/api/guard";
import { changeApiPull, getApiPull, PATCH_FIELD_NAMES } from "@/lib/api/pulls";
import { pullIdParamsSchema, pullPatchSchema } from "@/lib/api/schemas";

export const dynamic = "force-dynamic";

export const GET = withApiKey(
  {
    scope: "pulls:read",
    route: "GET /api/v1/pulls/{pull_id}",
    params: pullIdParamsSchema,
    pullIdOf: (params) => params.pull_id,
  },
  async ({ db, actor, params }) => {
    const found = await getApiPull(db, actor, params.pull_id);
    return found.ok ? { status: 200, body: found.pull } : commandRefusal(found);
  },
);

export const PATCH = withApiKey(
  {
    scope: "pulls:write",
    route: "PATCH /api/v1/pulls/{pull_id}",
    params: pullIdParamsSchema,
    body: pullPatchSchema,
    pullIdOf: (params) => params.pull_id,
  },
  async ({ db, actor, params, body }) => {
    const changed = await changeApiPull(db, actor, params.pull_id, body);
    const audit = { details: { change: body } };
    return changed.ok
      ? { status: 200, body: changed.pull, audit }
      : { ...commandRefusal(changed, PATCH_FIELD_NAMES), audit };
  },
);
