// GET /api/v1/pulls — the public API's list of pulls, keyset-paged by last change (scope pulls:read).
import { commandRefusal } from "@/lib/api/errors";
import { withApiKey } from "@/lib/api/guard";
import { listApiPulls } from "@/lib/api/pulls";
import { pullListQuerySchema } from "@/lib/api/schemas";

export const dynamic = "force-dynamic";

export const GET = withApiKey(
  { scope: "pulls:read", route: "GET /api/v1/pulls", query: pullListQuerySchema },
  async ({ db, actor, query }) => {
    const page = await listApiPulls(db, actor, query);
    if (!page.ok) return commandRefusal(page);
    return {
      status: 200,
      body: { data: page.data, next_cursor: page.nextCursor },
      audit: { details: { pulls: page.data.map((pull) => pull.pull_id) } },
    };
  },
);
