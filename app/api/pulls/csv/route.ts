// GET /api/pulls/csv?<the list's filters> — the pull list as the viewer sees it, as a streamed CSV.
import { withUser } from "@/lib/auth/route-guard";
import { filtersRefused } from "@/lib/csv/stream-export";
import { csvResponse } from "@/lib/csv/to-csv";
import { pullListExportRequest, streamPullListCsv } from "@/lib/pulls/list-csv";
import { searchParamsOf } from "@/lib/url/search-params";

export const dynamic = "force-dynamic";

export const GET = withUser("pulls:view", async ({ request, user, db }) => {
  const asked = pullListExportRequest(searchParamsOf(request.url));
  if (asked.status === "refused") return filtersRefused(asked.ignored);
  return csvResponse("coverdesk-pulls", streamPullListCsv(db, db, user, asked.query));
});
