import "server-only";
import type { Db } from "@/db/types";
import { listPullFilterOptions } from "@/lib/pulls/queries";
import type { SearchParams } from "@/lib/url/search-params";
import { getLostReasons, getReport, type LostRow, type Report } from "./queries";
import { quickRanges, type QuickRange } from "./quick-ranges";
import { parseReportFilter, type ReportFilter } from "./report-filter";

// Everything the reports page (app/(app)/reports/page.tsx) shows, in one call: the page renders
// it, and the benchmark (bench/run.ts) times this very function beside its SQL. The links its
// figures drill down to are in ./report-links.ts.

export type ReportsPage = {
  filter: ReportFilter;
  ignored: string[];
  report: Report;
  /** Pulls lost in the range, by why, the carrier that won them, and agent. */
  lostReasons: LostRow[];
  /** The agents the filter offers: every active user. */
  people: Array<{ id: string; name: string }>;
  /** The lines of business the filter offers: those the stored pulls contain. */
  lines: string[];
  /** "Last 30 days", "This quarter"…: links that set From and To, from today's date. */
  ranges: QuickRange[];
};

export async function loadReportsPage(db: Db, searchParams: SearchParams): Promise<ReportsPage> {
  const { filter, ignored } = parseReportFilter(searchParams);
  // The filter options name every active user already (reports see every pull): no separate
  // users query.
  const [report, options, lostReasons] = await Promise.all([
    getReport(db, filter),
    listPullFilterOptions(db, { kind: "all" }),
    getLostReasons(db, filter),
  ]);
  return {
    filter,
    ignored,
    report,
    lostReasons,
    people: options.assignees,
    lines: options.policyTypes,
    ranges: quickRanges(filter),
  };
}
