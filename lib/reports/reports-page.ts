import "server-only";
import type { Db } from "@/db/types";
import { listPullFilterOptions } from "@/lib/pulls/queries";
import { pullListHref } from "@/lib/pulls/list-query";
import type { SearchParams } from "@/lib/url/search-params";
import { getReport, type Report, type Row } from "./queries";
import { parseReportFilter, type ReportFilter } from "./report-filter";

// Everything the reports page (app/(app)/reports/page.tsx) shows, in one call, and the links
// its figures drill down to: the page renders it, and the benchmark (bench/run.ts) times this
// very function beside its SQL.

export type ReportsPage = {
  filter: ReportFilter;
  ignored: string[];
  report: Report;
  /** The agents the filter offers: every active user. */
  people: Array<{ id: string; name: string }>;
  /** The lines of business the filter offers: those the stored pulls contain. */
  lines: string[];
};

export async function loadReportsPage(db: Db, searchParams: SearchParams): Promise<ReportsPage> {
  const { filter, ignored } = parseReportFilter(searchParams);
  // The filter options name every active user already (reports see every pull): no separate
  // users query.
  const [report, options] = await Promise.all([getReport(db, filter), listPullFilterOptions(db, { kind: "all" })]);
  return { filter, ignored, report, people: options.assignees, lines: options.policyTypes };
}

/** A ratio as a percentage with one decimal, or a dash when there is none. */
export const percent = (ratio: number | null) => (ratio === null ? "—" : `${Math.round(ratio * 1000) / 10}%`);

/** The pulls behind a won-premium figure: WON, won in the range, and the row's own group. */
export function wonHref(filter: ReportFilter, extra: Record<string, string | undefined>): string {
  return pullListHref(
    {
      stage: "WON",
      link: filter.link,
      policyType: filter.line,
      wonFrom: filter.from,
      wonTo: filter.to,
      wonBy: filter.agent,
    },
    extra,
  );
}

/** One table of the page as CSV, with the page's filter. */
export function csvHref(table: string, filter: ReportFilter): string {
  const params = new URLSearchParams(
    Object.entries({ ...filter, table }).filter((e): e is [string, string] => typeof e[1] === "string"),
  );
  return `/api/reports/csv?${params.toString()}`;
}

/** The last day of the week or month that starts on `start`. */
export function periodEnd(period: Report["period"], start: string): string {
  const end = new Date(Date.parse(`${start}T00:00:00Z`) + (period === "week" ? 6 : 0) * 86_400_000);
  if (period === "month") end.setUTCMonth(end.getUTCMonth() + 1, 0);
  return end.toISOString().slice(0, 10);
}

/** The won pulls of one period's row. */
export function periodHref(filter: ReportFilter, period: Report["period"], row: Row): string {
  return wonHref(filter, { wonFrom: row.key, wonTo: periodEnd(period, row.key) });
}
