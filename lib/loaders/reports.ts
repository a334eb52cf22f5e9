import "server-only";
import type { Db } from "@/db/types";
import { listPullFilterOptions } from "@/lib/pulls/queries";
import type { ServiceConfig } from "@/lib/service/client";
import type { SearchParams } from "@/lib/url/search-params";
import { nameLinks, getLinkNames } from "@/lib/reports/link-names";
import { getLostReasons, getReport, type LostRow, type Report } from "@/lib/reports/queries";
import { quickRanges, type QuickRange } from "@/lib/reports/quick-ranges";
import { parseReportFilter, type ReportFilter } from "@/lib/reports/report-filter";
import { reportFilterFor } from "@/lib/reports/office-filter";
import { scopingOffice } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { listOffices } from "@/lib/users/offices";

// Everything the reports page (app/(app)/reports/page.tsx) shows, in one call: the page renders
// it, and the benchmark (bench/run.ts) times this very function beside its SQL. The links its
// figures drill down to are in ./report-links.ts.

export type ReportsPage = {
  filter: ReportFilter;
  ignored: string[];
  report: Report;
  /** Pulls lost in the range, by why, the carrier that won them, and agent. */
  lostReasons: LostRow[];
  /** The agents the filter offers: every active user (a manager of an office: the office's). */
  people: Array<{ id: string; name: string }>;
  /** The offices the filter offers: every office for those who see the whole agency, else none. */
  offices: Array<{ id: string; name: string }>;
  /** The lines of business the filter offers: those the stored pulls contain. */
  lines: string[];
  /** "Last 30 days", "This quarter"…: links that set From and To, from today's date. */
  ranges: QuickRange[];
  /** False when the service did not name the links (the per-link table shows aliases); absent when it was not asked. */
  linkNamesAnswered?: boolean;
};

export async function loadReportsPage(
  db: Db,
  searchParams: SearchParams,
  /** The service, to name the links (./link-names.ts, cached); without it the aliases stand. */
  service?: ServiceConfig,
  /** Who is looking: a manager of an office sees its figures only; absent (a benchmark), the whole agency. */
  viewer?: Pick<Actor, "id" | "role" | "officeId">,
): Promise<ReportsPage> {
  const parsed = parseReportFilter(searchParams);
  const filter = viewer ? reportFilterFor(viewer, parsed.filter) : parsed.filter;
  const { ignored } = parsed;
  const office = viewer ? scopingOffice(viewer) : null;
  // The filter options name every active user already (reports see every pull, or the office's):
  // no separate users query. The link names are asked beside the queries, so they add no wait of
  // their own.
  const [report, options, lostReasons, names, officeChoices] = await Promise.all([
    getReport(db, filter),
    listPullFilterOptions(db, office ? { kind: "office", officeId: office } : { kind: "all" }),
    getLostReasons(db, filter),
    service ? getLinkNames(service) : null,
    office ? [] : listOffices(db),
  ]);
  return {
    filter,
    ignored,
    report: names ? { ...report, sourcesByLink: nameLinks(report.sourcesByLink, names) } : report,
    lostReasons,
    people: options.assignees,
    offices: officeChoices.map((o) => ({ id: o.id, name: o.name })),
    lines: options.policyTypes,
    ranges: quickRanges(filter),
    linkNamesAnswered: names?.answered,
  };
}
