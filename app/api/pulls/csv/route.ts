// GET /api/pulls/csv?<the list's filters> — the pull list as the viewer sees it, as CSV.
import { getDb } from "@/lib/database";
import { viewScope } from "@/lib/auth/permissions";
import { userAllowedTo } from "@/lib/auth/session";
import { csvResponse, toCsv, type Cell } from "@/lib/csv/to-csv";
import { parsePullListQuery } from "@/lib/pulls/list-query";
import { listPulls } from "@/lib/pulls/queries";
import { centsToDollars } from "@/lib/reports/report-csv";
import { searchParamsOf } from "@/lib/url/search-params";
import { recordAudit } from "@/lib/workflow/audit";

export const dynamic = "force-dynamic";

/** One file at most this long; a larger book is exported by narrowing the filters. */
const MAX_ROWS = 50_000;

export async function GET(request: Request) {
  const user = await userAllowedTo("pulls:view");
  if (!user) return Response.json({ error: "NOT_FOUND" }, { status: 404 });
  const { query } = parsePullListQuery(searchParamsOf(request.url));
  const db = await getDb();
  const { rows } = await listPulls(db, viewScope(user), { ...query, page: 1 }, MAX_ROWS);
  const body = toCsv(
    ["first name", "last name", "email", "provider", "lines", "total premium", "next expiry", "status", "stage", "assignee", "linked", "pull id"],
    rows.map((r): Cell[] => [r.firstName, r.lastName, r.email, r.providerFriendlyName ?? r.providerName, r.policyTypes.join(" + "), r.totalPremiumCents === null ? null : centsToDollars(r.totalPremiumCents), r.nextExpiryDate, r.status, r.stage, r.assigneeName, r.serviceCreatedAt?.toISOString() ?? null, r.pullId]),
  );
  // Personal data leaving the app: who took which slice of the book, and how much of it.
  await recordAudit(db, user, "CSV_EXPORTED", { details: { export: "pulls", filters: { ...query, page: undefined }, rows: rows.length } });
  return csvResponse("coverdesk-pulls", body);
}
