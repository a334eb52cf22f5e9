// GET /api/admin/sync — the latest reconciliation run, polled by the Events page while it runs.
import { withUser } from "@/lib/auth/route-guard";
import { latestSyncRunView } from "@/lib/ingest/sync-view";

export const dynamic = "force-dynamic";

export const GET = withUser("events:view", async ({ db }) =>
  Response.json({ run: await latestSyncRunView(db) }, { headers: { "cache-control": "no-store" } }),
);
