// GET /api/reports/csv?table=byAgent&from=… — one table of the reports page as CSV.
import { z } from "zod";
import { getDb } from "@/db/client";
import { userAllowedTo } from "@/lib/auth/session";
import { csvResponse } from "@/lib/csv/to-csv";
import { getReport } from "@/lib/reports/queries";
import { REPORT_TABLES, reportCsv } from "@/lib/reports/report-csv";
import { parseReportFilter } from "@/lib/reports/report-filter";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  if (!(await userAllowedTo("reports:view"))) return Response.json({ error: "NOT_FOUND" }, { status: 404 });
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const table = z.enum(REPORT_TABLES).safeParse(params.table);
  if (!table.success) return Response.json({ error: "INVALID_TABLE", message: `table must be one of ${REPORT_TABLES.join(", ")}` }, { status: 400 });
  const report = await getReport(await getDb(), parseReportFilter(params).filter);
  return csvResponse(`coverdesk-${table.data}`, reportCsv(report, table.data));
}
