import { pullListHref } from "@/lib/pulls/list-query";
import { periodEnd } from "./periods";
import type { ReportFilter, ReportPeriod } from "./report-filter";

// The links of the reports page: to the pulls behind a figure, to a table's CSV. Pure, so the
// page's components use them without the loader (lib/loaders/reports.ts, server-only).

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

/** The won pulls of one period (an agent's share of it, with `wonBy`). */
export function periodHref(filter: ReportFilter, period: ReportPeriod, start: string, wonBy?: string): string {
  return wonHref(filter, { wonFrom: start, wonTo: periodEnd(period, start), ...(wonBy ? { wonBy } : {}) });
}
