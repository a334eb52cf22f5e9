import "server-only";
import type { SearchParams } from "@/lib/url/search-params";
import type { Db } from "@/db/types";
import type { Actor } from "@/lib/core/actor";
import type { ServiceConfig } from "@/lib/service/client";
import { recordAudit } from "@/lib/audit/audit-log";
import { nameLinks, getLinkNames } from "./link-names";
import { getReport } from "./queries";
import { reportCsv, reportTableRowCount, type ReportTable } from "./report-csv";
import { parseReportFilter } from "./report-filter";
import { reportFilterFor } from "./office-filter";

/** One table of the reports page, with the page's filters, as CSV; each export goes on the audit trail. */
export async function exportReportTableCsv(
  db: Db,
  user: Actor,
  table: ReportTable,
  searchParams: SearchParams,
  /** The service, to name the links of the per-link table as the page does. */
  service?: ServiceConfig,
): Promise<string> {
  // A manager of an office exports their office's figures only, as the page shows them.
  const filter = reportFilterFor(user, parseReportFilter(searchParams).filter);
  const [found, names] = await Promise.all([
    getReport(db, filter),
    service && table === "sourcesByLink" ? getLinkNames(service) : null,
  ]);
  const report = names ? { ...found, sourcesByLink: nameLinks(found.sourcesByLink, names) } : found;
  const body = reportCsv(report, table);
  await recordAudit(db, user, "CSV_EXPORTED", {
    details: { export: `reports:${table}`, filters: filter, rows: reportTableRowCount(report, table) },
  });
  return body;
}
