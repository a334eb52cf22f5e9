import { z } from "zod";
import { dayRange, parseSearchFields, type SearchParams } from "@/lib/url/search-params";

// The reports' filters, read from the URL like the pull list's: dates, agent, office, line of
// business, link and the period figures are grouped by. A bad value is dropped and named rather than
// failing the page.

/** What "by period" figures are grouped by: each a PostgreSQL date_trunc unit. */
export const REPORT_PERIODS = ["week", "month", "quarter"] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)));
const fields = {
  from: day,
  to: day,
  agent: z.uuid(),
  /** Figures of the agents of one office (./office-filter.ts); forced for a manager of an office. */
  office: z.uuid(),
  line: z
    .string()
    .trim()
    .regex(/^[A-Z0-9_]{2,40}$/),
  link: z.string().trim().min(1).max(200),
  period: z.enum(REPORT_PERIODS),
} as const;

export type ReportFilter = { [K in keyof typeof fields]?: z.output<(typeof fields)[K]> };

export function parseReportFilter(params: SearchParams): { filter: ReportFilter; ignored: string[] } {
  const { values, ignored } = parseSearchFields(fields, params);
  return { filter: values, ignored };
}

export function rangeOf(filter: ReportFilter): { start: Date | null; end: Date | null } {
  return dayRange(filter.from, filter.to);
}
