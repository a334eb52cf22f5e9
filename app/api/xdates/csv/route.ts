// GET /api/xdates/csv?<the X-dates page's filters> — the X-date list as the viewer sees it, as CSV.
import { withUser } from "@/lib/auth/route-guard";
import { csvResponse } from "@/lib/csv/to-csv";
import { searchParamsOf } from "@/lib/url/search-params";
import { exportXDatesCsv } from "@/lib/xdates/xdates-csv";

export const dynamic = "force-dynamic";

export const GET = withUser("xdates:view", async ({ request, user, db }) =>
  csvResponse("coverdesk-xdates", await exportXDatesCsv(db, user, searchParamsOf(request.url))),
);
