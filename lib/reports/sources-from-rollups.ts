import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { reportSourceRollups as s, users } from "@/db/schema";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { rangeOf, type ReportFilter } from "./report-filter";
import { agentInOffice } from "./office-filter";
import { recycledWins, sourceTablesOf, type SourceFigures, type SourcePart } from "./sources";

// The sources tables and the headline's median days to WON, summed from the sources' rollups
// (db/schema/source-rollups.ts, migration 0048) instead of read from the pulls: the rules are
// those of ./sources.ts and getMedianDaysToWon (./queries-from-pulls.ts), which stay as the
// reference (./rollup-reconcile.test.ts compares the two). Every filter of the page (dates,
// agent, line, link) is a condition on the sums, so none falls back to the pulls. The caller
// refreshes the sums first (./rollups.ts). The recycled wins are still read from the pulls.
//
// The sums are kept by day and by month: a range reads its whole months from the month rows and
// only the days at its ends from the day rows (spansOf), so all time reads a few months' rows.
// A median is read from a histogram: the counts per bucket, in the bucket's order, summed up to
// the middle one or two ranks (percentile_cont's middle: ranks ⌊(n−1)/2⌋+1 and ⌈(n−1)/2⌉+1).
// A bucket is the duration as the page shows it (report_duration_bucket: whole minutes under 2
// hours, whole hours under 2 days, whole days; tenths of a day for the headline), so the shown
// median equals the one from the pulls when one value is in the middle, and is within one unit
// of what the page shows (a minute, an hour, a day; 0.1 day) when two are.

/** A day as a parameter (the rollups' days are UTC dates, as rangeOf's bounds are UTC midnights). */
const dayOf = (date: Date) => sql`${date.toISOString().slice(0, 10)}::date`;
const firstOfMonth = (date: Date, months = 0) =>
  new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));

type Span = [Date | null, Date | null];

/**
 * The range as whole months (read from the month rows) and the days at its ends (from the day
 * rows); null months when the range holds no whole month. Null bounds are open.
 */
export function spansOf(start: Date | null, end: Date | null): { months: Span | null; days: Span[] } {
  const monthsFrom = start === null ? null : start.getUTCDate() === 1 ? start : firstOfMonth(start, 1);
  const monthsTo = end === null ? null : firstOfMonth(end);
  if (monthsFrom && monthsTo && monthsFrom >= monthsTo) return { months: null, days: [[start, end]] };
  const days: Span[] = [];
  if (start && monthsFrom && start < monthsFrom) days.push([start, monthsFrom]);
  if (end && monthsTo && monthsTo < end) days.push([monthsTo, end]);
  return { months: [monthsFrom, monthsTo], days };
}

const kindsIn = (kinds: string[]) =>
  sql`${s.kind} in (${sql.join(
    kinds.map((k) => sql`${k}`),
    sql`, `,
  )})`;
const within = ([from, to]: Span): SQL =>
  sql.join(
    [sql`true`, ...(from ? [sql`${s.day} >= ${dayOf(from)}`] : []), ...(to ? [sql`${s.day} < ${dayOf(to)}`] : [])],
    sql` and `,
  );

/** The sums of `kinds` under the filter; the agent is the figure's own (assignee, or credited for a win). */
function sumsWhere(filter: ReportFilter, kinds: string[]): SQL {
  const { start, end } = rangeOf(filter);
  const { months, days } = spansOf(start, end);
  const spans: SQL[] = [];
  if (months) spans.push(sql`(${kindsIn(kinds.map((k) => `${k}:month`))} and ${within(months)})`);
  if (days.length > 0)
    spans.push(
      sql`(${kindsIn(kinds)} and (${sql.join(
        days.map((d) => sql`(${within(d)})`),
        sql` or `,
      )}))`,
    );
  const parts = [sql`(${sql.join(spans, sql` or `)})`];
  if (filter.agent) parts.push(sql`${s.agentId} = ${filter.agent}`);
  if (filter.office) parts.push(agentInOffice(s.agentId, filter.office));
  if (filter.line) parts.push(sql`${s.lines} @> array[${filter.line}]::text[]`);
  if (filter.link) parts.push(sql`${s.link} = ${filter.link}`);
  return sql.join(parts, sql` and `);
}

/** The middle of a histogram `cum` (bucket, upto: the count up to it, n: in all), averaged as percentile_cont does. */
const middle = sql`(min(bucket) filter (where upto >= floor((n - 1) / 2.0) + 1)
                   + min(bucket) filter (where upto >= ceil((n - 1) / 2.0) + 1)) / 2.0`;

/** Per link and per agent, from the sums: counts, wins and their median, first touches and theirs. */
async function arrivalsFromRollups(db: Db, filter: ReportFilter): Promise<SourcePart[]> {
  const dimension = sql`case when grouping(link) = 0 then 'link' else 'agent' end`;
  const key = sql`case when grouping(link) = 0 then coalesce(link, '') else coalesce(agent_id::text, '') end`;
  return queryRows<SourcePart>(
    db,
    sql`with f as materialized (
          select split_part(${s.kind}, ':', 1) as kind, ${s.link} as link, ${s.agentId} as agent_id, ${s.widgetId} as widget_id,
                 ${s.bucket} as bucket, ${s.count} as count, ${s.completed} as completed, ${s.assigned} as assigned,
                 ${s.lost} as lost, ${s.cents} as cents
          from ${s} where ${sumsWhere(filter, ["arrived", "won", "touch"])}),
        sums as (
          select kind, ${dimension} as dimension, ${key} as key, agent_id as agent, max(widget_id) as widget_id,
                 sum(count)::int as count, sum(completed)::int as completed, sum(assigned)::int as assigned,
                 sum(lost)::int as lost, sum(cents)::float8 as cents
          from f group by grouping sets ((kind, link), (kind, agent_id))),
        hist as (
          select kind, ${dimension} as dimension, ${key} as key, bucket, sum(count) as c
          from f where kind <> 'arrived' group by grouping sets ((kind, link, bucket), (kind, agent_id, bucket))),
        cum as (
          select kind, dimension, key, bucket,
                 sum(c) over (partition by kind, dimension, key order by bucket) as upto,
                 sum(c) over (partition by kind, dimension, key) as n
          from hist),
        medians as (select kind, dimension, key, (${middle})::float8 as seconds from cum group by 1, 2, 3)
        select case s.kind when 'arrived' then 'created' else s.kind end as part, s.dimension, s.key,
               case when s.dimension = 'agent' then ${users.name} end as label,
               case when s.kind = 'touch' then s.widget_id end as widget_id,
               case when s.kind = 'arrived' then s.count end as arrived,
               case when s.kind = 'arrived' then s.completed end as completed,
               case when s.kind = 'arrived' then s.assigned end as assigned,
               case when s.kind = 'arrived' then s.lost end as lost,
               case when s.kind = 'won' then s.count end as won,
               case when s.kind = 'won' then s.cents end as cents,
               m.seconds
        from sums s
        left join medians m on m.kind = s.kind and m.dimension = s.dimension and m.key = s.key
        left join ${users} on s.dimension = 'agent' and ${users.id} = s.agent`,
  );
}

/** Both tables from the rollups, with the recycled wins from the pulls. */
export async function getSourceFiguresFromRollups(db: Db, filter: ReportFilter): Promise<SourceFigures> {
  const [parts, recycled] = await Promise.all([arrivalsFromRollups(db, filter), recycledWins(db, filter)]);
  return sourceTablesOf(parts, recycled);
}

/** The median days from linking to WON of the wins in the filter, from their histogram in tenths of a day. */
export async function getMedianDaysToWonFromRollups(db: Db, filter: ReportFilter): Promise<number | null> {
  const [row] = await queryRows<{ tenths: number | null }>(
    db,
    sql`with hist as (select ${s.bucket} as bucket, sum(${s.count}) as c from ${s} where ${sumsWhere(filter, ["won_days"])} group by 1),
        cum as (select bucket, sum(c) over (order by bucket) as upto, sum(c) over () as n from hist)
        select (${middle})::float8 as tenths from cum`,
  );
  return row?.tenths === null || row?.tenths === undefined ? null : Number(row.tenths) / 10;
}
