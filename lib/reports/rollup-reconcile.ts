import "server-only";
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { refreshReportRollups } from "./rollups";

// The reports' rollups checked against the book: every sum recomputed from the base tables
// (the views report_facts_now and report_source_facts_now, the rules of ./queries-from-pulls.ts
// and ./sources.ts) beside the sum kept, after a refresh, as a report would read them. Any
// difference is a write the rollups missed. The sources' sums (by day and by month) are reported
// with the kind "sources:<kind>", their widget and bucket among the values.

export type RollupDifference = {
  kind: string;
  day: string | null;
  agentId: string | null;
  carrier: string | null;
  lines: string[];
  link: string | null;
  reason: string | null;
  lostTo: string | null;
  /** The sums as recomputed, and as kept (null: no such row). */
  expected: Record<string, number> | null;
  kept: Record<string, number> | null;
};

const VALUES = ["count", "successful", "assigned", "worked", "won", "cents", "priced"] as const;

export async function reconcileReportRollups(db: Db): Promise<RollupDifference[]> {
  await refreshReportRollups(db);
  const sums = VALUES.map((v) => `'${v}', sum(${v})::float8`).join(", ");
  const kept = VALUES.map((v) => `'${v}', ${v}::float8`).join(", ");
  const rows = await queryRows<{
    kind: string;
    day: string | null;
    agent_id: string | null;
    carrier: string | null;
    lines: string[];
    link: string | null;
    reason: string | null;
    lost_to: string | null;
    expected: Record<string, number> | null;
    kept: Record<string, number> | null;
  }>(
    db,
    sql`with expected as (
          select kind, day, agent_id, carrier, carrier_name, lines, link, reason, lost_to,
                 jsonb_build_object(${sql.raw(sums)}) as v
          from report_facts_now
          group by kind, day, agent_id, carrier, carrier_name, lines, link, reason, lost_to),
        kept as (
          select kind, day, agent_id, carrier, carrier_name, lines, link, reason, lost_to, jsonb_build_object(${sql.raw(kept)}) as v
          from report_rollups),
        -- Grouped rather than joined: GROUP BY takes nulls as equal, a full join's keys may not.
        sides as (select 'e' as side, * from expected union all select 'k', * from kept)
        select kind, to_char(day, 'YYYY-MM-DD') as day, agent_id::text as agent_id, carrier, lines, link, reason, lost_to,
               (array_agg(v) filter (where side = 'e'))[1] as expected, (array_agg(v) filter (where side = 'k'))[1] as kept
        from sides
        group by kind, day, agent_id, carrier, carrier_name, lines, link, reason, lost_to
        having (array_agg(v) filter (where side = 'e'))[1] is distinct from (array_agg(v) filter (where side = 'k'))[1]
        order by 1, 2`,
  );
  const sources = await queryRows<{
    kind: string;
    day: string | null;
    agent_id: string | null;
    lines: string[];
    link: string | null;
    expected: Record<string, number> | null;
    kept: Record<string, number> | null;
  }>(
    db,
    sql`with sides as (
          select 'e' as side, kind, day, link, agent_id, lines, widget_id, bucket,
                 jsonb_build_object('count', sum(count), 'completed', sum(completed), 'assigned', sum(assigned),
                                    'lost', sum(lost), 'cents', sum(cents)::float8) as v
          from report_source_facts_now group by kind, day, link, agent_id, lines, widget_id, bucket
          union all
          select 'e', kind || ':month', date_trunc('month', day)::date, link, agent_id, lines, widget_id, bucket,
                 jsonb_build_object('count', sum(count), 'completed', sum(completed), 'assigned', sum(assigned),
                                    'lost', sum(lost), 'cents', sum(cents)::float8)
          from report_source_facts_now group by kind, date_trunc('month', day)::date, link, agent_id, lines, widget_id, bucket
          union all
          select 'k', kind, day, link, agent_id, lines, widget_id, bucket,
                 jsonb_build_object('count', count, 'completed', completed, 'assigned', assigned, 'lost', lost,
                                    'cents', cents::float8)
          from report_source_rollups)
        select 'sources:' || kind as kind, to_char(day, 'YYYY-MM-DD') as day, agent_id::text as agent_id, lines, link,
               (array_agg(v || jsonb_build_object('widget', widget_id, 'bucket', bucket)) filter (where side = 'e'))[1] as expected,
               (array_agg(v || jsonb_build_object('widget', widget_id, 'bucket', bucket)) filter (where side = 'k'))[1] as kept
        from sides
        group by kind, day, link, agent_id, lines, widget_id, bucket
        having (array_agg(v) filter (where side = 'e'))[1] is distinct from (array_agg(v) filter (where side = 'k'))[1]
        order by 1, 2`,
  );
  return [
    ...rows.map((x) => ({
      kind: x.kind,
      day: x.day,
      agentId: x.agent_id,
      carrier: x.carrier,
      lines: x.lines,
      link: x.link,
      reason: x.reason,
      lostTo: x.lost_to,
      expected: x.expected,
      kept: x.kept,
    })),
    ...sources.map((x) => ({
      kind: x.kind,
      day: x.day,
      agentId: x.agent_id,
      carrier: null,
      lines: x.lines,
      link: x.link,
      reason: null,
      lostTo: null,
      expected: x.expected,
      kept: x.kept,
    })),
  ];
}
