import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { reportRollups as r, users } from "@/db/schema";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { funnelSteps, type FunnelCounts } from "./funnel-steps";
import { getRecycledWins } from "./recycled-wins";
import { rangeOf, type ReportFilter, type ReportPeriod } from "./report-filter";
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
import { refreshReportRollups } from "./rollups";
import { agentInOffice } from "./office-filter";
import { getMedianDaysToWonFromRollups, getSourceFiguresFromRollups } from "./sources-from-rollups";

export type { LostRow, PeriodAgentRow, PeriodRow, RatioRow, Row } from "./report-rows";

// Manager reporting, summed from the reports' rollups (db/schema/report-rollups.ts): won
// premium, the close ratio, lost reasons, the open pipeline, new linked accounts and the funnel.
// The rules they follow are those of ./queries-from-pulls.ts (written out there, and in
// docs/using-coverdesk.md), which computes the same figures from the pulls; the rollups hold each
// pull's contribution by day, agent, carrier, lines and link, so every filter of the page
// (dates, agent, line, link) is a condition on the sums. Each reader refreshes the sums first
// (./rollups.ts), so a report counts every change committed before it.
// The median days to WON and the sources tables are read from histograms and sums kept beside
// these (./sources-from-rollups.ts); still read from the pulls: the recycled wins
// (./recycled-wins.ts, and the sources tables' column of them).

/** A day as a parameter (the rollups' days are UTC dates, as rangeOf's bounds are UTC midnights). */
const dayOf = (date: Date) => sql`${date.toISOString().slice(0, 10)}::date`;
/** A period's first day as text, applied to an already grouped date_trunc. */
const day = (column: SQL) => sql`to_char(${column}, 'YYYY-MM-DD')`;
/** The lines as the reports word them ("AUTO + HOMEOWNERS", NONE), as policyLines does for a pull. */
const linesWords = sql`(case when cardinality(${r.lines}) = 0 then 'NONE' else array_to_string(${r.lines}, ' + ') end)`;

/**
 * The rollup rows of `kinds` under the filter. The agent is the figure's own (credited, whose
 * loss, assignee); the open pipeline has no day, so `dated` is false for it.
 */
function rollupsWhere(filter: ReportFilter, kinds: string[], dated = true): SQL {
  const { start, end } = rangeOf(filter);
  const parts = [
    kinds.length === 1
      ? sql`${r.kind} = ${kinds[0]}`
      : sql`${r.kind} in (${sql.join(
          kinds.map((k) => sql`${k}`),
          sql`, `,
        )})`,
  ];
  if (dated && start) parts.push(sql`${r.day} >= ${dayOf(start)}`);
  if (dated && end) parts.push(sql`${r.day} < ${dayOf(end)}`);
  if (filter.agent) parts.push(sql`${r.agentId} = ${filter.agent}`);
  if (filter.office) parts.push(agentInOffice(r.agentId, filter.office));
  if (filter.line) parts.push(sql`${r.lines} @> array[${filter.line}]::text[]`);
  if (filter.link) parts.push(sql`${r.link} = ${filter.link}`);
  return sql.join(parts, sql` and `);
}

type WonRow = WonDimensionRow & { dimension: WonDimension };

/** Won premium by agent, period, period and agent, carrier, line and link, in one pass over the won sums. */
async function wonFigures(db: Db, filter: ReportFilter, period: ReportPeriod) {
  const rows = await queryRows<WonRow>(
    db,
    sql`with won as (
          select ${r.agentId} as agent, date_trunc(${period}, ${r.day}::timestamp) as period, ${r.carrier} as carrier,
                 ${r.carrierName} as carrier_name, ${linesWords} as lines, ${r.link} as link, ${r.count} as count, ${r.cents} as cents
          from ${r} where ${rollupsWhere(filter, ["won"])}),
        grouped as (
          -- (period, agent) first: its rows have both grouped, which the single checks would misread.
          select case when grouping(period, agent) = 0 then 'periodAgent' when grouping(agent) = 0 then 'agent'
                      when grouping(period) = 0 then 'period' when grouping(carrier) = 0 then 'carrier'
                      when grouping(lines) = 0 then 'line' else 'link' end as dimension,
                 agent, period, carrier, carrier_name, lines, link,
                 sum(count)::int as count, coalesce(sum(cents), 0)::float8 as cents
          from won
          group by grouping sets ((agent), (period), (period, agent), (carrier, carrier_name), (lines), (link)))
        select g.dimension,
               case g.dimension when 'agent' then coalesce(g.agent::text, '') when 'period' then ${day(sql`g.period`)}
                    when 'periodAgent' then ${day(sql`g.period`)}
                    when 'carrier' then g.carrier when 'line' then g.lines else coalesce(g.link, '') end as key,
               case g.dimension when 'agent' then coalesce(${users.name}, 'No one') when 'period' then ${day(sql`g.period`)}
                    when 'periodAgent' then coalesce(${users.name}, 'No one')
                    when 'carrier' then g.carrier_name when 'line' then g.lines else coalesce(g.link, 'No link') end as label,
               g.count, g.cents,
               case when g.dimension = 'periodAgent' then coalesce(g.agent::text, '') end as agent
        from grouped g left join ${users} on ${users.id} = g.agent
        order by 1, 5 desc, 3`,
  );
  return wonFiguresOf(rows);
}

/** The close ratio per owner (the credited agent of a win, whose loss it was) and in all. */
async function getCloseRatio(db: Db, filter: ReportFilter): Promise<CloseRatio> {
  const owners = await queryRows<{ key: string | null; label: string | null; won: number; lost: number }>(
    db,
    // Grouped by owner first, then named: the users join runs once per owner.
    sql`select g.key::text as key, coalesce(${users.name}, 'No one') as label, g.won, g.lost from (
          select ${r.agentId} as key,
                 coalesce(sum(${r.count}) filter (where ${r.kind} = 'won'), 0)::int as won,
                 coalesce(sum(${r.count}) filter (where ${r.kind} = 'lost'), 0)::int as lost
          from ${r} where ${rollupsWhere(filter, ["won", "lost"])}
          group by 1) g
        left join ${users} on ${users.id} = g.key
        order by 2`,
  );
  return closeRatioOf(owners);
}

/** Won premium in all, by the rules of getReport. */
async function getWonTotal(db: Db, filter: ReportFilter): Promise<{ count: number; cents: number }> {
  const [won] = await queryRows<{ count: number; cents: number }>(
    db,
    sql`select coalesce(sum(${r.count}), 0)::int as count, coalesce(sum(${r.cents}), 0)::float8 as cents
        from ${r} where ${rollupsWhere(filter, ["won"])}`,
  );
  return { count: Number(won?.count ?? 0), cents: Number(won?.cents ?? 0) };
}

/**
 * Won premium in all and the close ratio, by the rules of getReport, and nothing else: what an
 * agent's My pulls shows for this month and all time.
 */
export async function getWonAndCloseRatio(db: Db, filter: ReportFilter) {
  await refreshReportRollups(db);
  const [won, closeRatio] = await Promise.all([getWonTotal(db, filter), getCloseRatio(db, filter)]);
  return { won, closeRatio };
}

type CreatedRow = { period: string; count: number; successful: number; assigned: number; worked: number; won: number };

export async function getReport(db: Db, filter: ReportFilter) {
  const period: ReportPeriod = filter.period ?? "month";
  await refreshReportRollups(db);
  const [won, closeRatio, pipeline, newPulls, medianDaysToWon, recycledWins, sources] = await Promise.all([
    wonFigures(db, filter, period),
    getCloseRatio(db, filter),
    queryRows<{ count: number; cents: number }>(
      db,
      sql`select coalesce(sum(${r.count}), 0)::int as count, coalesce(sum(${r.cents}), 0)::float8 as cents
          from ${r} where ${rollupsWhere(filter, ["open"], false)}`,
    ),
    // New linked accounts per period, and the funnel of those pulls: each pull's steps are summed
    // into its link day (a decision carried from the account's earlier pull left out of its steps).
    queryRows<CreatedRow>(
      db,
      sql`select ${day(sql`date_trunc(${period}, ${r.day}::timestamp)`)} as period, sum(${r.count})::int as count,
                 sum(${r.successful})::int as successful, sum(${r.assigned})::int as assigned,
                 sum(${r.worked})::int as worked, sum(${r.won})::int as won
          from ${r} where ${rollupsWhere(filter, ["created"])}
          group by 1 order by 1`,
    ),
    getMedianDaysToWonFromRollups(db, filter),
    // Deals that came back on their own and were won again (./recycled-wins.ts).
    getRecycledWins(db, filter),
    // Where business comes from and how fast it is worked, per link and per agent.
    getSourceFiguresFromRollups(db, filter),
  ]);
  const sum = (pick: (x: CreatedRow) => number) => newPulls.reduce((a, x) => a + Number(pick(x)), 0);
  const funnel: FunnelCounts = {
    linked: sum((x) => x.count),
    successful: sum((x) => x.successful),
    assigned: sum((x) => x.assigned),
    worked: sum((x) => x.worked),
    won: sum((x) => x.won),
  };

  return {
    period,
    won: { count: won.byAgent.reduce((a, x) => a + x.count, 0), cents: won.byAgent.reduce((a, x) => a + x.cents, 0) },
    byAgent: won.byAgent,
    byPeriod: won.byPeriod.sort((a, b) => a.key.localeCompare(b.key)),
    byPeriodAgent: won.byPeriodAgent,
    byCarrier: won.byCarrier,
    byLine: won.byLine,
    byLink: won.byLink,
    closeRatio,
    pipeline: { count: Number(pipeline[0]?.count ?? 0), cents: Number(pipeline[0]?.cents ?? 0) },
    medianDaysToWon,
    newPulls: newPulls.map((x): PeriodRow => ({
      period: x.period,
      count: Number(x.count),
      successful: Number(x.successful),
    })),
    funnel: funnelSteps(funnel),
    recycledWins,
    sourcesByLink: sources.byLink,
    sourcesByAgent: sources.byAgent,
  };
}
export type Report = Awaited<ReturnType<typeof getReport>>;

/**
 * Losses decided in the range (kept when the deal came back), by why, by the carrier that won
 * them, and by whose loss it was, in one pass over the loss sums.
 */
export async function getLostReasons(db: Db, filter: ReportFilter): Promise<LostRow[]> {
  await refreshReportRollups(db);
  const rows = await queryRows<{
    dimension: LostRow["dimension"];
    key: string | null;
    label: string | null;
    count: number;
    lost_to_cents: number | null;
    priced: number;
  }>(
    db,
    sql`with lost as (
        select ${r.agentId} as owner, ${r.reason} as reason, ${r.lostTo} as carrier, ${r.count} as count,
               ${r.cents} as cents, ${r.priced} as priced
        from ${r} where ${rollupsWhere(filter, ["lost"])}),
      grouped as (
        select case when grouping(reason) = 0 then 'reason' when grouping(carrier) = 0 then 'carrier' else 'agent' end as dimension,
               coalesce(reason, carrier, owner::text) as key,
               sum(count)::int as count, sum(cents)::float8 as lost_to_cents, sum(priced)::int as priced
        from lost group by grouping sets ((reason), (carrier), (owner)))
      select g.dimension, g.key, case when g.dimension = 'agent' then coalesce(${users.name}, 'No one') else g.key end as label,
             g.count, g.lost_to_cents, g.priced
      from grouped g left join ${users} on g.dimension = 'agent' and ${users.id}::text = g.key
      order by g.dimension, g.count desc, g.key`,
  );
  return lostRowsOf(rows);
}
