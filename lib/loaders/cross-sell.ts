import "server-only";
import type { Db } from "@/db/types";
import { viewScope } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import type { SearchParams } from "@/lib/url/search-params";
import { pageCountOf, pageSlice } from "@/lib/url/page-number";
import { listAgentChoices } from "@/lib/pulls/visibility";
import {
  crossSellCountsAndRows,
  CROSS_SELL_PAGE_SIZE,
  type CrossSellCounts,
  type CrossSellRow,
} from "@/lib/cross-sell/queries";
import { parseCrossSellQuery, type CrossSellQuery } from "@/lib/cross-sell/list-query";

// Everything the cross-sell page (app/(app)/cross-sell/page.tsx) shows, in one call: the page
// renders it, and the benchmark (bench/run.ts, "cross-sell …") times this very function.

export type CrossSellPage = {
  query: CrossSellQuery;
  /** Parts of the URL that could not be read, left out and named on the page. */
  ignored: string[];
  counts: CrossSellCounts;
  rows: CrossSellRow[];
  page: number;
  pageCount: number;
  agents: Array<{ id: string; name: string }>;
  /** Agents see their own households and the unassigned queue's; managers and admins everyone's. */
  seesAll: boolean;
};

export async function loadCrossSellPage(db: Db, user: Actor, searchParams: SearchParams): Promise<CrossSellPage> {
  const { query, ignored } = parseCrossSellQuery(searchParams);
  const viewer = viewScope(user, "cross-sell:view");
  const page = query.page ?? 1;
  // Independent reads, in parallel.
  const [{ counts, rows }, agents] = await Promise.all([
    crossSellCountsAndRows(db, viewer, query, pageSlice(page, CROSS_SELL_PAGE_SIZE)),
    listAgentChoices(db, viewer),
  ]);
  return {
    query,
    ignored,
    counts,
    rows,
    page,
    pageCount: pageCountOf(counts.total, CROSS_SELL_PAGE_SIZE),
    agents,
    // A manager of an office sees others' rows too: the agent filter offers the office's people.
    seesAll: viewer.kind !== "own-or-unassigned",
  };
}
