import "server-only";
import { agentInOffice } from "./office-filter";
import { sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { lostDecisions, pulls, users } from "@/db/schema";
import { policyLines, wonCreditedTo } from "@/lib/pulls/queries";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { funnelSteps, type FunnelCounts } from "./funnel-steps";
import { getRecycledWins } from "./recycled-wins";
import { rangeOf, type ReportFilter, type ReportPeriod } from "./report-filter";
import { getSourceFigures } from "./sources";
import { isDecisionSql, isWinSql, stageIs, stageIsNot, stageLiteral } from "@/lib/core/stage-sql";
import { LOSS_STAGE, OPEN_STAGE, WIN_STAGE } from "@/lib/core/stages";

// The reports computed from the pulls themselves, every figure from the base tables: the
// reference the rollups are checked against (./rollup-reconcile.test.ts compares the two on
// random books), the benchmark's "before", and, for the figures no rollup holds (the median
// days to WON), the query the page still runs. The page reads ./queries.ts.
// Rules (also in docs/using-coverdesk.md):
// - Won premium counts WON pulls by the day they were marked won, credited to `won_credited_to`
//   (the assignee when it was won); reassigning a won pull does not move its credit.
// - "Line of business" of a pull is its combination of lines ("AUTO + HOMEOWNERS"), so a
//   multi-line win is counted once, never split or doubled.
// - Close ratio = WON / (WON + LOST) among pulls decided in the range, per owner (the credited
//   agent of a win, the agent whose loss it was: the assignee when it was lost).
// - The open pipeline is the WORKING pulls of successful links, now, with the premium the
//   service reports for them.
// - The funnel follows the pulls linked in the range (the same pulls as "new linked accounts")
//   to where they stand now: linked successfully, assigned, decided, won. Each step is part of
//   the one before (a pull decided without an assignee was taken up by whoever decided it).
// - A WON or LOST carried over to a refresh of the same account counts once, on the earlier
//   pull, while that pull's decision stands (counted() below).
// - A loss counts in the period it was decided, with its reason and whose it was then, from the
//   history of losses (lost_decisions, lib/workflow/lost-decisions.ts): a deal that came back
//   at its X-date, or was lost again, keeps it; a stage changed by hand undoes it (losses()).
// Sums are cast to float8: cents stay exact up to 2^53, and both drivers return plain numbers.

import {
  closeRatioOf,
  lostRowsOf,
  wonFiguresOf,
  type WonDimension,
  type WonDimensionRow,
  type CloseRatio,
  type LostRow,
  type PeriodRow,
} from "./report-rows";

// The pulls the list shows (lib/pulls/queries.ts listedPull), so a drill-down from a figure lists
// exactly the pulls behind it; the report indexes are over these rows.
const top = sql`${pulls.listed}`;
/** An instant as a parameter both drivers accept (postgres-js does not take a Date in raw SQL). */
const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
/** A period's first day as text, applied to an already grouped date_trunc. */
const day = (column: SQL) => sql`to_char(${column}, 'YYYY-MM-DD')`;
/** The earlier pull of an account, in the carried-over check. */
const earlier = alias(pulls, "e"); // written `${pulls} ${earlier}` in a from clause
/** One period as an interval: PostgreSQL's date_trunc knows 'quarter', its intervals do not. */
const intervalOf = (period: ReportPeriod) => sql`${period === "quarter" ? "3 months" : `1 ${period}`}::interval`;

function common(filter: ReportFilter): SQL[] {
  const parts = [top];
  if (filter.line) parts.push(sql`${pulls.policyTypes} @> array[${filter.line}]::text[]`);
  if (filter.link) parts.push(sql`${pulls.publicAlias} = ${filter.link}`);
  return parts;
}

/**
 * A win or loss carried to a refresh of its account (lib/workflow/carry-over.ts) is the decision
 * already made on the earlier pull, with the same stage and moment: counted once, there.
 */
// `select … from pulls where …` over the pulls a report counts, in two parts. Only pulls marked
// decision_carried (by the carry-over; a stage set by hand clears it) can be such a copy: the
// others are counted as they are, read from the report indexes (decision_carried leads them).
// The few marked ones are compared with their account's earlier pulls, so a carried decision
// counts again if the earlier pull's decision changed. Two parts rather than one
// `not (decision_carried and exists …)`: PostgreSQL costs such a check as if it ran for every
// row, which puts the statement above jit_above_cost and compiles it on every request. `stage`
// is the pull's stage as the caller knows it ('WON' among won pulls), a constant the earlier
// decision is looked up by in pulls_account_decision_idx.
function counted(select: SQL, where: SQL, stage: SQL = sql`${pulls.stage}`): SQL {
  return sql`${select} from ${pulls} where ${where} and not ${pulls.decisionCarried}
    union all
    ${select} from ${pulls} where ${where} and ${pulls.decisionCarried} and not ${earlierDecision(stage)}`;
}

/** On a pull marked decision_carried: the earlier pull of its account still holds that decision. */
function earlierDecision(stage: SQL = sql`${pulls.stage}`): SQL {
  return sql`exists (
      select 1 from ${pulls} ${earlier}
      where ${earlier.accountIdentifier} = ${pulls.accountIdentifier} and ${earlier.listed}
        and ${isDecisionSql(earlier.stage)} and ${earlier.stage} = ${stage} and ${earlier.stageChangedAt} = ${pulls.stageChangedAt}
        and (${earlier.createdAt}, ${earlier.pullId}) < (${pulls.createdAt}, ${pulls.pullId}))`;
}

/** The standing losses' history, in the from clause of losses(). */
const decision = alias(lostDecisions, "ld");
/** An earlier pull's standing loss, in the carried-over check of losses(). */
const earlierLoss = alias(lostDecisions, "el");

/**
 * `select owner, reason, carrier, cents` of the losses a report counts in the filter's range:
 * each standing LOST decision of the history, at its moment and with its owner then, and, as
 * counted() does for a win, a LOST carried to a refresh whose earlier pull's loss no longer
 * stands. The history holds top-level pulls' losses only (the stage command decides no child
 * pull; 0029 filled it from top-level pulls), with their lines and link, so it is read from
 * lost_decisions_report_idx alone: joining the pulls for those filters cost the close ratio
 * three to five times its time at 100,000 pulls.
 */
function losses(filter: ReportFilter): SQL {
  const { start, end } = rangeOf(filter);
  const own = [sql`${decision.undoneAt} is null`];
  if (filter.line) own.push(sql`${decision.policyTypes} @> array[${filter.line}]::text[]`);
  if (filter.link) own.push(sql`${decision.publicAlias} = ${filter.link}`);
  if (start) own.push(sql`${decision.lostAt} >= ${at(start)}`);
  if (end) own.push(sql`${decision.lostAt} < ${at(end)}`);
  if (filter.agent) own.push(sql`${decision.ownerId} = ${filter.agent}`);
  if (filter.office) own.push(agentInOffice(decision.ownerId, filter.office));
  const carried = [...common(filter), stageIs(LOSS_STAGE), sql`${pulls.decisionCarried}`];
  if (start) carried.push(sql`${pulls.stageChangedAt} >= ${at(start)}`);
  if (end) carried.push(sql`${pulls.stageChangedAt} < ${at(end)}`);
  if (filter.agent) carried.push(sql`${pulls.assigneeId} = ${filter.agent}`);
  if (filter.office) carried.push(agentInOffice(pulls.assigneeId, filter.office));
  return sql`select ${decision.ownerId} as owner, ${decision.lostCategory} as reason,
           ${decision.lostToCarrier} as carrier, ${decision.lostToPremiumCents} as cents
      from ${lostDecisions} ${decision}
      where ${sql.join(own, sql` and `)}
    union all
    select ${pulls.assigneeId}, ${pulls.lostCategory}, ${pulls.lostToCarrier}, ${pulls.lostToPremiumCents}
      from ${pulls}
      where ${sql.join(carried, sql` and `)} and not exists (
        select 1 from ${lostDecisions} ${earlierLoss} join ${pulls} ${earlier} on ${earlier.pullId} = ${earlierLoss.pullId}
        where ${earlierLoss.lostAt} = ${pulls.stageChangedAt} and ${earlierLoss.undoneAt} is null
          and ${earlier.accountIdentifier} = ${pulls.accountIdentifier} and ${earlier.parentPullId} is null
          and (${earlier.createdAt}, ${earlier.pullId}) < (${pulls.createdAt}, ${pulls.pullId}))`;
}

function wonWhere(filter: ReportFilter): SQL {
  const { start, end } = rangeOf(filter);
  const parts = [...common(filter), isWinSql()];
  if (start) parts.push(sql`${pulls.stageChangedAt} >= ${at(start)}`);
  if (end) parts.push(sql`${pulls.stageChangedAt} < ${at(end)}`);
  if (filter.agent) parts.push(wonCreditedTo(filter.agent));
  if (filter.office) parts.push(agentInOffice(pulls.wonCreditedTo, filter.office));
  return sql.join(parts, sql` and `);
}

type WonRow = WonDimensionRow & { dimension: WonDimension | "median"; days: number | null };

/**
 * Won premium by agent, period, period and agent, carrier, line and link, and the median days
 * from linking to a win, in one statement: the won pulls are aggregated six ways in one pass
 * (GROUPING SETS) instead of one statement per figure. Each grouping keeps the key and label a
 * figure shows; periods are grouped as timestamps and formatted once per period, and agents
 * are named once per agent, after grouping. The (period, agent) set, which the stacked chart
 * draws, measured no slower than the five before it (about 45 ms at 100,000 pulls).
 */
// `not materialized`: the median reads the won pulls again (a second index-only scan, of the
// columns it needs), which measured faster than storing 21,000 wide rows in a CTE and reading
// them twice (about 50 against 100 ms at 100,000 pulls on the busy benchmark machine).
async function wonFigures(db: Db, filter: ReportFilter, period: ReportPeriod) {
  const rows = await queryRows<WonRow>(
    db,
    sql`with won as not materialized (${counted(
      sql`select ${pulls.wonCreditedTo} as agent,
                 date_trunc(${period}, ${pulls.stageChangedAt} at time zone 'UTC') as period,
                 coalesce(${pulls.providerName}, '') as carrier,
                 coalesce(${pulls.providerFriendlyName}, ${pulls.providerName}, 'Unknown') as carrier_name,
                 ${policyLines} as lines,
                 ${pulls.publicAlias} as link,
                 ${pulls.wonPremiumCents} as cents,
                 extract(epoch from (${pulls.stageChangedAt} - ${pulls.serviceCreatedAt})) / 86400 as days`,
      wonWhere(filter),
      stageLiteral(WIN_STAGE),
    )}),
        grouped as (
          -- (period, agent) first: its rows have both grouped, which the single checks would misread.
          select case when grouping(period, agent) = 0 then 'periodAgent' when grouping(agent) = 0 then 'agent'
                      when grouping(period) = 0 then 'period' when grouping(carrier) = 0 then 'carrier'
                      when grouping(lines) = 0 then 'line' else 'link' end as dimension,
                 agent, period, carrier, carrier_name, lines, link,
                 count(*)::int as count, coalesce(sum(cents), 0)::float8 as cents
          from won
          group by grouping sets ((agent), (period), (period, agent), (carrier, carrier_name), (lines), (link)))
        select g.dimension,
               case g.dimension when 'agent' then coalesce(g.agent::text, '') when 'period' then ${day(sql`g.period`)}
                    when 'periodAgent' then ${day(sql`g.period`)}
                    when 'carrier' then g.carrier when 'line' then g.lines else coalesce(g.link, '') end as key,
               case g.dimension when 'agent' then coalesce(${users.name}, 'No one') when 'period' then ${day(sql`g.period`)}
                    when 'periodAgent' then coalesce(${users.name}, 'No one')
                    when 'carrier' then g.carrier_name when 'line' then g.lines else coalesce(g.link, 'No link') end as label,
               g.count, g.cents, null::float8 as days,
               case when g.dimension = 'periodAgent' then coalesce(g.agent::text, '') end as agent
        from grouped g left join ${users} on ${users.id} = g.agent
        union all
        -- Pulls without a link date have no days (null), which percentile_cont leaves out.
        select 'median', null, null, 0, 0, percentile_cont(0.5) within group (order by days)::float8, null from won
        order by 1, 5 desc, 3`,
  );
  const median = rows.find((r) => r.dimension === "median")?.days;
  return {
    ...wonFiguresOf(rows),
    medianDaysToWon: median === null || median === undefined ? null : Number(median),
  };
}

type CreatedRow = {
  period: string;
  count: number;
  successful: number;
  assigned: number;
  worked: number;
  won: number;
  copies_unassigned: number;
  copies_worked: number;
  copies_won: number;
};

/** The funnel of the linked pulls: their periods' counts added up, less the carried decisions. */
function funnelOf(rows: CreatedRow[]): FunnelCounts {
  const sum = (pick: (r: CreatedRow) => number) => rows.reduce((a, r) => a + Number(pick(r)), 0);
  const [first] = rows;
  return {
    linked: sum((r) => r.count),
    successful: sum((r) => r.successful),
    assigned: sum((r) => r.assigned) - Number(first?.copies_unassigned ?? 0),
    worked: sum((r) => r.worked) - Number(first?.copies_worked ?? 0),
    won: sum((r) => r.won) - Number(first?.copies_won ?? 0),
  };
}

/** The close ratio per owner (the credited agent of a win, whose loss it was) and in all. */
async function getCloseRatio(db: Db, filter: ReportFilter): Promise<CloseRatio> {
  const ratios = await queryRows<{ key: string | null; label: string | null; won: number; lost: number }>(
    db,
    // Grouped by owner first, then named: the users join runs once per owner, not per pull.
    sql`select g.key::text as key, coalesce(${users.name}, 'No one') as label, g.won, g.lost from (
          select d.owner as key,
                 count(*) filter (where ${isWinSql(sql`d.stage`)})::int as won, count(*) filter (where ${stageIs(LOSS_STAGE, sql`d.stage`)})::int as lost
          from (${counted(sql`select ${pulls.wonCreditedTo} as owner, ${stageLiteral(WIN_STAGE)} as stage`, wonWhere(filter), stageLiteral(WIN_STAGE))}
                union all
                select l.owner, ${stageLiteral(LOSS_STAGE)} from (${losses(filter)}) l) d
          group by 1) g
        left join ${users} on ${users.id} = g.key
        order by 2`,
  );
  return closeRatioOf(ratios);
}

/**
 * The median days from linking to WON of the wins in the filter: a median is no sum, so no
 * rollup holds it; one index-only pass over the won pulls (pulls_report_won_once_idx).
 */
export async function getMedianDaysToWon(db: Db, filter: ReportFilter): Promise<number | null> {
  const [row] = await queryRows<{ days: number | null }>(
    db,
    sql`select percentile_cont(0.5) within group (order by w.days)::float8 as days
        from (${counted(
          sql`select extract(epoch from (${pulls.stageChangedAt} - ${pulls.serviceCreatedAt})) / 86400 as days`,
          wonWhere(filter),
          stageLiteral(WIN_STAGE),
        )}) w`,
  );
  return row?.days === null || row?.days === undefined ? null : Number(row.days);
}

/**
 * Won premium in all and the close ratio, by the rules of getReport, and nothing else: what an
 * agent's My pulls shows for this month and all time. Two statements where the whole report
 * (won premium six ways, funnel, sources, recycled wins…) is thirteen.
 */
export async function computeWonAndCloseRatioFromPulls(db: Db, filter: ReportFilter) {
  const [[won], closeRatio] = await Promise.all([
    queryRows<{ count: number; cents: number }>(
      db,
      sql`select count(*)::int as count, coalesce(sum(w.cents), 0)::float8 as cents
          from (${counted(sql`select ${pulls.wonPremiumCents} as cents`, wonWhere(filter), stageLiteral(WIN_STAGE))}) w`,
    ),
    getCloseRatio(db, filter),
  ]);
  return { won: { count: Number(won?.count ?? 0), cents: Number(won?.cents ?? 0) }, closeRatio };
}

export async function computeReportFromPulls(db: Db, filter: ReportFilter) {
  const period: ReportPeriod = filter.period ?? "month";
  const { start, end } = rangeOf(filter);
  const created = [...common(filter)];
  if (start) created.push(sql`${pulls.serviceCreatedAt} >= ${at(start)}`);
  if (end) created.push(sql`${pulls.serviceCreatedAt} < ${at(end)}`);
  if (filter.agent) created.push(sql`${pulls.assigneeId} = ${filter.agent}`);
  if (filter.office) created.push(agentInOffice(pulls.assigneeId, filter.office));
  const open = [...common(filter), stageIs(OPEN_STAGE), sql`${pulls.status} = 'SUCCESS'`, sql`not ${pulls.isArchived}`];
  if (filter.agent) open.push(sql`${pulls.assigneeId} = ${filter.agent}`);
  if (filter.office) open.push(agentInOffice(pulls.assigneeId, filter.office));

  const [won, closeRatio, pipeline, newPulls, recycledWins, sources] = await Promise.all([
    wonFigures(db, filter, period),
    getCloseRatio(db, filter),
    queryRows<{ count: number; cents: number }>(
      db,
      sql`select count(*)::int as count, coalesce(sum(${pulls.totalPremiumCents}), 0)::float8 as cents from ${pulls} where ${sql.join(open, sql` and `)}`,
    ),
    queryRows<CreatedRow>(
      db,
      // Period by period: the first and last link date, then one count per period over an index
      // range (pulls_report_created_idx). The same rows as grouping every pull by
      // date_trunc, without computing it 100,000 times. The same pass counts the funnel of
      // those pulls (successful, assigned, decided, won: each step part of the one before, a
      // pull decided without an assignee taken up by whoever decided it), summed per period
      // in getReport. A decision carried to a refresh is not the refresh's own while the earlier
      // pull holds it (counted() above): those few, found through the decided pulls' index,
      // come on every row as `copies`, taken off the sums once.
      sql`with bounds as (
            select date_trunc(${period}, min(${pulls.serviceCreatedAt}) at time zone 'UTC') as lo, max(${pulls.serviceCreatedAt}) at time zone 'UTC' as hi
            from ${pulls} where ${sql.join(created, sql` and `)} and ${pulls.serviceCreatedAt} is not null),
          copies as (
            select count(*) filter (where ${pulls.assigneeId} is null)::int as unassigned, count(*)::int as worked,
                   count(*) filter (where ${isWinSql()})::int as won
            from ${pulls}
            where ${sql.join(created, sql` and `)} and ${pulls.serviceCreatedAt} is not null and ${pulls.status} = 'SUCCESS'
              and ${isDecisionSql()} and ${pulls.decisionCarried} and ${earlierDecision()})
          select ${day(sql`s.period`)} as period, c.count, c.successful, c.assigned, c.worked, c.won,
                 k.unassigned as copies_unassigned, k.worked as copies_worked, k.won as copies_won
          from bounds b
          cross join copies k
          cross join lateral generate_series(b.lo, b.hi, ${intervalOf(period)}) as s(period)
          cross join lateral (
            select count(*)::int as count, count(*) filter (where ${pulls.status} = 'SUCCESS')::int as successful,
                   count(*) filter (where ${pulls.status} = 'SUCCESS' and (${pulls.assigneeId} is not null or ${stageIsNot(OPEN_STAGE)}))::int as assigned,
                   count(*) filter (where ${pulls.status} = 'SUCCESS' and ${stageIsNot(OPEN_STAGE)})::int as worked,
                   count(*) filter (where ${pulls.status} = 'SUCCESS' and ${isWinSql()})::int as won
            from ${pulls}
            where ${sql.join(created, sql` and `)}
              and ${pulls.serviceCreatedAt} >= (s.period at time zone 'UTC')
              and ${pulls.serviceCreatedAt} < ((s.period + ${intervalOf(period)}) at time zone 'UTC')) c
          where c.count > 0
          order by s.period`,
    ),
    // Deals that came back on their own and were won again (./recycled-wins.ts).
    getRecycledWins(db, filter),
    // Where business comes from and how fast it is worked, per link and per agent (./sources.ts).
    getSourceFigures(db, filter),
  ]);

  return {
    period,
    won: { count: won.byAgent.reduce((a, r) => a + r.count, 0), cents: won.byAgent.reduce((a, r) => a + r.cents, 0) },
    byAgent: won.byAgent,
    byPeriod: won.byPeriod.sort((a, b) => a.key.localeCompare(b.key)),
    byPeriodAgent: won.byPeriodAgent,
    byCarrier: won.byCarrier,
    byLine: won.byLine,
    byLink: won.byLink,
    closeRatio,
    pipeline: { count: Number(pipeline[0]?.count ?? 0), cents: Number(pipeline[0]?.cents ?? 0) },
    medianDaysToWon: won.medianDaysToWon,
    newPulls: newPulls.map((r): PeriodRow => ({
      period: r.period,
      count: Number(r.count),
      successful: Number(r.successful),
    })),
    funnel: funnelSteps(funnelOf(newPulls)),
    recycledWins,
    sourcesByLink: sources.byLink,
    sourcesByAgent: sources.byAgent,
  };
}

/**
 * Losses decided in the range (losses() above: kept when the deal came back), by why, by the
 * carrier that won them, and by whose loss it was, in one statement.
 */
export async function computeLostReasonsFromPulls(db: Db, filter: ReportFilter): Promise<LostRow[]> {
  const rows = await queryRows<{
    dimension: LostRow["dimension"];
    key: string | null;
    label: string | null;
    count: number;
    lost_to_cents: string | number | null;
    priced: number;
  }>(
    db,
    sql`with lost as (${losses(filter)}),
      grouped as (
        select case when grouping(reason) = 0 then 'reason' when grouping(carrier) = 0 then 'carrier' else 'agent' end as dimension,
               coalesce(reason, carrier, owner::text) as key,
               count(*)::int as count, sum(cents) as lost_to_cents, count(cents)::int as priced
        from lost group by grouping sets ((reason), (carrier), (owner)))
      select g.dimension, g.key, case when g.dimension = 'agent' then coalesce(${users.name}, 'No one') else g.key end as label,
             g.count, g.lost_to_cents, g.priced
      from grouped g left join ${users} on g.dimension = 'agent' and ${users.id}::text = g.key
      order by g.dimension, g.count desc, g.key`,
  );
  return lostRowsOf(rows);
}
