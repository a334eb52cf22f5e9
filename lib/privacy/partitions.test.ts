import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/db/connect";
import { parseEnv } from "@/lib/env";
import { getJob } from "@/lib/jobs/catalog";
import { incidentScopeInputSchema, incidentScopeSql } from "@/lib/audit/incident-scope";
import { receiveWebhook } from "@/lib/ingest/receive-webhook";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { countDisposalDue, runDisposal } from "./disposal";
import { ensureMonthPartitions, listMonthPartitions, PARTITION_MONTHS_AHEAD } from "./partitions";

// The tables that only grow are partitioned by month (migration 0044). What that must keep:
// every insert lands somewhere (its month, or DEFAULT), the months ahead are made before they
// come, disposal drops a whole month only when every row in it is past the cutoff and the
// five-year floor and none is held, the trail still refuses edits in every partition, erasure
// reaches every month, a redelivered webhook is still refused across months, and a one-month
// report reads one month.

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const run = (query: ReturnType<typeof sql>) => database.db.execute(query);

/** The database's own words for a refused statement (the driver wraps them in "Failed query"). */
async function refusal(query: ReturnType<typeof sql>): Promise<string> {
  try {
    await run(query);
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    return cause instanceof Error ? cause.message : String(cause);
  }
  return "accepted";
}

/** Writes one audit row at `at` (the owner's way, as the app would), answering its id. */
async function auditAt(at: string, fields: { pullId?: string; pullIds?: string[]; marker?: string } = {}) {
  const [row] = await queryRows<{ id: number | string }>(
    database.db,
    sql`insert into audit_events (at, action, pull_id, pull_ids, details)
        values (${at}::timestamptz, 'PULL_VIEWED', ${fields.pullId ?? null}::uuid,
                ${fields.pullIds ? `{${fields.pullIds.join(",")}}` : null}::uuid[],
                ${JSON.stringify({ marker: fields.marker ?? "x" })}::jsonb)
        returning id`,
  );
  return Number(row?.id);
}

/** The partition a row of the trail lives in. */
async function partitionOf(id: number): Promise<string | undefined> {
  const [row] = await queryRows<{ part: string }>(
    database.db,
    sql`select tableoid::regclass::text as part from audit_events where id = ${id}`,
  );
  return row?.part;
}

const exists = async (name: string) =>
  (await queryRows<{ present: boolean }>(database.db, sql`select to_regclass(${name}) is not null as present`))[0]
    ?.present === true;

const createMonth = async (table: string, month: string) =>
  (
    await queryRows<{ made: boolean }>(
      database.db,
      sql`select create_month_partition(${table}, ${month}::date) as made`,
    )
  )[0]?.made;

const monthName = (date: Date) => `${date.getUTCFullYear()}_${String(date.getUTCMonth() + 1).padStart(2, "0")}`;

describe("monthly partitions", () => {
  it("has this month's partition and the next months' ready, and making them again makes none", async () => {
    expect(await ensureMonthPartitions(database.db)).toBe(0);
    const now = new Date();
    for (const table of ["audit_events", "webhook_events", "monitoring_events"] as const) {
      const names = (await listMonthPartitions(database.db, table)).map((p) => p.name);
      for (let ahead = 0; ahead <= PARTITION_MONTHS_AHEAD; ahead++) {
        const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + ahead, 1));
        expect(names).toContain(`${table}_${monthName(month)}`);
      }
      expect(names.at(-1)).toBe(`${table}_default`);
    }
  });

  it("is the daily job, at start too, which says nothing when the months are there", async () => {
    const job = getJob("partition-upkeep");
    expect(job?.atStart).toBeDefined();
    const context = { db: database.db, config: parseEnv({ NODE_ENV: "test" }), log: () => {} };
    expect(await job?.run(context, null)).toBeNull();
    // A month ahead that went missing (dropped by hand) is made again.
    const ahead = new Date();
    ahead.setUTCDate(1);
    ahead.setUTCMonth(ahead.getUTCMonth() + PARTITION_MONTHS_AHEAD);
    await run(sql.raw(`drop table monitoring_events_${monthName(ahead)}`));
    expect(await job?.run(context, null)).toBe("1 monthly partition created");
    expect(await exists(`monitoring_events_${monthName(ahead)}`)).toBe(true);
  });

  it("puts a row of a month with no partition in DEFAULT, and a month made ahead takes its rows", async () => {
    const stray = await auditAt("2015-06-15T12:00:00Z");
    expect(await partitionOf(stray)).toBe("audit_events_default");
    // Its month now holds a row in DEFAULT: no partition is made over it, and the row stays readable.
    expect(await createMonth("audit_events", "2015-06-01")).toBe(false);
    expect(await partitionOf(stray)).toBe("audit_events_default");

    expect(await createMonth("audit_events", "2012-01-01")).toBe(true);
    expect(await createMonth("audit_events", "2012-01-01")).toBe(false);
    expect(await partitionOf(await auditAt("2012-01-31T23:59:59Z"))).toBe("audit_events_2012_01");
    expect(await partitionOf(await auditAt("2012-02-01T00:00:00Z"))).toBe("audit_events_default");
  });

  it("refuses a table that is not partitioned by month, and a wild look-ahead", async () => {
    await expect(run(sql`select create_month_partition('pulls', '2020-01-01')`)).rejects.toThrow();
    await expect(run(sql`select ensure_month_partitions(100)`)).rejects.toThrow();
    await expect(run(sql`select ensure_month_partitions(-1)`)).rejects.toThrow();
  });

  it("still refuses an edit or a removal of a row of the trail, through the table or its partition", async () => {
    await createMonth("audit_events", "2013-05-01");
    const id = await auditAt("2013-05-10T00:00:00Z", { marker: "kept" });
    expect(await partitionOf(id)).toBe("audit_events_2013_05");
    expect(await refusal(sql`update audit_events set action = 'PULL_EXPORTED' where id = ${id}`)).toMatch(
      /append-only/,
    );
    expect(await refusal(sql`update audit_events_2013_05 set actor_name = 'someone' where id = ${id}`)).toMatch(
      /append-only/,
    );
    expect(await refusal(sql`delete from audit_events_2013_05 where id = ${id}`)).toMatch(/append-only/);
    expect(await refusal(sql`delete from audit_events where id = ${id}`)).toMatch(/append-only/);
    expect(await partitionOf(id)).toBe("audit_events_2013_05");
  });

  it("redacts an erased pull's rows in every month they are in", async () => {
    const erased = randomUUID();
    const other = randomUUID();
    await createMonth("audit_events", "2025-02-01");
    await createMonth("audit_events", "2025-04-01");
    const ids = [
      await auditAt("2025-02-10T00:00:00Z", { pullId: erased }),
      await auditAt("2025-04-10T00:00:00Z", { pullId: erased }),
      await auditAt("2011-01-01T00:00:00Z", { pullId: erased }), // DEFAULT
    ];
    const export_ = await auditAt("2025-04-11T00:00:00Z", { pullIds: [erased, other] });
    const [row] = await queryRows<{ n: number | string }>(
      database.db,
      sql`select redact_audit_events(array[${erased}]::uuid[], '{}'::text[]) as n`,
    );
    expect(Number(row?.n)).toBe(4);
    const after = await queryRows<{ id: number | string; part: string; pull_id: string | null; details: unknown }>(
      database.db,
      sql`select id, tableoid::regclass::text as part, pull_id, details from audit_events
          where id in (${sql.join([...ids, export_], sql`, `)}) order by id`,
    );
    expect(after.map((r) => r.part)).toEqual([
      "audit_events_2025_02",
      "audit_events_2025_04",
      "audit_events_default",
      "audit_events_2025_04",
    ]);
    for (const r of after.slice(0, 3)) expect(r).toMatchObject({ pull_id: null, details: { redacted: true } });
    const [list] = await queryRows<{ pull_ids: string }>(
      database.db,
      sql`select pull_ids::text as pull_ids from audit_events where id = ${export_}`,
    );
    expect(list?.pull_ids).toBe(`{${other}}`);
  });

  it("reads only the window's month for a one-month incident report", async () => {
    await createMonth("audit_events", "2025-03-01");
    await auditAt("2025-03-15T00:00:00Z", { pullId: randomUUID() });
    const input = incidentScopeInputSchema.parse({ from: "2025-03-01", to: "2025-03-31" });
    const plan = (
      await queryRows<{ "QUERY PLAN": string }>(
        database.db,
        sql`explain ${incidentScopeSql(input)} select pull_id, access from consumers`,
      )
    )
      .map((row) => row["QUERY PLAN"])
      .join("\n");
    expect(plan).toContain("audit_events_2025_03");
    expect(
      plan.match(/audit_events_\d{4}_\d{2}|audit_events_default/g)?.every((n) => n === "audit_events_2025_03"),
    ).toBe(true);
    // A window over two months reads those two.
    const two = incidentScopeInputSchema.parse({ from: "2025-02-20", to: "2025-03-10" });
    const twoPlan = (
      await queryRows<{ "QUERY PLAN": string }>(
        database.db,
        sql`explain ${incidentScopeSql(two)} select * from consumers`,
      )
    )
      .map((row) => row["QUERY PLAN"])
      .join("\n");
    expect(new Set(twoPlan.match(/audit_events_\d{4}_\d{2}|audit_events_default/g))).toEqual(
      new Set(["audit_events_2025_02", "audit_events_2025_03"]),
    );
  });

  it("refuses a redelivered webhook whatever month its first delivery is filed under", async () => {
    const body = JSON.stringify({ event_type: "COMPLETE", pull_id: randomUUID(), n: randomUUID() });
    const options = { webhookSecret: null, signatureHeader: null };
    expect((await receiveWebhook(database.db, body, options)).status).toBe(202);
    // Its row moves to another month's partition (the first delivery long ago).
    await run(sql`update webhook_events set received_at = received_at - interval '3 months'
                  where dedup_key = encode(sha256(convert_to(${body}, 'UTF8')), 'hex')`);
    expect(await receiveWebhook(database.db, body, options)).toEqual({
      status: 200,
      body: { received: true, duplicate: true },
    });
    const rows = await queryRows<{ id: number | string; event_id: number | string }>(
      database.db,
      sql`select e.id, k.event_id from webhook_events e join webhook_event_keys k on k.dedup_key = e.dedup_key
          where e.dedup_key = encode(sha256(convert_to(${body}, 'UTF8')), 'hex')`,
    );
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]?.id)).toBe(Number(rows[0]?.event_id));
    // Once its row is removed (erasure, disposal, an operator), its key goes too: accepted anew.
    await run(sql`delete from webhook_events where dedup_key = encode(sha256(convert_to(${body}, 'UTF8')), 'hex')`);
    expect((await receiveWebhook(database.db, body, options)).status).toBe(202);
  });
});

describe("disposal by whole months", () => {
  const held = randomUUID();
  const cutoffMonth = async () =>
    (
      await queryRows<{ month: string; cutoff: string }>(
        database.db,
        sql`select to_char(date_trunc('month', (now() - interval '60 months') at time zone 'UTC'), 'YYYY-MM-DD') as month,
                   ((now() - interval '60 months') at time zone 'UTC')::text as cutoff`,
      )
    )[0];

  it("drops a month past the floor whole, keeps a held month's held rows, and deletes the boundary month row by row", async () => {
    for (const month of ["2019-01-01", "2019-02-01"]) await createMonth("audit_events", month);
    const boundary = await cutoffMonth();
    if (!boundary) throw new Error("no cutoff");
    await createMonth("audit_events", boundary.month);
    const boundaryName = `audit_events_${boundary.month.slice(0, 7).replace("-", "_")}`;
    await auditAt("2019-01-10T00:00:00Z", { marker: "old-1" });
    await auditAt("2019-01-20T00:00:00Z", { marker: "old-2" });
    const heldRow = await auditAt("2019-02-10T00:00:00Z", { pullId: held, marker: "held" });
    await auditAt("2019-02-11T00:00:00Z", { marker: "beside-held" });
    // The boundary month: one row just past the floor, one a day inside it.
    await auditAt(`${boundary.month}T00:00:00Z`, { marker: "boundary-old" });
    const young = await auditAt(new Date(Date.now() - 59 * 30.44 * 86_400_000).toISOString(), { marker: "young" });

    const [row] = await queryRows<{ n: number | string }>(
      database.db,
      sql`select dispose_audit_events(now() + interval '1 day', array[${held}]::uuid[], 5000) as n`,
    );
    // 2019-01's two rows with its partition; 2019-02's unheld row; the boundary's old row; and the
    // older test rows (2011–2015, 2012-01, 2013-05) row by row or with their months.
    expect(await exists("audit_events_2019_01")).toBe(false);
    expect(await exists("audit_events_2019_02")).toBe(true);
    expect(await exists(boundaryName)).toBe(true);
    const markers = (
      await queryRows<{ marker: string }>(
        database.db,
        sql`select details->>'marker' as marker from audit_events where details->>'marker' <> 'x' order by at`,
      )
    ).map((r) => r.marker);
    expect(markers).toEqual(["held", "young"]);
    expect(await partitionOf(heldRow)).toBe("audit_events_2019_02");
    expect(await partitionOf(young)).toBeDefined();
    expect(Number(row?.n)).toBeGreaterThanOrEqual(5);
  });

  it("never drops a month under five years old, whatever cutoff it is given", async () => {
    const thisMonth = (await listMonthPartitions(database.db, "audit_events")).filter((p) => !p.isDefault).at(-1);
    await auditAt(new Date().toISOString(), { marker: "today" });
    await queryRows(database.db, sql`select dispose_audit_events(now() + interval '10 years', '{}'::uuid[], 5000)`);
    expect(thisMonth && (await exists(thisMonth.name))).toBe(true);
    const kept = await queryRows<{ marker: string }>(
      database.db,
      sql`select details->>'marker' as marker from audit_events where details->>'marker' in ('today', 'young')`,
    );
    expect(kept.map((r) => r.marker).sort()).toEqual(["today", "young"]);
    await expect(run(sql`select dispose_audit_events(null, '{}'::uuid[], 10)`)).rejects.toThrow();
    await expect(run(sql`select dispose_audit_events(now(), '{}'::uuid[], 0)`)).rejects.toThrow();
  });

  it("the scheduled run drops an old month, counted as the dry run said", async () => {
    await createMonth("audit_events", "2018-06-01");
    for (const day of ["01", "15", "30"]) await auditAt(`2018-06-${day}T00:00:00Z`, { marker: "june-2018" });
    const now = new Date();
    const due = await countDisposalDue(database.db, { asOf: now });
    const result = await runDisposal(database.db, { now });
    expect(await exists("audit_events_2018_06")).toBe(false);
    // The June 2018 rows, with their month (the held 2019 row went in the call above, which kept nothing).
    expect(result.auditRows).toBe(due.auditRows);
    expect(result.auditRows).toBe(3);
  });
});
