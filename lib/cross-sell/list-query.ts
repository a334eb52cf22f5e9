import { z } from "zod";
import { pageNumber } from "@/lib/url/page-number";
import { parseSearchFields, type SearchParams } from "@/lib/url/search-params";
import { listHref, type HrefChanges } from "@/lib/url/list-href";
import { PULL_STAGES } from "@/lib/core/pull-stages";
import { GAP_CODES } from "./gaps";

// The cross-sell list's state, read from the URL like the X-dates' (lib/xdates/xdates-query.ts):
// every part optional, a bad value dropped and named, so a shared link never breaks the page.

/** Households by how many policies they hold in force: one, two, three, four or more. */
export const POLICY_BUCKETS = ["1", "2", "3", "4+"] as const;
export type PolicyBucket = (typeof POLICY_BUCKETS)[number];

const fields = {
  gap: z.enum(GAP_CODES),
  policies: z.enum(POLICY_BUCKETS),
  agent: z.union([z.literal("unassigned"), z.uuid()]),
  stage: z.enum(PULL_STAGES),
  page: pageNumber(),
} as const;

type Fields = typeof fields;
export type CrossSellQuery = { [K in keyof Fields]?: z.output<Fields[K]> };

export function parseCrossSellQuery(params: SearchParams): { query: CrossSellQuery; ignored: string[] } {
  const { values, ignored } = parseSearchFields(fields, params);
  return { query: values, ignored };
}

/** The URL of a view: the query as search parameters, in a stable order, without empties or page 1. */
export function crossSellHref(
  query: CrossSellQuery,
  changes: HrefChanges<CrossSellQuery> = {},
  path = "/cross-sell",
): string {
  return listHref(path, Object.keys(fields), query, changes);
}
