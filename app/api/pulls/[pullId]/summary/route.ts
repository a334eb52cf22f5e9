// GET /api/pulls/[pullId]/summary — the household's coverage review as a one-page, client-ready
// PDF, for a viewer allowed to see the pull; each one made is in the audit trail.
import { notFoundJson, withUser } from "@/lib/auth/route-guard";
import { env } from "@/lib/env";
import { makeClientSummary, summaryParams } from "@/lib/review/client-summary";

export const dynamic = "force-dynamic";

export const GET = withUser(
  "pulls:view",
  async ({ user, params, db }) => {
    const made = await makeClientSummary(db, env().service, user, params.pullId);
    if (!made) return notFoundJson();
    return new Response(Buffer.from(made.bytes), {
      headers: {
        "content-type": "application/pdf",
        "content-disposition": `attachment; filename="${made.filename}"`,
        "content-length": String(made.bytes.byteLength),
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  },
  { params: summaryParams },
);
