// GET /api/xdates/csv?<the X-dates page's filters> — the X-date list as the viewer sees it, as a streamed CSV.
import { withUser } from "@/lib/auth/route-guard";
import { filtersRefused } from "@/lib/csv/stream-export";
import { csvResponse } from "@/lib/csv/to-csv";
import { streamReadDb } from "@/lib/database";
import { searchParamsOf } from "@/lib/url/search-params";
import { streamXDatesCsv, xdateExportRequest } from "@/lib/xdates/xdates-csv";

export const dynamic = "force-dynamic";

// The rows from a replica when one has replayed this user's last write; the audit line on the primary.
export const GET = withUser("xdates:view", async ({ request, user, db }) => {
  const asked = xdateExportRequest(searchParamsOf(request.url));
  if (asked.status === "refused") return filtersRefused(asked.ignored);
  return csvResponse("coverdesk-xdates", streamXDatesCsv(await streamReadDb(), db, user, asked.query));
});
