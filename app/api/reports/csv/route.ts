// GET /api/reports/csv?table=byAgent&from=… — one table of the reports page as CSV.
import { z } from "zod";
import { getDb } from "@/lib/database";
import { userAllowedTo } from "@/lib/auth/session";
import { csvResponse } from "@/lib/csv/to-csv";
import { getReport } from "@/lib/reports/queries";
import { REPORT_TABLES, reportCsv, reportTableRowCount } from "@/lib/reports/report-csv";
import { parseReportFilter } from "@/lib/reports/report-filter";
import { parseSearchFields, searchParamsOf } from "@/lib/url/search-params";
import { recordAudit } from "@/lib/workflow/audit";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const user = await userAllowedTo("reports:view");
  if (!user) return Response.json({ error: "NOT_FOUND" }, { status: 404 });
  const params = searchParamsOf(request.url);
  const { table } = parseSearchFields({ table: z.enum(REPORT_TABLES) }, params).values;
  if (!table) return Response.json({ error: "INVALID_TABLE", message: `table must be one of ${REPORT_TABLES.join(", ")}` }, { status: 400 });
  const db = await getDb();
  const { filter } = parseReportFilter(params);
  const report = await getReport(db, filter);
  const body = reportCsv(report, table);
  await recordAudit(db, user, "CSV_EXPORTED", { details: { export: `reports:${table}`, filters: filter, rows: reportTableRowCount(report, table) } });
  return csvResponse(`coverdesk-${table}`, body);
}
