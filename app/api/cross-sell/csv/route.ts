// GET /api/cross-sell/csv?<the cross-sell page's filters> — the households list as the viewer sees it, as a streamed CSV.
import { withUser } from "@/lib/auth/route-guard";
import { crossSellExportRequest, streamCrossSellCsv } from "@/lib/cross-sell/csv";
import { filtersRefused } from "@/lib/csv/stream-export";
import { csvResponse } from "@/lib/csv/to-csv";
import { streamReadDb } from "@/lib/database";
import { searchParamsOf } from "@/lib/url/search-params";

export const dynamic = "force-dynamic";

// The rows from a replica when one has replayed this user's last write; the audit line on the primary.
export const GET = withUser("cross-sell:view", async ({ request, user, db }) => {
  const asked = crossSellExportRequest(searchParamsOf(request.url));
  if (asked.status === "refused") return filtersRefused(asked.ignored);
  return csvResponse("coverdesk-cross-sell", streamCrossSellCsv(await streamReadDb(), db, user, asked.query));
});
