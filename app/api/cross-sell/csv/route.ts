// GET /api/cross-sell/csv?<the cross-sell page's filters> — the households list as the viewer sees it, as CSV.
import { withUser } from "@/lib/auth/route-guard";
import { csvResponse } from "@/lib/csv/to-csv";
import { exportCrossSellCsv } from "@/lib/cross-sell/csv";
import { searchParamsOf } from "@/lib/url/search-params";

export const dynamic = "force-dynamic";

export const GET = withUser("cross-sell:view", async ({ request, user, db }) =>
  csvResponse("coverdesk-cross-sell", await exportCrossSellCsv(db, user, searchParamsOf(request.url))),
);
