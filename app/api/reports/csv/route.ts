// GET /api/reports/csv?table=byAgent&from=… — one table of the reports page as CSV.
import { z } from "zod";
import { withUser } from "@/lib/auth/route-guard";
import { csvResponse } from "@/lib/csv/to-csv";
import { withReadDb } from "@/lib/database";
import { env } from "@/lib/env";
import { REPORT_TABLES } from "@/lib/reports/report-csv";
import { exportReportTableCsv } from "@/lib/reports/report-export";
import { parseSearchFields, searchParamsOf } from "@/lib/url/search-params";

export const dynamic = "force-dynamic";

export const GET = withUser("reports:view", async ({ request, user }) => {
  const params = searchParamsOf(request.url);
  const { table } = parseSearchFields({ table: z.enum(REPORT_TABLES) }, params).values;
  if (!table)
    return Response.json(
      { error: "INVALID_TABLE", message: `table must be one of ${REPORT_TABLES.join(", ")}` },
      { status: 400 },
    );
  // The rows from a replica when one has replayed this user's last write; the audit line on the primary.
  const body = await withReadDb((db) => exportReportTableCsv(db, user, table, params, env().service));
  return csvResponse(`coverdesk-${table}`, body);
});
