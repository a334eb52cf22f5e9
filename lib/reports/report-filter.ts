import { z } from "zod";

// The reports' filters, read from the URL like the pull list's: dates, agent, line of business
// and link. A bad value is dropped and named rather than failing the page.

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)));
const fields = {
  from: day,
  to: day,
  agent: z.uuid(),
  line: z.string().trim().regex(/^[A-Z0-9_]{2,40}$/),
  link: z.string().trim().min(1).max(200),
  period: z.enum(["week", "month"]),
} as const;

export type ReportFilter = { [K in keyof typeof fields]?: z.output<(typeof fields)[K]> };

export function parseReportFilter(params: Record<string, string | string[] | undefined>): { filter: ReportFilter; ignored: string[] } {
  const filter: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [key, schema] of Object.entries(fields)) {
    const raw = params[key];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value === undefined || value.trim() === "") continue;
    const parsed = (schema as z.ZodType).safeParse(value);
    if (parsed.success) filter[key] = parsed.data;
    else ignored.push(key);
  }
  return { filter: filter as ReportFilter, ignored };
}

/** Inclusive day range as instants: [from 00:00 UTC, the day after `to` 00:00 UTC). */
export function rangeOf(filter: ReportFilter): { start: Date | null; end: Date | null } {
  return {
    start: filter.from ? new Date(`${filter.from}T00:00:00Z`) : null,
    end: filter.to ? new Date(Date.parse(`${filter.to}T00:00:00Z`) + 86_400_000) : null,
  };
}
