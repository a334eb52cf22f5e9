// GET /api/v1/pulls/{pull_id}/exports/{format} — the pull as EZLynx applicant XML (scope pulls:read).
import { apiError } from "@/lib/api/errors";
import { withApiKey } from "@/lib/api/guard";
import { pullExportParamsSchema } from "@/lib/api/schemas";
import { makeEzlynxExport } from "@/lib/handoff/export";

export const dynamic = "force-dynamic";

export const GET = withApiKey(
  {
    scope: "pulls:read",
    route: "GET /api/v1/pulls/{pull_id}/exports/{format}",
    params: pullExportParamsSchema,
    pullIdOf: (params) => params.pull_id,
  },
  async ({ db, actor, params }) => {
    // The same file, audit entry and DPPA redisclosure record as the pull page's download.
    const made = await makeEzlynxExport(db, actor, params.pull_id, params.format);
    if (!made) return apiError("NOT_FOUND", "That linked account does not exist, or has nothing this file carries.");
    return {
      status: 200,
      body: null,
      file: { content: made.xml, contentType: "application/xml; charset=utf-8", filename: made.filename },
      audit: { details: { format: params.format } },
    };
  },
);
