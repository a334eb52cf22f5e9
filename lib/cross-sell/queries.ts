import "server-only";
import { and, eq, isNull, sql, type Column, type SQL } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import { qualified } from "@/db/sql";
import type { Db } from "@/db/types";
import { householdGaps, pulls, users } from "@/db/schema";
import { visibleRowsOf, type ListViewer, type PullCopy } from "@/lib/pulls/visibility";
import { GAP_CODES, gapMaskOf, gapsOfMask, type GapCode } from "./gaps";
import { keptCountGroups, type CountGroup } from "./kept-counts";
import { POLICY_BUCKETS, type CrossSellQuery, type PolicyBucket } from "./list-query";

// The cross-sell list's SQL, over household_gaps alone (one narrow row per household, with its
// pull's assignee, stage and account copied onto it and kept in step by a trigger on pulls,
// migration 0049): the access rule (lib/pulls/visibility.ts, the very rule of the pull list) and
// the agent and stage filters read the row itself. The pulls table is joined only for the page's
// 50 rows (the contact shown).
//
// What keeps it fast at 100,000 pulls and beyond:
// - the counts come in groups, by number of policies and set of gaps (a few dozen however large
//   the book); every count of the page is added up from those groups here, so the gap and
//   policies filters cost the database nothing. An admin's and an office manager's groups are
//   summed from counts kept ahead (./kept-counts.ts, migration 0050), a few thousand rows at any
//   size; an agent's are one grouped pass over their index range;
// - the page of 50 walks household_gaps_page_idx (policy_count, then the page's order, and the
//   gap mask) one number of policies at a time and merges the walks, instead of sorting every
//   household; with an agent (and a stage) each walk is a range of household_gaps_assignee_idx in
//   the same order. The walks read the index alone (a gap filter too), the 50 rows come after;
//   with kept counts, the walks of numbers of policies no household under the filters holds are
//   skipped (crossSellCountsAndRows).

export const CROSS_SELL_PAGE_SIZE = 50;

const h = householdGaps;

/** household_gaps as the access rule reads it: the household's pull, its assignee and account. */
const HOUSEHOLD_ROW: PullCopy = {
  table: h,
  pullId: h.pullId,
  assigneeId: h.assigneeId,
  officeId: h.officeId,
  accountIdentifier: h.accountIdentifier,
};

/** Households hold at least one policy in force; an empty one has nothing to cross-sell. */
const LISTED = sql`${h.policyCount} >= 1`;

/** On the gap mask (bit i: GAP_CODES[i]), which the page's indexes hold, rather than the gaps' array. */
function gapIs(gap: GapCode): SQL {
  return sql`(${h.gapMask} & ${gapMaskOf([gap])}) <> 0`;
}

const bucketOf = (policyCount: number): PolicyBucket =>
  policyCount >= 4 ? "4+" : (String(policyCount) as PolicyBucket);

/** Who may see the household, its agent and its stage, on the copies; undefined when none applies. */
function onPull(viewer: ListViewer, query: CrossSellQuery): SQL | undefined {
  return and(
    visibleRowsOf(viewer, HOUSEHOLD_ROW),
    query.agent === "unassigned" ? isNull(h.assigneeId) : query.agent ? eq(h.assigneeId, query.agent) : undefined,
    query.stage ? eq(h.stage, query.stage) : undefined,
  );
}

export type CrossSellCounts = {
  /** Households matching every filter, and the premium a year their gaps put in play. */
  total: number;
  premiumInPlayCents: number;
  /** Per gap: households with it, under every other filter (the policies one included). */
  byGap: Record<GapCode, number>;
  /** Per number of policies: households under every other filter (the gap one included). */
  byPolicies: Record<PolicyBucket, number>;
};

type Group = { policyCount: number; gaps: string[]; households: number; premium: number };

/** Every count of the page from the groups: each choice of one filter counted under the other. */
export function countsOf(groups: Group[], query: Pick<CrossSellQuery, "gap" | "policies">): CrossSellCounts {
  const counts: CrossSellCounts = {
    total: 0,
    premiumInPlayCents: 0,
    byGap: Object.fromEntries(GAP_CODES.map((code) => [code, 0])) as Record<GapCode, number>,
    byPolicies: Object.fromEntries(POLICY_BUCKETS.map((b) => [b, 0])) as Record<PolicyBucket, number>,
  };
  for (const group of groups) {
    const inGap = !query.gap || group.gaps.includes(query.gap);
    const inPolicies = !query.policies || bucketOf(group.policyCount) === query.policies;
    if (inGap && inPolicies) {
      counts.total += group.households;
      counts.premiumInPlayCents += group.premium;
    }
    if (inPolicies)
      for (const code of new Set(group.gaps))
        if (code in counts.byGap) counts.byGap[code as GapCode] += group.households;
    if (inGap) counts.byPolicies[bucketOf(group.policyCount)] += group.households;
  }
  return counts;
}

/**
 * One pass over the viewer's households (with the agent and stage filters), grouped; the rest is
 * arithmetic. What the kept counts replace where they can, and what they are checked against.
 */
export async function countCrossSellByScan(
  db: Db,
  viewer: ListViewer,
  query: CrossSellQuery,
): Promise<CrossSellCounts> {
  const columns = {
    policyCount: h.policyCount,
    gapMask: h.gapMask,
    households: sql<number>`count(*)`.mapWith(Number),
    premium: sql<number>`coalesce(sum(${h.premiumInPlayCents}), 0)`.mapWith(Number),
  };
  // Grouped by the gaps' bit mask: hashing 100,000 text arrays took most of the statement's time.
  const groups = await db
    .select(columns)
    .from(h)
    .where(and(LISTED, onPull(viewer, query)))
    .groupBy(h.policyCount, h.gapMask);
  return countsOfGroups(groups, query);
}

const countsOfGroups = (groups: CountGroup[], query: CrossSellQuery) =>
  countsOf(
    groups.map(({ gapMask, ...group }) => ({ ...group, gaps: gapsOfMask(gapMask) })),
    query,
  );

/**
 * The page's counts: from the counts kept ahead (./kept-counts.ts) for an admin or an office
 * manager, with no agent filter or the unassigned one, whatever the book's size; else (an agent's
 * own view, one agent's households) by the scan, which an agent's index range keeps small.
 */
export async function countCrossSell(db: Db, viewer: ListViewer, query: CrossSellQuery): Promise<CrossSellCounts> {
  const kept = await keptCountGroups(db, viewer, query);
  return kept ? countsOfGroups(kept, query) : countCrossSellByScan(db, viewer, query);
}

export type CrossSellRow = {
  pullId: string;
  holderName: string;
  email: string | null;
  policyCount: number;
  carrierCount: number;
  lines: string[];
  gaps: string[];
  annualPremiumCents: number | null;
  premiumInPlayCents: number | null;
  stage: string;
  assigneeId: string | null;
  assigneeName: string | null;
};

/** The many-policy tail's walk takes every number of policies from this one up. */
const TAIL = 9;

/**
 * The walks the page merges: one per number of policies (each in index order), the many-policy
 * tail last. With `held` (the numbers of policies some household under the filters holds, from
 * the kept counts) only those: a walk that would find nothing reads its whole range to say so.
 */
function walksOf(policies: PolicyBucket | undefined, held?: ReadonlySet<number>): SQL[] {
  const numbers =
    policies === "4+" ? [4, 5, 6, 7, 8, TAIL] : policies ? [Number(policies)] : [1, 2, 3, 4, 5, 6, 7, 8, TAIL];
  const walked = held ? numbers.filter((n) => (n === TAIL ? [...held].some((m) => m >= TAIL) : held.has(n))) : numbers;
  return walked.map((n) => (n === TAIL ? sql`${h.policyCount} >= ${TAIL}` : sql`${h.policyCount} = ${n}`));
}

/** The list's order over the walks' columns, named with their relation. */
const orderOf = (relation: string) =>
  sql.raw(
    `${relation}.premium_in_play_cents desc nulls last, ${relation}.annual_premium_cents desc nulls last, ${relation}.pull_id`,
  );

type RawRow = {
  pull_id: string;
  holder_name: string;
  email: string | null;
  policy_count: number | string;
  carrier_count: number | string;
  lines: string[] | null;
  gaps: string[] | null;
  annual_premium_cents: number | string | null;
  premium_in_play_cents: number | string | null;
  stage: string;
  assignee_id: string | null;
  assignee_name: string | null;
};

const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value));

/** The list's rows from `offset`, `limit` of them, as one statement: the page reads it, and a CSV's cursor. */
export function crossSellSql(
  viewer: ListViewer,
  query: CrossSellQuery,
  { limit, offset }: { limit: number; offset: number },
  walks: SQL[] = walksOf(query.policies),
): SQL {
  const filters = and(query.gap ? gapIs(query.gap) : undefined, onPull(viewer, query));
  // Each walk needs at most the rows before the page and the page itself. A walk reads only the
  // order's columns and the gap mask, all in household_gaps_page_idx (or, for an agent,
  // household_gaps_assignee_idx), so it can run index-only and test the gap filter on the index
  // entry: a gap few households of that many policies have no longer means a visit to the row of
  // every household passed over. The page's 50 rows are read after, by key.
  const walked = walks.map(
    (walk) =>
      sql`(select ${h.pullId} as pull_id, ${h.annualPremiumCents} as annual_premium_cents,
              ${h.premiumInPlayCents} as premium_in_play_cents
            from ${h} where ${and(walk, filters)}
            order by ${h.premiumInPlayCents} desc nulls last, ${h.annualPremiumCents} desc nulls last, ${h.pullId}
            limit ${offset + limit})`,
  );
  const row = (column: Column) => qualified("hg", column);
  return sql`select page.pull_id, ${row(h.holderName)} as holder_name, ${row(h.policyCount)} as policy_count,
              ${row(h.carrierCount)} as carrier_count, ${row(h.lines)} as lines, ${row(h.gaps)} as gaps,
              page.annual_premium_cents, page.premium_in_play_cents,
              ${row(h.stage)}::text as stage, ${row(h.assigneeId)} as assignee_id, p.email, u.name as assignee_name
        from (select * from (${sql.join(walked, sql` union all `)}) as walks
              order by ${orderOf("walks")} limit ${limit} offset ${offset}) as page
        join ${h} hg on ${row(h.pullId)} = page.pull_id
        join ${pulls} p on p.pull_id = page.pull_id
        left join ${users} u on u.id = ${row(h.assigneeId)}
        order by ${orderOf("page")}`;
}

/** A raw row of crossSellSql as the list shows it. */
export function crossSellRowOf(raw: Record<string, unknown>): CrossSellRow {
  const r = raw as RawRow;
  return {
    pullId: r.pull_id,
    holderName: r.holder_name,
    email: r.email,
    policyCount: Number(r.policy_count),
    carrierCount: Number(r.carrier_count),
    lines: r.lines ?? [],
    gaps: r.gaps ?? [],
    annualPremiumCents: numberOrNull(r.annual_premium_cents),
    premiumInPlayCents: numberOrNull(r.premium_in_play_cents),
    stage: r.stage,
    assigneeId: r.assignee_id,
    assigneeName: r.assignee_name,
  };
}

/** A page of the list (or, with `limit`, every row for a CSV), the most premium in play first. */
export async function listCrossSell(
  db: Db,
  viewer: ListViewer,
  query: CrossSellQuery,
  {
    limit = CROSS_SELL_PAGE_SIZE,
    offset = 0,
    held,
  }: { limit?: number; offset?: number; held?: ReadonlySet<number> } = {},
): Promise<CrossSellRow[]> {
  const walks = walksOf(query.policies, held);
  if (walks.length === 0) return [];
  const rows = await queryRows<RawRow>(db, crossSellSql(viewer, query, { limit, offset }, walks));
  return rows.map(crossSellRowOf);
}

/**
 * The page's counts and rows. Where the kept counts serve the view they come first (a millisecond
 * or two) and tell the rows which numbers of policies hold a household under the filters, so the
 * page skips the walks that would find none; else the scan and the rows run side by side.
 */
export async function crossSellCountsAndRows(
  db: Db,
  viewer: ListViewer,
  query: CrossSellQuery,
  slice: { limit: number; offset: number },
): Promise<{ counts: CrossSellCounts; rows: CrossSellRow[] }> {
  const kept = await keptCountGroups(db, viewer, query);
  if (!kept) {
    const [counts, rows] = await Promise.all([
      countCrossSellByScan(db, viewer, query),
      listCrossSell(db, viewer, query, slice),
    ]);
    return { counts, rows };
  }
  const gapBit = query.gap ? gapMaskOf([query.gap]) : 0;
  const held = new Set(
    kept.filter((g) => g.households > 0 && (g.gapMask & gapBit) === gapBit).map((g) => g.policyCount),
  );
  return {
    counts: countsOfGroups(kept, query),
    rows: await listCrossSell(db, viewer, query, { ...slice, held }),
  };
}
