import { sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { pulls, users } from "@/db/schema";
import { policyLines, wonCreditedTo } from "@/lib/pulls/queries";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { rangeOf, type ReportFilter } from "./report-filter";

// Manager reporting, computed in SQL over the pulls table. Rules (also in the README):
// - Won premium counts WON pulls by the day they were marked won, credited to `won_credited_to`
//   (the assignee when it was won); reassigning a won pull does not move its credit.
// - "Line of business" of a pull is its combination of lines ("AUTO + HOMEOWNERS"), so a
//   multi-line win is counted once, never split or doubled.
// - Close ratio = WON / (WON + LOST) among pulls decided in the range, per owner (the credited
//   agent of a win, the assignee of a loss).
// - The open pipeline is the WORKING pulls of successful links, now, with the premium the
//   service reports for them.
// Sums are cast to float8: cents stay exact up to 2^53, and both drivers return plain numbers.

export type Row = { key: string; label: string; count: number; cents: number };
export type RatioRow = { key: string; label: string; won: number; lost: number; ratio: number | null };
export type PeriodRow = { period: string; count: number; successful: number };

const top = sql`${pulls.parentPullId} is null`;
/** An instant as a parameter both drivers accept (postgres-js does not take a Date in raw SQL). */
const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
/** The earlier pull of an account, in the carried-over check. */
const earlier = alias(pulls, "e"); // written `${pulls} ${earlier}` in a from clause

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
// `stage` is the pull's stage as the caller knows it ('WON' among won pulls): a constant lets
// PostgreSQL answer from the report indexes alone (pulls_report_won_carry_idx has no stage),
// and the earlier decision is found in pulls_account_decision_idx (decisions only).
const notCarriedCopy = (
  stage: SQL = sql`${pulls.stage}`,
) => sql`not (${pulls.accountIdentifier} is not null and exists (
  select 1 from ${pulls} ${earlier}
  where ${earlier.accountIdentifier} = ${pulls.accountIdentifier} and ${earlier.parentPullId} is null
    and ${earlier.stage} in ('WON', 'LOST') and ${earlier.stage} = ${stage} and ${earlier.stageChangedAt} = ${pulls.stageChangedAt}
    and (${earlier.createdAt}, ${earlier.pullId}) < (${pulls.createdAt}, ${pulls.pullId})))`;

function wonWhere(filter: ReportFilter): SQL {
  const { start, end } = rangeOf(filter);
  const parts = [...common(filter), sql`${pulls.stage} = 'WON'`, notCarriedCopy(sql`'WON'`)];
  if (start) parts.push(sql`${pulls.stageChangedAt} >= ${at(start)}`);
  if (end) parts.push(sql`${pulls.stageChangedAt} < ${at(end)}`);
  if (filter.agent) parts.push(wonCreditedTo(filter.agent));
  return sql.join(parts, sql` and `);
}

/**
 * Won premium grouped by one key. `format` turns the grouped key into its text after grouping
 * (periods are grouped as timestamps and formatted once per period, not once per pull).
 */
async function wonBy(
  db: Db,
  filter: ReportFilter,
  key: SQL,
  label: SQL,
  format?: (column: SQL) => SQL,
): Promise<Row[]> {
  const text = format ?? ((column: SQL) => column);
  const rows = await queryRows<{ key: string | null; label: string | null; count: number; cents: number }>(
    db,
    sql`select ${text(sql`g.key`)} as key, ${text(sql`g.label`)} as label, g.count, g.cents from (
          select ${key} as key, ${label} as label, count(*)::int as count, coalesce(sum(${pulls.wonPremiumCents}), 0)::float8 as cents
          from ${pulls} left join ${users} on ${users.id} = ${pulls.wonCreditedTo}
          where ${wonWhere(filter)}
          group by 1, 2) g
        order by 4 desc, 2`,
  );
  return rows.map((r) => ({ key: r.key ?? "", label: r.label ?? "", count: Number(r.count), cents: Number(r.cents) }));
}

/** A period's first day as text, applied to an already grouped date_trunc. */
const day = (column: SQL) => sql`to_char(${column}, 'YYYY-MM-DD')`;

export async function getReport(db: Db, filter: ReportFilter) {
  const period = filter.period ?? "month";
  const { start, end } = rangeOf(filter);
  const decided = [...common(filter), sql`${pulls.stage} in ('WON', 'LOST')`, notCarriedCopy()];
  if (start) decided.push(sql`${pulls.stageChangedAt} >= ${at(start)}`);
  if (end) decided.push(sql`${pulls.stageChangedAt} < ${at(end)}`);
  const owner = sql`case when ${pulls.stage} = 'WON' then ${pulls.wonCreditedTo} else ${pulls.assigneeId} end`;
  if (filter.agent) decided.push(sql`${owner} = ${filter.agent}`);
  const created = [...common(filter)];
  if (start) created.push(sql`${pulls.serviceCreatedAt} >= ${at(start)}`);
  if (end) created.push(sql`${pulls.serviceCreatedAt} < ${at(end)}`);
  if (filter.agent) created.push(sql`${pulls.assigneeId} = ${filter.agent}`);
  const open = [
    ...common(filter),
    sql`${pulls.stage} = 'WORKING'`,
    sql`${pulls.status} = 'SUCCESS'`,
    sql`not ${pulls.isArchived}`,
  ];
  if (filter.agent) open.push(sql`${pulls.assigneeId} = ${filter.agent}`);

  const [byAgent, byPeriod, byCarrier, byLine, byLink, ratios, pipeline, median, newPulls] = await Promise.all([
    wonBy(db, filter, sql`coalesce(${pulls.wonCreditedTo}::text, '')`, sql`coalesce(${users.name}, 'No one')`),
    wonBy(
      db,
      filter,
      sql`date_trunc(${period}, ${pulls.stageChangedAt} at time zone 'UTC')`,
      sql`date_trunc(${period}, ${pulls.stageChangedAt} at time zone 'UTC')`,
      day,
    ),
    wonBy(
      db,
      filter,
      sql`coalesce(${pulls.providerName}, '')`,
      sql`coalesce(${pulls.providerFriendlyName}, ${pulls.providerName}, 'Unknown')`,
    ),
    wonBy(db, filter, policyLines, policyLines),
    wonBy(db, filter, sql`coalesce(${pulls.publicAlias}, '')`, sql`coalesce(${pulls.publicAlias}, 'No link')`),
    queryRows<{ key: string | null; label: string | null; won: number; lost: number }>(
      db,
      // Grouped by owner first, then named: the users join runs once per owner, not per pull.
      sql`select g.key::text as key, coalesce(${users.name}, 'No one') as label, g.won, g.lost from (
            select ${owner} as key,
                   count(*) filter (where ${pulls.stage} = 'WON')::int as won, count(*) filter (where ${pulls.stage} = 'LOST')::int as lost
            from ${pulls}
            where ${sql.join(decided, sql` and `)}
            group by 1) g
          left join ${users} on ${users.id} = g.key
          order by 2`,
    ),
    queryRows<{ count: number; cents: number }>(
      db,
      sql`select count(*)::int as count, coalesce(sum(${pulls.totalPremiumCents}), 0)::float8 as cents from ${pulls} where ${sql.join(open, sql` and `)}`,
    ),
    queryRows<{ days: number | null }>(
      db,
      sql`select percentile_cont(0.5) within group (order by extract(epoch from (${pulls.stageChangedAt} - ${pulls.serviceCreatedAt})) / 86400)::float8 as days
          from ${pulls} where ${wonWhere(filter)} and ${pulls.serviceCreatedAt} is not null`,
    ),
    queryRows<{ period: string; count: number; successful: number }>(
      db,
      // Period by period: the first and last link date, then one count per period over an index
      // range (pulls_report_created_idx). The same rows as grouping every pull by
      // date_trunc, without computing it 100,000 times.
      sql`with bounds as (
            select date_trunc(${period}, min(${pulls.serviceCreatedAt}) at time zone 'UTC') as lo, max(${pulls.serviceCreatedAt}) at time zone 'UTC' as hi
            from ${pulls} where ${sql.join(created, sql` and `)} and ${pulls.serviceCreatedAt} is not null)
          select ${day(sql`s.period`)} as period, c.count, c.successful
          from bounds b
          cross join lateral generate_series(b.lo, b.hi, ('1 ' || ${period})::interval) as s(period)
          cross join lateral (
            select count(*)::int as count, count(*) filter (where ${pulls.status} = 'SUCCESS')::int as successful
            from ${pulls}
            where ${sql.join(created, sql` and `)}
              and ${pulls.serviceCreatedAt} >= (s.period at time zone 'UTC')
              and ${pulls.serviceCreatedAt} < ((s.period + ('1 ' || ${period})::interval) at time zone 'UTC')) c
          where c.count > 0
          order by s.period`,
    ),
  ]);

  const ratioRows: RatioRow[] = ratios.map((r) => ({
    key: r.key ?? "",
    label: r.label ?? "No one",
    won: Number(r.won),
    lost: Number(r.lost),
    ratio: Number(r.won) + Number(r.lost) > 0 ? Number(r.won) / (Number(r.won) + Number(r.lost)) : null,
  }));
  const totalWon = ratioRows.reduce((a, r) => a + r.won, 0);
  const totalLost = ratioRows.reduce((a, r) => a + r.lost, 0);
  return {
    period,
    won: { count: byAgent.reduce((a, r) => a + r.count, 0), cents: byAgent.reduce((a, r) => a + r.cents, 0) },
    byAgent,
    byPeriod: byPeriod.sort((a, b) => a.key.localeCompare(b.key)),
    byCarrier,
    byLine,
    byLink,
    closeRatio: {
      rows: ratioRows,
      won: totalWon,
      lost: totalLost,
      ratio: totalWon + totalLost > 0 ? totalWon / (totalWon + totalLost) : null,
    },
    pipeline: { count: Number(pipeline[0]?.count ?? 0), cents: Number(pipeline[0]?.cents ?? 0) },
    medianDaysToWon: median[0]?.days === null || median[0]?.days === undefined ? null : Number(median[0].days),
    newPulls: newPulls.map((r): PeriodRow => ({
      period: r.period,
      count: Number(r.count),
      successful: Number(r.successful),
    })),
  };
}
export type Report = Awaited<ReturnType<typeof getReport>>;
