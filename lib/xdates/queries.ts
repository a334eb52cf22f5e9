import "server-only";
import { and, asc, eq, gte, isNotNull, isNull, lt, sql, type Column, type SQL } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import { queryRows } from "@/db/connect";
import { aliased } from "@/lib/csv/cursor";
import type { Db } from "@/db/types";
import { policyXDates, pulls, users } from "@/db/schema";
import { listAgentChoices, visibleRowsOf, type ListViewer } from "@/lib/pulls/visibility";
import { addDays } from "./derive";
import { foldXDateSums } from "./kept-sums";
import { readSummedDays, readSummedOptions, readSummedWithoutXDate, sumsAnswer, sumsAnswerOptions } from "./summed";
import type { XDateQuery } from "./xdates-query";

// The X-date list's SQL, over policy_xdates alone (the pull's assignee, stage and link are
// copied there), so a range of days is an index-only scan even at 100,000 pulls; the pulls
// table is read only for the names of the rows shown. Who may see what is in the WHERE clause
// of every query here: agents their own rows and the unassigned queue, managers and admins all.
// The summary's figures come from sums kept ahead (lib/xdates/summed.ts) when those can answer
// the view, since a scan of the window grows with the book; else from the scan below.

export const XDATE_PAGE_SIZE = 50;
/** Names shown in a calendar day; the rest are "N more", a link to that day in the list. */
export const CALENDAR_PER_DAY = 3;

const x = policyXDates;

/** Who may see which rows: the pull list's own rule (lib/pulls/visibility.ts), asked of policy_xdates. */
const visible = (viewer: ListViewer): SQL | undefined =>
  visibleRowsOf(viewer, {
    table: x,
    pullId: x.pullId,
    assigneeId: x.assigneeId,
    officeId: x.officeId,
    accountIdentifier: x.accountIdentifier,
  });

/** The filters of the URL besides the range and the day. */
function filtered(query: XDateQuery): SQL[] {
  const parts: SQL[] = [];
  if (query.agent === "unassigned") parts.push(isNull(x.assigneeId));
  else if (query.agent) parts.push(eq(x.assigneeId, query.agent));
  if (query.line) parts.push(eq(x.policyType, query.line));
  if (query.carrier) parts.push(eq(x.carrierLabel, query.carrier));
  if (query.stage) parts.push(eq(x.stage, query.stage));
  if (query.link) parts.push(eq(x.publicAlias, query.link));
  return parts;
}

export type XDateWindow = { from: string; to: string };

/** The days [today, today + range): the next `range` days, today included. */
export function windowOf(today: string, range: number, day?: string): XDateWindow {
  const end = addDays(today, range);
  if (day && day >= today && day < end) return { from: day, to: addDays(day, 1) };
  return { from: today, to: end };
}

function inWindow(window: XDateWindow): SQL {
  return and(isNotNull(x.xDate), gte(x.xDate, window.from), lt(x.xDate, window.to)) as SQL;
}

export type XDateListRow = {
  pullId: string;
  policyId: string;
  xDate: string;
  basis: string | null;
  note: string;
  termMonths: number | null;
  expiryDate: string | null;
  policyType: string | null;
  carrierLabel: string | null;
  carrierPolicyNumber: string | null;
  annualPremiumCents: number | null;
  stage: string;
  assigneeId: string | null;
  assigneeName: string | null;
  publicAlias: string | null;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
};

/** The list's columns, shared by its page and its streamed CSV (lib/xdates/xdates-csv.ts). */
export const listColumns = {
  pullId: x.pullId,
  policyId: x.policyId,
  xDate: sql<string>`${x.xDate}`,
  basis: x.basis,
  note: x.note,
  termMonths: x.termMonths,
  expiryDate: x.expiryDate,
  policyType: x.policyType,
  carrierLabel: x.carrierLabel,
  carrierPolicyNumber: x.carrierPolicyNumber,
  annualPremiumCents: x.annualPremiumCents,
  stage: x.stage,
  assigneeId: x.assigneeId,
  assigneeName: users.name,
  publicAlias: x.publicAlias,
  firstName: pulls.firstName,
  lastName: pulls.lastName,
  email: pulls.email,
};

const listOrder = [asc(x.xDate), sql`${x.annualPremiumCents} desc nulls last`, asc(x.pullId), asc(x.policyId)];

/** The list's rows, joined, filtered and in its order: one definition for the page and the CSV's cursor. */
function inListOrder<T extends PgSelect>(select: T, viewer: ListViewer, query: XDateQuery, window: XDateWindow) {
  return select
    .innerJoin(pulls, eq(pulls.pullId, x.pullId))
    .leftJoin(users, eq(users.id, x.assigneeId))
    .where(and(inWindow(window), visible(viewer), ...filtered(query)))
    .orderBy(...listOrder);
}

/** A page of the list (or, with `limit`, every row for a CSV), soonest first, the largest premium first within a day. */
export async function listXDates(
  db: Db,
  viewer: ListViewer,
  query: XDateQuery,
  window: XDateWindow,
  { limit = XDATE_PAGE_SIZE, offset = 0 }: { limit?: number; offset?: number } = {},
): Promise<XDateListRow[]> {
  return inListOrder(db.select(listColumns).from(x).$dynamic(), viewer, query, window).limit(limit).offset(offset);
}

/** The list's first `limit` rows as one statement, each column named as its key: a CSV's cursor reads it. */
export function xdateListSql(db: Db, viewer: ListViewer, query: XDateQuery, window: XDateWindow, limit: number): SQL {
  return inListOrder(db.select(aliased(listColumns)).from(x).$dynamic(), viewer, query, window)
    .limit(limit)
    .getSQL();
}

type SummaryRow = {
  g_day: number;
  g_line: number;
  g_carrier: number;
  g_link: number;
  day: string | null;
  line: string | null;
  carrier: string | null;
  link: string | null;
  count: number;
  premium: string | number | null;
  priced: number;
};

/**
 * One index-only scan of the window: each day's X-dates and premium at stake (the calendar and
 * the totals) and, with `options`, the lines, carriers and links found there (the filters'
 * choices), as grouping sets of the same rows.
 */
async function summarise(
  db: Db,
  viewer: ListViewer,
  filters: SQL[],
  window: XDateWindow,
  sets: { days: boolean; options: boolean },
): Promise<{ days: XDateDay[]; lines: string[]; carriers: string[]; links: string[] }> {
  // grouping() may only name a column that some set groups by: 1 ("not grouped") otherwise.
  const flag = (grouped: boolean, column: Column) => (grouped ? sql`grouping(${column})::int` : sql`1`);
  const groups: SQL[] = [];
  if (sets.days) groups.push(sql`(${x.xDate})`);
  if (sets.options) groups.push(sql`(${x.policyType})`, sql`(${x.carrierLabel})`, sql`(${x.publicAlias})`);
  const rows = await queryRows<SummaryRow>(
    db,
    sql`select ${flag(sets.days, x.xDate)} as g_day, ${flag(sets.options, x.policyType)} as g_line,
          ${flag(sets.options, x.carrierLabel)} as g_carrier, ${flag(sets.options, x.publicAlias)} as g_link,
          ${sets.days ? sql`${x.xDate}::text` : sql`null`} as day, ${sets.options ? x.policyType : sql`null`} as line,
          ${sets.options ? x.carrierLabel : sql`null`} as carrier, ${sets.options ? x.publicAlias : sql`null`} as link,
          count(*)::int as count, sum(${x.annualPremiumCents}) as premium, count(${x.annualPremiumCents})::int as priced
        from ${x}
        where ${and(inWindow(window), visible(viewer), ...filters)}
        group by grouping sets (${sql.join(groups, sql`, `)})`,
  );
  const sorted = (values: Array<string | null>) =>
    [...new Set(values.filter((v): v is string => v !== null && v !== ""))].sort();
  return {
    days: rows
      .filter((r) => Number(r.g_day) === 0 && r.day !== null)
      .map((r) => ({
        day: String(r.day),
        count: Number(r.count),
        premiumCents: Number(r.premium ?? 0),
        unpriced: Number(r.count) - Number(r.priced),
      }))
      .sort((a, b) => (a.day < b.day ? -1 : 1)),
    lines: sorted(rows.filter((r) => Number(r.g_line) === 0).map((r) => r.line)),
    carriers: sorted(rows.filter((r) => Number(r.g_carrier) === 0).map((r) => r.carrier)),
    links: sorted(rows.filter((r) => Number(r.g_link) === 0).map((r) => r.link)),
  };
}

export type XDateDay = { day: string; count: number; premiumCents: number; unpriced: number };

/** The filters' choices of a summary, without its days. */
const choicesOf = ({ lines, carriers, links }: { lines: string[]; carriers: string[]; links: string[] }) => ({
  lines,
  carriers,
  links,
});

/**
 * Where the summary's figures come from: "kept", the kept sums for whatever part they can answer
 * (the scan for the rest); "scan", policy_xdates alone. The page asks "kept"; the tests compare
 * both.
 */
export type SummarySource = "kept" | "scan";

/**
 * Each day of the window with X-dates (how many, and the premium at stake), and the filters'
 * choices: the lines, carriers and links of the X-dates the viewer may see in the window,
 * whatever the filters (so a filter never hides its own alternatives). Unfiltered, the usual
 * view, both come from one scan when the sums cannot answer.
 */
export async function xdateSummary(
  db: Db,
  viewer: ListViewer,
  query: XDateQuery,
  window: XDateWindow,
  source: SummarySource = "kept",
): Promise<{ days: XDateDay[]; options: XDateOptions }> {
  const filters = filtered(query);
  const agents = listAgentChoices(db, viewer);
  // The choices are read unfiltered, so the sums answer them for an admin or an office manager
  // whatever the filters; the days only for the filters the sums keep.
  if (source === "kept" && sumsAnswerOptions(viewer)) {
    const folded = foldXDateSums(db);
    const days = sumsAnswer(viewer, query)
      ? folded.then(() => readSummedDays(db, viewer, query, window))
      : summarise(db, viewer, filters, window, { days: true, options: false }).then((s) => s.days);
    const [summedDays, choices, people] = await Promise.all([
      days,
      folded.then(() => readSummedOptions(db, viewer, window)),
      agents,
    ]);
    return { days: summedDays, options: { ...choices, agents: people } };
  }
  if (filters.length === 0) {
    const [summary, people] = await Promise.all([
      summarise(db, viewer, [], window, { days: true, options: true }),
      agents,
    ]);
    return { days: summary.days, options: { ...choicesOf(summary), agents: people } };
  }
  const [days, choices, people] = await Promise.all([
    summarise(db, viewer, filters, window, { days: true, options: false }),
    summarise(db, viewer, [], window, { days: false, options: true }),
    agents,
  ]);
  return { days: days.days, options: { ...choicesOf(choices), agents: people } };
}

export type CalendarEntry = {
  day: string;
  pullId: string;
  policyId: string;
  policyType: string | null;
  carrierLabel: string | null;
  annualPremiumCents: number | null;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
};

/**
 * The largest few X-dates of each day, for the calendar's cells: for each day of the window, the
 * first rows of that day in the range index (biggest premium first), so a day with hundreds
 * reads three of them.
 */
export async function calendarEntries(
  db: Db,
  viewer: ListViewer,
  query: XDateQuery,
  window: XDateWindow,
): Promise<CalendarEntry[]> {
  // An agent's rows are a sparse part of each day: one ranked pass over the window beats
  // stepping through every day's rows in premium order to find theirs.
  if (viewer.kind !== "all") return rankedCalendarEntries(db, viewer, query, window);
  const rows = await queryRows<{
    day: string;
    pull_id: string;
    policy_id: string;
    policy_type: string | null;
    carrier_label: string | null;
    annual_premium_cents: string | number | null;
    first_name: string | null;
    last_name: string | null;
    email: string | null;
  }>(
    db,
    sql`select d.day::text as day, e.pull_id, e.policy_id, e.policy_type, e.carrier_label, e.annual_premium_cents,
          ${pulls.firstName} as first_name, ${pulls.lastName} as last_name, ${pulls.email} as email
        from generate_series(${window.from}::date, ${window.to}::date - 1, interval '1 day') as d(day)
        cross join lateral (
          select ${x.pullId} as pull_id, ${x.policyId} as policy_id, ${x.policyType} as policy_type,
                 ${x.carrierLabel} as carrier_label, ${x.annualPremiumCents} as annual_premium_cents
          from ${x}
          where ${x.xDate} = d.day::date and ${x.xDate} is not null
            ${sql.join(
              [visible(viewer), ...filtered(query)]
                .filter((part): part is SQL => part !== undefined)
                .map((part) => sql` and ${part}`),
              sql``,
            )}
          order by ${x.annualPremiumCents} desc nulls last, ${x.pullId}, ${x.policyId}
          limit ${CALENDAR_PER_DAY}
        ) e
        join ${pulls} on ${pulls.pullId} = e.pull_id
        order by d.day, e.annual_premium_cents desc nulls last, e.pull_id, e.policy_id`,
  );
  return rows.map((r) => ({
    day: String(r.day),
    pullId: r.pull_id,
    policyId: r.policy_id,
    policyType: r.policy_type,
    carrierLabel: r.carrier_label,
    annualPremiumCents: r.annual_premium_cents === null ? null : Number(r.annual_premium_cents),
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
  }));
}

async function rankedCalendarEntries(
  db: Db,
  viewer: ListViewer,
  query: XDateQuery,
  window: XDateWindow,
): Promise<CalendarEntry[]> {
  const ranked = db
    .select({
      day: sql<string>`${x.xDate}`.as("day"),
      pullId: x.pullId,
      policyId: x.policyId,
      policyType: x.policyType,
      carrierLabel: x.carrierLabel,
      annualPremiumCents: x.annualPremiumCents,
      rank: sql<number>`row_number() over (partition by ${x.xDate} order by ${x.annualPremiumCents} desc nulls last, ${x.pullId}, ${x.policyId})`.as(
        "rank",
      ),
    })
    .from(x)
    .where(and(inWindow(window), visible(viewer), ...filtered(query)))
    .as("ranked");
  const rows = await db
    .select({
      day: ranked.day,
      pullId: ranked.pullId,
      policyId: ranked.policyId,
      policyType: ranked.policyType,
      carrierLabel: ranked.carrierLabel,
      annualPremiumCents: ranked.annualPremiumCents,
      firstName: pulls.firstName,
      lastName: pulls.lastName,
      email: pulls.email,
    })
    .from(ranked)
    .innerJoin(pulls, eq(pulls.pullId, ranked.pullId))
    .where(sql`${ranked.rank} <= ${CALENDAR_PER_DAY}`)
    .orderBy(asc(ranked.day), asc(ranked.rank));
  return rows.map((r) => ({ ...r, day: String(r.day) }));
}

export type NoXDateCount = { reason: string; count: number };

/** The policies in view without an X-date, by reason: said on the page, never dropped silently. */
export async function countWithoutXDate(
  db: Db,
  viewer: ListViewer,
  query: XDateQuery,
  source: SummarySource = "kept",
): Promise<NoXDateCount[]> {
  if (source === "kept" && sumsAnswer(viewer, query)) {
    await foldXDateSums(db);
    return readSummedWithoutXDate(db, viewer, query);
  }
  const rows = await db
    .select({ reason: sql<string>`coalesce(${x.reason}, 'NO_EXPIRY')`, count: sql<number>`count(*)::int` })
    .from(x)
    .where(and(isNull(x.xDate), visible(viewer), ...filtered(query)))
    .groupBy(sql`1`)
    .orderBy(sql`2 desc`, sql`1`);
  return rows.map((r) => ({ reason: r.reason, count: Number(r.count) }));
}

export type XDateOptions = {
  lines: string[];
  carriers: string[];
  links: string[];
  agents: Array<{ id: string; name: string }>;
};

export type FeedRow = XDateListRow;

/** A calendar feed's events: the X-dates of the pulls assigned to its owner, soonest first. */
export async function listFeedXDates(db: Db, ownerId: string, window: XDateWindow, limit = 5_000): Promise<FeedRow[]> {
  return db
    .select(listColumns)
    .from(x)
    .innerJoin(pulls, eq(pulls.pullId, x.pullId))
    .leftJoin(users, eq(users.id, x.assigneeId))
    .where(and(eq(x.assigneeId, ownerId), inWindow(window)))
    .orderBy(...listOrder)
    .limit(limit);
}
