// GET /api/xdates/csv?<the X-dates page's filters> — the X-date list as the viewer sees it, as CSV.
import { withUser } from "@/lib/auth/route-guard";
import { csvResponse } from "@/lib/csv/to-csv";
import { withReadDb } from "@/lib/database";
import { searchParamsOf } from "@/lib/url/search-params";
import { exportXDatesCsv } from "@/lib/xdates/xdates-csv";

export const dynamic = "force-dynamic";

// The rows from a replica when one has replayed this user's last write; the audit line on the primary.
export const GET = withUser("xdates:view", async ({ request, user }) =>
  csvResponse("coverdesk-xdates", await withReadDb((db) => exportXDatesCsv(db, user, searchParamsOf(request.url)))),
);
