// GET /api/admin/incident/csv?user=…&from=…&to=… — the incident-scope report as CSV (audited).
import { withUser } from "@/lib/auth/route-guard";
import { readIncidentRequest } from "@/lib/audit/incident-scope";
import { exportIncidentScopeCsv } from "@/lib/csv/audit-exports";
import { csvResponse } from "@/lib/csv/to-csv";
import { searchParamsOf } from "@/lib/url/search-params";

export const dynamic = "force-dynamic";

export const GET = withUser("incident:view", async ({ request, user, db }) => {
  const asked = readIncidentRequest(searchParamsOf(request.url));
  if (asked.status !== "ready")
    return Response.json(
      {
        error: "INVALID_FILTERS",
        message: asked.status === "refused" ? asked.message : "Give a window (from, to) and any of user, session, ip.",
      },
      { status: 400 },
    );
  return csvResponse("coverdesk-incident-scope", await exportIncidentScopeCsv(db, user, asked.input));
});
