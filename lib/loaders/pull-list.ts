import "server-only";
import type { Db } from "@/db/types";
import { can, viewScope } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import type { SearchParams } from "@/lib/url/search-params";
import { listActiveUsers } from "@/lib/users/queries";
import { isFilteredQuery, parsePullListQuery, type PullListQuery } from "@/lib/pulls/list-query";
import {
  listPullFilterOptions,
  listPulls,
  PULL_PAGE_SIZE,
  type PullListOptions,
  type PullListRow,
} from "@/lib/pulls/queries";

// Everything the pull list (app/(app)/pulls/(list)/page.tsx) shows, in one call: the page
// renders it, and the benchmark (bench/run.ts) times this very function beside its SQL.

export type PullListPage = {
  query: PullListQuery;
  /** Parameters of the URL that could not be read and were left out. */
  ignored: string[];
  rows: PullListRow[];
  /** Matching pulls, counted up to PULL_COUNT_CAP. */
  total: number;
  /** There are more than `total` (the count stopped at its cap). */
  capped: boolean;
  page: number;
  /** Pages that `total` fills. */
  pageCount: number;
  /** Pages follow beyond `pageCount` (the count was capped and this page came back full). */
  morePages: boolean;
  /** Any filter or search is set (the count then says "match"). */
  filtered: boolean;
  /** The query without its page, as the pagination's links carry it. */
  pageQuery: Record<string, string>;
  options: PullListOptions;
  /** Whom the bulk form may assign to; empty when the user may not assign. */
  people: Array<{ id: string; name: string }>;
  canAssign: boolean;
};

export async function loadPullListPage(db: Db, user: Actor, searchParams: SearchParams): Promise<PullListPage> {
  const { query, ignored } = parsePullListQuery(searchParams);
  const scope = viewScope(user);
  const canAssign = can(user, "pulls:assign");
  // The filter options already name every active user when the viewer sees every pull, and
  // those are exactly whom the bulk form offers: no third query then.
  // (A manager of an office: the options name the office's people, whom they may assign to.)
  const ownPeople = canAssign && scope.kind === "own-or-unassigned";
  // Independent reads, in parallel: one round trip's wait, not three.
  const [{ rows, total, capped }, options, listed] = await Promise.all([
    listPulls(db, scope, query),
    listPullFilterOptions(db, scope),
    ownPeople ? listActiveUsers(db) : null,
  ]);
  const people = !canAssign ? [] : (listed ?? options.assignees);
  const page = query.page ?? 1;
  return {
    query,
    ignored,
    rows,
    total,
    capped,
    page,
    pageCount: Math.max(1, Math.ceil(total / PULL_PAGE_SIZE)),
    morePages: capped && rows.length === PULL_PAGE_SIZE,
    filtered: isFilteredQuery(query),
    pageQuery: Object.fromEntries(
      Object.entries(query)
        .filter(([key]) => key !== "page")
        .map(([key, value]) => [key, String(value)]),
    ),
    options,
    people: people.map((p) => ({ id: p.id, name: p.name })),
    canAssign,
  };
}
