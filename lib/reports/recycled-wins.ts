import "server-only";
import { agentInOffice } from "./office-filter";
import { sql, type SQL } from "drizzle-orm";
import { dealReturns, pulls, users } from "@/db/schema";
import { queryRows } from "@/db/connect";
import { qualified } from "@/db/sql";
import type { Db } from "@/db/types";
import { dealReturnKindLabel } from "@/lib/workflow/deal-return-words";
import { rangeOf, type ReportFilter } from "./report-filter";
import { isWinSql } from "@/lib/core/stage-sql";

// Recycled wins: deals that came back on their own (lib/workflow/deal-returns.ts) and what they
// brought in, by agent and by kind, under the reports' filter. Two figures per group, each on
// its own date: deals that came back in the range (to whom they went back), and returns won in
// the range with the premium won, credited like every win (to the agent the won pull was
// assigned to then) and only while that win stands.

export type RecycledRow = {
  dimension: "agent" | "kind";
  /** The agent's id ("" for the queue), or the kind (RECYCLED, WIN_BACK). */
  key: string;
  label: string;
  returned: number;
  won: number;
  cents: number;
};

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
const col = (alias: string, column: Parameters<typeof qualified>[1]) => qualified(alias, column);

export async function getRecycledWins(db: Db, filter: ReportFilter): Promise<RecycledRow[]> {
  const { start, end } = rangeOf(filter);
  const range = (column: SQL) => [
    ...(start ? [sql`${column} >= ${at(start)}`] : []),
    ...(end ? [sql`${column} < ${at(end)}`] : []),
  ];
  const narrowed = (alias: string) => [
    ...(filter.line ? [sql`${col(alias, pulls.policyTypes)} @> array[${filter.line}]::text[]`] : []),
    ...(filter.link ? [sql`${col(alias, pulls.publicAlias)} = ${filter.link}`] : []),
  ];
  const returnedWhere = [
    sql`true`,
    ...range(col("r", dealReturns.returnedAt)),
    ...narrowed("p"),
    ...(filter.agent ? [sql`${col("r", dealReturns.assigneeId)} = ${filter.agent}`] : []),
    ...(filter.office ? [agentInOffice(col("r", dealReturns.assigneeId), filter.office)] : []),
  ];
  const wonWhere = [
    sql`${col("r", dealReturns.wonAt)} is not null`,
    ...range(col("r", dealReturns.wonAt)),
    ...narrowed("w"),
    ...(filter.agent ? [sql`${col("w", pulls.wonCreditedTo)} = ${filter.agent}`] : []),
    ...(filter.office ? [agentInOffice(col("w", pulls.wonCreditedTo), filter.office)] : []),
  ];
  const rows = await queryRows<{
    dimension: RecycledRow["dimension"];
    key: string | null;
    label: string | null;
    returned: number;
    won: number;
    cents: number;
  }>(
    db,
    sql`with events as (
          select ${col("r", dealReturns.kind)} as kind, ${col("r", dealReturns.assigneeId)} as agent,
                 1 as returned, 0 as won, 0::float8 as cents
          from ${dealReturns} r join ${pulls} p on ${col("p", pulls.pullId)} = ${col("r", dealReturns.pullId)}
          where ${sql.join(returnedWhere, sql` and `)}
          union all
          -- The win is on the returned pull, or on a refresh of its account stored since: the
          -- account's pull marked WON at that very moment, still WON.
          select ${col("r", dealReturns.kind)}, ${col("w", pulls.wonCreditedTo)}, 0, 1,
                 coalesce(${col("r", dealReturns.wonPremiumCents)}, 0)::float8
          from ${dealReturns} r
          cross join lateral (
            select ${col("w", pulls.wonCreditedTo)}, ${col("w", pulls.policyTypes)}, ${col("w", pulls.publicAlias)}
            from ${pulls} w
            where ${col("w", pulls.listed)} and ${isWinSql(col("w", pulls.stage))}
              and ${col("w", pulls.stageChangedAt)} = ${col("r", dealReturns.wonAt)}
              and (${col("w", pulls.pullId)} = ${col("r", dealReturns.pullId)}
                   or (${col("r", dealReturns.accountIdentifier)} is not null
                       and ${col("w", pulls.accountIdentifier)} = ${col("r", dealReturns.accountIdentifier)}))
            limit 1) w
          where ${sql.join(wonWhere, sql` and `)}),
        grouped as (
          select case when grouping(agent) = 0 then 'agent' else 'kind' end as dimension,
                 case when grouping(agent) = 0 then coalesce(agent::text, '') else kind end as key,
                 sum(returned)::int as returned, sum(won)::int as won, sum(cents)::float8 as cents
          from events group by grouping sets ((agent), (kind)))
        select g.dimension, g.key,
               case when g.dimension = 'agent' then coalesce(${users.name}, 'Unassigned queue') else g.key end as label,
               g.returned, g.won, g.cents
        from grouped g left join ${users} on g.dimension = 'agent' and ${users.id}::text = g.key
        order by g.dimension, g.cents desc, g.won desc, g.returned desc, 3`,
  );
  return rows.map((r) => ({
    dimension: r.dimension,
    key: r.key ?? "",
    label: r.dimension === "kind" ? dealReturnKindLabel(r.key ?? "") : (r.label ?? ""),
    returned: Number(r.returned),
    won: Number(r.won),
    cents: Number(r.cents),
  }));
}
