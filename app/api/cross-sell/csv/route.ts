// GET /api/cross-sell/csv?<the cross-sell page's filters> — the households list as the viewer sees it, as CSV.
import { withUser } from "@/lib/auth/route-guard";
import { csvResponse } from "@/lib/csv/to-csv";
import { withReadDb } from "@/lib/database";
import { exportCrossSellCsv } from "@/lib/cross-sell/csv";
import { searchParamsOf } from "@/lib/url/search-params";

export const dynamic = "force-dynamic";

// The rows from a replica when one has replayed this user's last write; the audit line on the primary.
export const GET = withUser("cross-sell:view", async ({ request, user }) =>
  csvResponse(
    "coverdesk-cross-sell",
    await withReadDb((db) => exportCrossSellCsv(db, user, searchParamsOf(request.url))),
  ),
);
