// `DATABASE_URL=… node --conditions=react-server --import tsx bench/audit-partitions.ts [rows a month]`:
// what the audit trail's monthly partitions (migration 0044) buy, on PostgreSQL, in a database of
// its own: a trail of 16 months (three past the five-year floor, the last thirteen), the same rows
// in an unpartitioned copy with the same indexes, then (1) the incident-scope report over one month,
// its plan and time; (2) a one-month count on both tables; (3) disposal of the months past the
// floor: dispose_audit_events (whole partitions dropped) against a row-wise DELETE of the same rows
// in the copy. Prints the plans and a table of timings for docs/growth.md.
import { randomBytes } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import postgres from "postgres";
import { openDatabase, queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { incidentScopeInputSchema, incidentScopeSql } from "@/lib/audit/incident-scope";
import { installSealedJsonCodec } from "@/lib/security/sealed-json-codec";

installSealedJsonCodec();

const ROWS_A_MONTH = Number(process.argv[2] ?? 40_000);
const OLD_MONTHS = [63, 62, 61]; // months ago: past the 60-month floor
const RECENT_MONTHS = Array.from({ length: 13 }, (_, i) => 12 - i);

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await run();
  return { ms: performance.now() - started, value };
}

async function plan(db: Db, query: SQL): Promise<string> {
  const rows = await queryRows<{ "QUERY PLAN": string }>(
    db,
    sql`explain (analyze, buffers, costs off, timing off, summary off) ${query}`,
  );
  return rows.map((row) => row["QUERY PLAN"]).join("\n");
}

async function main(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("Set DATABASE_URL: the comparison is of PostgreSQL plans.");
  const name = `coverdesk_partitions_${randomBytes(4).toString("hex")}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const connection = await openDatabase({ kind: "postgres", url: url.toString(), maxConnections: 2 });
  const db = connection.db;
  try {
    const months = [...OLD_MONTHS, ...RECENT_MONTHS];
    for (const ago of months)
      await db.execute(
        sql`select create_month_partition('audit_events', (date_trunc('month', now() at time zone 'UTC') - make_interval(months => ${ago}::int))::date)`,
      );
    const load = await timed(async () => {
      for (const ago of months)
        await db.execute(sql`insert into audit_events (at, actor_id, action, pull_id, session_id, details)
          select date_trunc('month', now() at time zone 'UTC') at time zone 'UTC' - make_interval(months => ${ago}::int)
                   + (g::float / ${ROWS_A_MONTH}) * interval '28 days',
                 ('00000000-0000-4000-8000-' || lpad(to_hex(g % 40), 12, '0'))::uuid,
                 (array['PULL_VIEWED', 'STAGE_CHANGED', 'PULL_ASSIGNED', 'CSV_EXPORTED'])[1 + g % 4],
                 gen_random_uuid(), md5(g::text), '{}'::jsonb
          from generate_series(1, ${ROWS_A_MONTH}) g`);
    });
    await db.execute(sql`create table audit_flat as select * from audit_events`);
    await db.execute(sql`alter table audit_flat add primary key (id)`);
    for (const columns of ["pull_id, at", "session_id, at", "actor_id", "action", "at"])
      await db.execute(sql.raw(`create index on audit_flat (${columns})`));
    // The copy refuses edits as the trail did before 0044, so its row-wise disposal pays the same trigger.
    await db.execute(sql`create trigger audit_flat_append_only before update or delete on audit_flat
      for each row execute function audit_events_append_only()`);
    await db.execute(sql`analyze audit_events`);
    await db.execute(sql`analyze audit_flat`);
    const total = months.length * ROWS_A_MONTH;
    console.log(
      `${total.toLocaleString("en-US")} audit rows over ${months.length} months, loaded in ${(load.ms / 1000).toFixed(1)} s`,
    );

    // (1) The incident-scope report over last month.
    const [window] = await queryRows<{ from: string; to: string }>(
      db,
      sql`select to_char(date_trunc('month', now() at time zone 'UTC') - interval '1 month', 'YYYY-MM-DD') as from,
                 to_char(date_trunc('month', now() at time zone 'UTC') - interval '1 day', 'YYYY-MM-DD') as to`,
    );
    const input = incidentScopeInputSchema.parse({ from: window?.from, to: window?.to });
    const scope = sql`${incidentScopeSql(input)} select count(*) from consumers`;
    console.log(`\nIncident scope, ${window?.from} to ${window?.to}:\n${await plan(db, scope)}`);

    // (2) One month's count, both ways (best of five, warm).
    const month = sql`at >= ${input.start.toISOString()}::timestamptz and at < ${input.end.toISOString()}::timestamptz and action = 'PULL_VIEWED'`;
    const best = async (query: SQL) => {
      let min = Infinity;
      for (let i = 0; i < 5; i++) min = Math.min(min, (await timed(() => db.execute(query))).ms);
      return min;
    };
    const partitionedCount = await best(sql`select count(*) from audit_events where ${month}`);
    const flatCount = await best(sql`select count(*) from audit_flat where ${month}`);
    const scopeMs = await best(scope);
    console.log(
      `\nOne month's count, partitioned:\n${await plan(db, sql`select count(*) from audit_events where ${month}`)}`,
    );
    console.log(
      `\nOne month's count, unpartitioned:\n${await plan(db, sql`select count(*) from audit_flat where ${month}`)}`,
    );

    // (3) Disposal of the months past the floor.
    const cutoff = sql`least(now(), now() - interval '60 months')`;
    const [due] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from audit_events where at < ${cutoff}`,
    );
    const size = async () =>
      (
        await queryRows<{ partitioned: number | string; flat: number | string }>(
          db,
          sql`select (select sum(pg_total_relation_size(inhrelid)) from pg_inherits where inhparent = 'audit_events'::regclass) as partitioned,
                     pg_total_relation_size('audit_flat') as flat`,
        )
      )[0];
    const before = await size();
    const dropped = await timed(() =>
      queryRows<{ n: number }>(db, sql`select dispose_audit_events(now(), '{}'::uuid[], 10000) as n`),
    );
    // What dispose_audit_events did before 0044: the same rows deleted one by one, through the trigger's disposal exception.
    const deleted = await timed(() =>
      db.transaction(async (tx) => {
        await tx.execute(
          sql`select set_config('coverdesk.audit_disposal_before', (now() - interval '60 months')::text, true)`,
        );
        await tx.execute(sql`delete from audit_flat where at < ${cutoff}`);
      }),
    );
    const after = await size();
    const mb = (bytes: number | string | undefined) => `${(Number(bytes ?? 0) / 1_048_576).toFixed(0)} MB`;
    console.log(`\n| measure | partitioned | unpartitioned |\n|---|---:|---:|`);
    console.log(`| incident scope, one month (ms, best of 5) | ${scopeMs.toFixed(1)} | |`);
    console.log(
      `| count of one month's PULL_VIEWED (ms, best of 5) | ${partitionedCount.toFixed(1)} | ${flatCount.toFixed(1)} |`,
    );
    console.log(
      `| disposal of ${due?.n.toLocaleString("en-US")} rows past the floor (ms) | ${dropped.ms.toFixed(0)} (${dropped.value[0]?.n} rows, partitions dropped) | ${deleted.ms.toFixed(0)} (row-wise DELETE through the trigger) |`,
    );
    console.log(
      `| disk freed by the disposal (table and indexes) | ${mb(Number(before?.partitioned) - Number(after?.partitioned))} of ${mb(before?.partitioned)} | ${mb(Number(before?.flat) - Number(after?.flat))} of ${mb(before?.flat)} (dead rows, until VACUUM) |`,
    );
  } finally {
    await connection.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

void main();
