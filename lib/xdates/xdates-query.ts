import { z } from "zod";
import { pageNumber } from "@/lib/url/page-number";
import { parseSearchFields, type SearchParams } from "@/lib/url/search-params";
import { listHref, type HrefChanges } from "@/lib/url/list-href";
import { PULL_STAGES } from "@/lib/core/pull-stages";

// The X-dates page's state, read from the URL like the pull list's (lib/pulls/list-query.ts):
// every part optional, a bad value dropped and named, so a shared link never breaks the page.

export const RANGES = [30, 60, 90, 180] as const;
export type XDateRange = (typeof RANGES)[number];
export const DEFAULT_RANGE: XDateRange = 90;

const text = (max: number) => z.string().trim().min(1).max(max);
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)));

const fields = {
  range: z.coerce
    .number()
    .int()
    .refine((n): n is XDateRange => (RANGES as readonly number[]).includes(n)),
  agent: z.union([z.literal("unassigned"), z.uuid()]),
  line: text(60).regex(/^[A-Z0-9_]+$/),
  carrier: text(100),
  stage: z.enum(PULL_STAGES),
  link: text(200),
  /** One day of the range (the calendar's "more" link). */
  day,
  page: pageNumber(),
} as const;

type Fields = typeof fields;
export type XDateQuery = { [K in keyof Fields]?: z.output<Fields[K]> };

export function parseXDateQuery(params: SearchParams): { query: XDateQuery; ignored: string[] } {
  const { values, ignored } = parseSearchFields(fields, params);
  return { query: values, ignored };
}

/** The URL of a view: the query as search parameters, in a stable order, without empties or defaults. */
export function xdatesHref(query: XDateQuery, changes: HrefChanges<XDateQuery> = {}, path = "/xdates"): string {
  return listHref(path, Object.keys(fields), query, changes, { range: DEFAULT_RANGE });
}
