// GET /api/pulls/[pullId]/version — a fingerprint of what the pull page shows (every read of its
// loader: lib/loaders/pull-page-inputs.ts), polled by an open page so it refreshes itself when it changes.
import { z } from "zod";
import { notFoundJson, withUser } from "@/lib/auth/route-guard";
import { getPullPageVersion } from "@/lib/loaders/pull-page-version";

export const dynamic = "force-dynamic";

export const GET = withUser(
  "pulls:view",
  async ({ user, params, db }) => {
    const version = await getPullPageVersion(db, user, params.pullId);
    return version === null ? notFoundJson() : Response.json({ version }, { headers: { "cache-control": "no-store" } });
  },
  { params: z.object({ pullId: z.uuid() }) },
);
