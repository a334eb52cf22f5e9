import { z } from "zod";
import { pageNumber } from "@/lib/url/page-number";
import { parseSearchFields, type SearchParams } from "@/lib/url/search-params";
import { listHref, type HrefChanges } from "@/lib/url/list-href";
import { PULL_STAGES } from "@/lib/core/pull-stages";

// The pull list's state, read from the URL: search, filters, sort and page. Every part is
// optional and a bad value is dropped (and named), so a shared or hand-edited link never
// breaks the page.

export const SORTS = ["created", "name", "premium", "expiry"] as const;
export type PullSort = (typeof SORTS)[number];

const text = (max: number) => z.string().trim().min(1).max(max);
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)));

const fields = {
  q: text(100),
  status: text(40).regex(/^[A-Z_]+$/),
  type: text(40).regex(/^[A-Z_]+$/),
  carrier: text(100),
  policyType: text(60).regex(/^[A-Z0-9_]+$/),
  stage: z.enum(PULL_STAGES),
  assignee: z.union([z.literal("unassigned"), z.uuid()]),
  monitored: z.enum(["yes", "no"]),
  archived: z.enum(["include", "only"]),
  from: day,
  to: day,
  expiring: z.coerce.number().int().min(1).max(365),
  /** Drill-downs from the reports: the link, who a win is credited to, and when it was won. */
  link: text(200),
  /** An exact combination of lines, as the reports group them: "AUTO + HOMEOWNERS", or NONE. */
  lines: text(400).regex(/^[A-Z0-9_]+( \+ [A-Z0-9_]+)*$/),
  wonBy: z.uuid(),
  wonFrom: day,
  wonTo: day,
  sort: z.enum(SORTS),
  dir: z.enum(["asc", "desc"]),
  page: pageNumber(100_000),
} as const;

type Fields = typeof fields;
export type PullListQuery = { [K in keyof Fields]?: z.output<Fields[K]> };
export type ParsedListQuery = { query: PullListQuery; ignored: string[] };

/** Whether the query narrows the list (a search or any filter); sort and page do not. */
export function isFilteredQuery(query: PullListQuery): boolean {
  return (Object.keys(fields) as Array<keyof Fields>).some(
    (key) => key !== "sort" && key !== "dir" && key !== "page" && query[key] !== undefined,
  );
}

export function parsePullListQuery(params: SearchParams): ParsedListQuery {
  const { values, ignored } = parseSearchFields(fields, params);
  return { query: values, ignored };
}

/** The URL of a list view: the query as search parameters, in a stable order, without empties. */
export function pullListHref(query: PullListQuery, changes: HrefChanges<PullListQuery> = {}): string {
  return listHref("/pulls", Object.keys(fields), query, changes);
}

/** Search words, each matched anywhere in the account's searchable text. */
export function searchWords(q: string | undefined): string[] {
  if (!q) return [];
  return q.toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);
}
