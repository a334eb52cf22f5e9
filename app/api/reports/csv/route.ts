// GET /api/reports/csv?table=byAgent&from=… — one table of the reports page as CSV.
import { z } from "zod";
import { getDb } from "@/lib/database";
import { userAllowedTo } from "@/lib/auth/session";
import { csvResponse } from "@/lib/csv/to-csv";
import { getReport } from "@/lib/reports/queries";
import { REPORT_TABLES, reportCsv, reportTableRowCount } from "@/lib/reports/report-csv";
import { parseReportFilter } from "@/lib/reports/report-filter";
import { recordAudit } from "@/lib/workflow/audit";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const user = await userAllowedTo("reports:view");
  if (!user) return Response.json({ error: "NOT_FOUND" }, { status: 404 });
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const table = z.enum(REPORT_TABLES).safeParse(params.table);
  if (!table.success) return Response.json({ error: "INVALID_TABLE", message: `table must be one of ${REPORT_TABLES.join(", ")}` }, { status: 400 });
  const db = await getDb();
  const { filter } = parseReportFilter(params);
  const report = await getReport(db, filter);
  const body = reportCsv(report, table.data);
  await recordAudit(db, user, "CSV_EXPORTED", { details: { export: `reports:${table.data}`, filters: filter, rows: reportTableRowCount(report, table.data) } });
  return csvResponse(`coverdesk-${table.data}`, body);
}
