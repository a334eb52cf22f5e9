// GET /api/pulls/csv?<the list's filters> — the pull list as the viewer sees it, as CSV.
import { withUser } from "@/lib/auth/route-guard";
import { csvResponse } from "@/lib/csv/to-csv";
import { exportPullListCsv } from "@/lib/pulls/list-csv";
import { searchParamsOf } from "@/lib/url/search-params";

export const dynamic = "force-dynamic";

export const GET = withUser("pulls:view", async ({ request, user, db }) =>
  csvResponse("coverdesk-pulls", await exportPullListCsv(db, user, searchParamsOf(request.url))),
);
