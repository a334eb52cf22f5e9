import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { alias, type AnyPgColumn } from "drizzle-orm/pg-core";
import { dealReturns, pulls, users } from "@/db/schema";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { laterPullsOfAccounts } from "@/lib/pulls/arrivals";
import { rangeOf, type ReportFilter } from "./report-filter";
import { agentInOffice } from "./office-filter";
import { isWinSql, stageIs, stageIsNot } from "@/lib/core/stage-sql";
import { LOSS_STAGE, OPEN_STAGE } from "@/lib/core/stages";

// Where business comes from and how fast it is worked: per link (the public alias a consumer
// linked through, as "Won premium by link" and the link filter read it) and per agent, the pulls
// that arrived in the range followed to where they stand now, like the funnel: completed (the
// link succeeded), assigned, WON, LOST, won premium, close ratio, the median time from arrival
// to the first touch and to WON; beside them the recycled wins (deal returns won again in the
// range). Rules (also in docs/using-coverdesk.md):
// - An arrival is a listed pull (top-level, not SERVICING, not deleted at the service) linked in
//   the range that is its account's first pull: a refresh or reconnect of an account is not new
//   business (lib/pulls/arrivals.ts).
// - Per agent, as the close ratio counts: a win (its count, premium and time to WON) for the
//   agent it is credited to, everything else for whoever has the pull; unassigned is "No one".
//   Each column then gives every pull to one agent, so the agents' columns add up to the links'.
// - Times run from the link date (service_created_at, as "median days to WON" does) to the first
//   touch (lib/workflow/first-touch.ts) and to the moment it was marked WON.
//
// Speed (≤ 150 ms a report page at 100,000 pulls): the counts are an index-only scan of
// pulls_report_created_idx, the wins of pulls_report_won_once_idx (the indexes the funnel and
// won premium read); refreshes are left out by subtracting the few later pulls of accounts
// (found index-only, then read by id). Only the first touch is in no index: it is read from the
// table. This is the reference the page's figures are checked against: the page reads them
// from sums kept as the data changes (./sources-from-rollups.ts).

export type SourceRow = {
  /** The public alias (links; "" for none) or the user id (agents; "" for no one). */
  key: string;
  label: string;
  /** The link's widget id where a pull of it said so (links only). */
  widgetId: string | null;
  alias: string | null;
  arrived: number;
  completed: number;
  assigned: number;
  won: number;
  lost: number;
  wonCents: number;
  /** WON / (WON + LOST), null when none was decided. */
  closeRatio: number | null;
  /** Medians in milliseconds; null when no pull has one. */
  medianToFirstTouchMs: number | null;
  medianToWonMs: number | null;
  recycledWins: number;
};

export type SourceFigures = {
  byLink: SourceRow[];
  byAgent: SourceRow[];
};

/** An instant as a parameter both drivers accept (postgres-js does not take a Date in raw SQL). */
const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
/** Seconds from the link date to `moment`, as float8 (date_part; extract's numeric is slower to sort). */
const secondsTo = (moment: AnyPgColumn) => sql`date_part('epoch', ${moment} - ${pulls.serviceCreatedAt})`;

/** The won pull of a deal return, in recycledWins(). */
const won = alias(pulls, "w");

/** The report's filter on a pull (or the won pull), as the other reports apply it: line of business, link alias, agent. */
function filtered(filter: ReportFilter, agentOf: AnyPgColumn | null, of: typeof pulls | typeof won = pulls): SQL[] {
  const parts: SQL[] = [];
  if (filter.line) parts.push(sql`${of.policyTypes} @> array[${filter.line}]::text[]`);
  if (filter.link) parts.push(sql`${of.publicAlias} = ${filter.link}`);
  if (filter.agent && agentOf) parts.push(sql`${agentOf} = ${filter.agent}`);
  if (filter.office && agentOf) parts.push(agentInOffice(agentOf, filter.office));
  return parts;
}

/** One row of the arrivals' figures: a group's counts, wins or first touches (or the size of the whole). */
export type SourcePart = {
  part: "created" | "won" | "touch";
  dimension: "link" | "agent" | null;
  key: string | null;
  label: string | null;
  widget_id: string | null;
  arrived: number | null;
  completed: number | null;
  assigned: number | null;
  lost: number | null;
  won: number | null;
  cents: number | null;
  seconds: number | null;
};

/** Every figure but the recycled wins, in one statement (see the file's header for its plan). */
async function arrivals(db: Db, filter: ReportFilter): Promise<SourcePart[]> {
  const { start, end } = rangeOf(filter);
  // Arrivals: top-level, with a link date, in the range, of the line and link asked for.
  const arrived = [sql`${pulls.listed}`, sql`${pulls.serviceCreatedAt} is not null`, ...filtered(filter, null)];
  if (start) arrived.push(sql`${pulls.serviceCreatedAt} >= ${at(start)}`);
  if (end) arrived.push(sql`${pulls.serviceCreatedAt} < ${at(end)}`);
  const where = (...more: SQL[]) => sql.join([...arrived, ...more], sql` and `);
  const office = filter.office;
  const agent = (column: string) =>
    sql`${filter.agent ? sql` and ${sql.identifier(column)} = ${filter.agent}` : sql``}${office ? sql` and ${agentInOffice(sql`${sql.identifier(column)}`, office)}` : sql``}`;
  const heldBy = [
    ...(filter.agent ? [sql`${pulls.assigneeId} = ${filter.agent}`] : []),
    ...(office ? [agentInOffice(pulls.assigneeId, office)] : []),
  ];
  const creditedTo = [
    ...(filter.agent ? [sql`${pulls.wonCreditedTo} = ${filter.agent}`] : []),
    ...(office ? [agentInOffice(pulls.wonCreditedTo, office)] : []),
  ];
  // As the funnel counts "assigned": a pull decided without an assignee was taken up by whoever decided it.
  const counts = (sign: SQL, status: SQL | AnyPgColumn, stage: SQL | AnyPgColumn, holder: SQL | AnyPgColumn) =>
    sql`${sign}count(*) as arrived, ${sign}count(*) filter (where ${status} = 'SUCCESS') as completed,
        ${sign}count(*) filter (where ${status} = 'SUCCESS' and (${holder} is not null or ${stageIsNot(OPEN_STAGE, stage)})) as assigned,
        ${sign}count(*) filter (where ${stageIs(LOSS_STAGE, stage)}) as lost`;
  const notLater = sql`${pulls.pullId} <> all(array(select pull_id from later_ids))`;
  const touchRow = sql`select ${pulls.publicAlias} as alias, ${pulls.assigneeId} as agent, ${pulls.widgetId} as widget_id,
                              ${secondsTo(pulls.firstTouchedAt)} as t`;
  const touched = where(sql`${pulls.firstTouchedAt} is not null`, ...heldBy, notLater);
  // A group's median from its values gathered with array_agg: unlike percentile_cont over the
  // rows (an ordered-set aggregate, which PostgreSQL cannot hash), it lets both groupings be
  // hashed in one pass, then sorts each group's numbers alone. A time recorded before the link
  // date (clocks apart) counts as at once, never negative.
  const median = (value: SQL) =>
    sql`(select percentile_cont(0.5) within group (order by greatest(0, v)) from unnest(array_agg(${value})) v)::float8`;
  return queryRows<SourcePart>(
    db,
    sql`with later_ids as materialized (${laterPullsOfAccounts()}),
        -- The refreshes and reconnects among the arrivals: read by id, to be taken off.
        later as materialized (
          select ${pulls.publicAlias} as alias, ${pulls.assigneeId} as agent, ${pulls.status} as status, ${pulls.stage} as stage,
                 ${pulls.wonCreditedTo} as credited, ${pulls.decisionCarried} as carried, ${pulls.wonPremiumCents} as cents,
                 ${secondsTo(pulls.stageChangedAt)} as won_s
          from ${pulls} where ${pulls.pullId} = any(array(select pull_id from later_ids)) and ${where()}),
        created as (
          select alias, agent, sum(arrived) as arrived, sum(completed) as completed, sum(assigned) as assigned, sum(lost) as lost
          from (
            select ${pulls.publicAlias} as alias, ${pulls.assigneeId} as agent,
                   ${counts(sql``, pulls.status, pulls.stage, pulls.assigneeId)}
            from ${pulls} where ${where(...heldBy)}
            group by 1, 2
            union all
            select alias, agent, ${counts(sql`-`, sql`status`, sql`stage`, sql`agent`)}
            from later where true${agent("agent")} group by 1, 2) c
          group by 1, 2
          -- A group of refreshes alone (their first pulls outside the range) is no group.
          having sum(arrived) > 0),
        -- Wins counted once (a win carried to a refresh is the earlier pull's), less those of
        -- refreshes decided here. Those are rare: the costly except all runs only when there are some.
        later_wins as materialized (
          select alias, credited, cents, won_s from later where ${isWinSql(sql`stage`)} and not carried${agent("credited")}),
        all_wins as (
          select ${pulls.publicAlias} as alias, ${pulls.wonCreditedTo} as agent, ${pulls.wonPremiumCents} as cents,
                 ${secondsTo(pulls.stageChangedAt)} as won_s
          from ${pulls} where ${isWinSql()} and not ${pulls.decisionCarried} and ${where(...creditedTo)}),
        wins as (
          select * from all_wins where not exists (select 1 from later_wins)
          union all
          (select * from all_wins where exists (select 1 from later_wins) except all select * from later_wins)),
        touched as (${touchRow} from ${pulls} where ${touched}),
        parts as (
          select 'created' as part, case when grouping(alias) = 0 then 'link' else 'agent' end as dimension,
                 case when grouping(alias) = 0 then coalesce(alias, '') else coalesce(agent::text, '') end as key, agent,
                 null as widget_id, sum(arrived)::int as arrived, sum(completed)::int as completed, sum(assigned)::int as assigned,
                 sum(lost)::int as lost, null::int as won, null::float8 as cents, null::float8 as seconds
          from created group by grouping sets ((alias), (agent))
          union all
          select 'won', case when grouping(alias) = 0 then 'link' else 'agent' end,
                 case when grouping(alias) = 0 then coalesce(alias, '') else coalesce(agent::text, '') end, agent,
                 null, null, null, null, null, count(*)::int, coalesce(sum(cents), 0)::float8, ${median(sql`won_s`)}
          from wins group by grouping sets ((alias), (agent))
          union all
          select 'touch', case when grouping(alias) = 0 then 'link' else 'agent' end,
                 case when grouping(alias) = 0 then coalesce(alias, '') else coalesce(agent::text, '') end, agent,
                 max(widget_id), null, null, null, null, null, null, ${median(sql`t`)}
          from touched group by grouping sets ((alias), (agent)))
        select p.part, p.dimension, p.key, case when p.dimension = 'agent' then ${users.name} end as label, p.widget_id,
               p.arrived, p.completed, p.assigned, p.lost, p.won, p.cents, p.seconds
        from parts p left join ${users} on p.dimension = 'agent' and ${users.id} = p.agent`,
  );
}

export type RecycledPart = {
  dimension: "link" | "agent";
  key: string | null;
  label: string | null;
  widget_id: string | null;
  count: number;
};

/**
 * Deals that came back and were won again in the range (deal_returns.won_at, written by
 * lib/workflow/deal-returns.ts), counted as the "Recycled wins" table counts them
 * (./recycled-wins.ts): the win is on the returned pull or on a refresh of its account, marked
 * WON at that moment and still WON, credited to its agent, with that pull's link. Not arrivals:
 * the agency had the account before, so they stand beside the arrivals' figures, not in them.
 */
export async function recycledWins(db: Db, filter: ReportFilter): Promise<RecycledPart[]> {
  const { start, end } = rangeOf(filter);
  const where = [sql`${dealReturns.wonAt} is not null`, ...filtered(filter, won.wonCreditedTo, won)];
  if (start) where.push(sql`${dealReturns.wonAt} >= ${at(start)}`);
  if (end) where.push(sql`${dealReturns.wonAt} < ${at(end)}`);
  return queryRows<RecycledPart>(
    db,
    sql`with wins as (
          select ${won.publicAlias} as alias, ${won.widgetId} as widget_id, ${won.wonCreditedTo} as agent
          from ${dealReturns}
          cross join lateral (
            select ${won.widgetId}, ${won.publicAlias}, ${won.wonCreditedTo}, ${won.policyTypes}
            from ${pulls} ${won}
            where ${won.listed} and ${isWinSql(won.stage)} and ${won.stageChangedAt} = ${dealReturns.wonAt}
              and (${won.pullId} = ${dealReturns.pullId}
                   or (${dealReturns.accountIdentifier} is not null and ${won.accountIdentifier} = ${dealReturns.accountIdentifier}))
            limit 1) ${won}
          where ${sql.join(where, sql` and `)}),
        grouped as (
          select case when grouping(alias) = 0 then 'link' else 'agent' end as dimension,
                 case when grouping(alias) = 0 then coalesce(alias, '') else coalesce(agent::text, '') end as key, agent,
                 max(widget_id) as widget_id, count(*)::int as count
          from wins group by grouping sets ((alias), (agent)))
        select g.dimension, g.key, case when g.dimension = 'agent' then ${users.name} end as label, g.widget_id, g.count
        from grouped g left join ${users} on g.dimension = 'agent' and ${users.id} = g.agent`,
  );
}

const emptyRow = (key: string): SourceRow => ({
  key,
  label: "",
  widgetId: null,
  alias: null,
  arrived: 0,
  completed: 0,
  assigned: 0,
  won: 0,
  lost: 0,
  wonCents: 0,
  closeRatio: null,
  medianToFirstTouchMs: null,
  medianToWonMs: null,
  recycledWins: 0,
});
const ms = (seconds: number | string | null) => (seconds === null ? null : Math.round(Number(seconds) * 1000));

/** Both tables: the arrivals' figures and the recycled wins, run side by side and merged by key. */
export async function getSourceFigures(db: Db, filter: ReportFilter): Promise<SourceFigures> {
  const [parts, recycled] = await Promise.all([arrivals(db, filter), recycledWins(db, filter)]);
  return sourceTablesOf(parts, recycled);
}

/**
 * The two tables from their parts, merged by key, whether computed from the pulls (above) or
 * summed from the rollups (./sources-from-rollups.ts).
 */
export function sourceTablesOf(parts: SourcePart[], recycled: RecycledPart[]): SourceFigures {
  const tables = { link: new Map<string, SourceRow>(), agent: new Map<string, SourceRow>() };
  const names = new Map<string, string>();
  const rowOf = (dimension: "link" | "agent", key: string | null) => {
    const table = tables[dimension];
    const found = table.get(key ?? "") ?? emptyRow(key ?? "");
    table.set(key ?? "", found);
    return found;
  };
  for (const p of parts) {
    if (!p.dimension) continue;
    const row = rowOf(p.dimension, p.key);
    if (p.label) names.set(row.key, p.label);
    if (p.part === "created") {
      row.arrived = Number(p.arrived);
      row.completed = Number(p.completed);
      row.assigned = Number(p.assigned);
      row.lost = Number(p.lost);
    } else if (p.part === "won") {
      row.won = Number(p.won);
      row.wonCents = Number(p.cents);
      row.medianToWonMs = ms(p.seconds);
    } else {
      row.medianToFirstTouchMs = ms(p.seconds);
      row.widgetId = p.dimension === "link" ? p.widget_id : null;
    }
  }
  for (const r of recycled) {
    const row = rowOf(r.dimension, r.key);
    row.recycledWins = Number(r.count);
    if (r.dimension === "link") row.widgetId ??= r.widget_id;
    if (r.label) names.set(row.key, r.label);
  }
  const finish = (row: SourceRow, label: string): SourceRow => ({
    ...row,
    label,
    closeRatio: row.won + row.lost > 0 ? row.won / (row.won + row.lost) : null,
  });
  const order = (a: SourceRow, b: SourceRow) =>
    b.arrived - a.arrived || b.won - a.won || b.recycledWins - a.recycledWins || a.label.localeCompare(b.label);
  return {
    // Until the service names them (./link-names.ts): the alias, else "No link".
    byLink: [...tables.link.values()]
      .map((row) => finish({ ...row, alias: row.key || null }, row.key || "No link"))
      .sort(order),
    byAgent: [...tables.agent.values()].map((row) => finish(row, names.get(row.key) ?? "No one")).sort(order),
  };
}
