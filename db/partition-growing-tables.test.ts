import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyEventEffects } from "@/lib/ingest/apply-event";
import { receiveWebhook } from "@/lib/ingest/receive-webhook";
import { upgradedDatabase } from "@/test/migrations";
import { queryRows, type Connection } from "./connect";

// 0044 turns the audit trail, the webhook inbox and monitoring events into tables partitioned by
// month. A database at 0043 with rows in several months (years apart) must come out with every
// row, under the same id, in its month's partition; the sequences going on past the old ids; the
// trail still refusing edits; and the old unique rules (one inbox row a body, one monitoring
// event an inbox row) still holding for the rows that were there.

const pull = randomUUID();
const otherPull = randomUUID();
const body = JSON.stringify({ event_type: "COMPLETE", pull_id: pull });
const dedupKey = (text: string) => `encode(sha256(convert_to('${text.replace(/'/g, "''")}', 'UTF8')), 'hex')`;
const audit = (id: number, at: string, action: string, pullId: string | null) =>
  `insert into audit_events (id, at, action, pull_id, details) values (${id}, '${at}', '${action}', ${pullId ? `'${pullId}'` : "null"}, '{"n": ${id}}')`;

describe("0044: the tables that only grow, partitioned by month", () => {
  let connection: Connection;
  let close: (() => Promise<void>) | undefined;
  const rows = (query: ReturnType<typeof sql>) => queryRows<Record<string, unknown>>(connection.db, query);

  beforeAll(async () => {
    ({ connection, close } = await upgradedDatabase(44, async (run) => {
      await run(audit(11, "2020-03-04T10:00:00Z", "PULL_VIEWED", pull));
      await run(audit(12, "2020-03-31T23:59:59.999Z", "PULL_VIEWED", otherPull));
      await run(audit(13, "2024-07-01T00:00:00Z", "CSV_EXPORTED", null));
      await run(audit(14, "2026-01-15T08:00:00Z", "PULL_VIEWED", pull));
      await run(`select setval('audit_events_id_seq', 14)`);
      await run(`insert into webhook_events (id, dedup_key, event_type, pull_id, status, payload, received_at)
                 values (501, ${dedupKey(body)}, 'COMPLETE', '${pull}', 'DONE', '${body}', '2025-12-30T00:00:00Z'),
                        (502, 'k-2', 'MONITORING_EVENTS', '${otherPull}', 'PENDING', '{}', '2026-02-01T00:00:00Z')`);
      await run(`select setval('webhook_events_id_seq', 502)`);
      await run(`insert into monitoring_events (id, inbox_event_id, pull_id, type, changes, received_at)
                 values (71, 502, '${otherPull}', 'RENEWAL', '[]', '2026-02-01T00:05:00Z')`);
      await run(`select setval('monitoring_events_id_seq', 71)`);
    }));
  });
  afterAll(async () => {
    await close?.();
  });

  it("keeps every row under its id, each in its own month's partition", async () => {
    expect(
      await rows(sql`select id::int as id, tableoid::regclass::text as part, action from audit_events order by id`),
    ).toEqual([
      { id: 11, part: "audit_events_2020_03", action: "PULL_VIEWED" },
      { id: 12, part: "audit_events_2020_03", action: "PULL_VIEWED" },
      { id: 13, part: "audit_events_2024_07", action: "CSV_EXPORTED" },
      { id: 14, part: "audit_events_2026_01", action: "PULL_VIEWED" },
    ]);
    expect(
      await rows(
        sql`select id::int as id, tableoid::regclass::text as part, status::text as status from webhook_events order by id`,
      ),
    ).toEqual([
      { id: 501, part: "webhook_events_2025_12", status: "DONE" },
      { id: 502, part: "webhook_events_2026_02", status: "PENDING" },
    ]);
    expect(
      await rows(
        sql`select id::int as id, tableoid::regclass::text as part, inbox_event_id::int as inbox from monitoring_events`,
      ),
    ).toEqual([{ id: 71, part: "monitoring_events_2026_02", inbox: 502 }]);
    // Every month between the oldest row and the newest has its partition, the empty ones too.
    const months = await rows(sql`select count(*)::int as n from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'audit_events'::regclass and c.relname between 'audit_events_2020_03' and 'audit_events_2026_01'`);
    expect(months).toEqual([{ n: 71 }]);
    expect(
      await rows(sql`select relname as name, relkind::text as kind from pg_class
        where relname in ('audit_events', 'webhook_events', 'monitoring_events') order by relname`),
    ).toEqual([
      { name: "audit_events", kind: "p" },
      { name: "monitoring_events", kind: "p" },
      { name: "webhook_events", kind: "p" },
    ]);
  });

  it("goes on numbering past the old ids, and files a new row under this month", async () => {
    const [row] = await rows(sql`insert into audit_events (action) values ('USER_CREATED')
      returning id::int as id, tableoid::regclass::text as part`);
    expect(Number(row?.id)).toBe(15);
    const now = new Date();
    expect(row?.part).toBe(`audit_events_${now.getUTCFullYear()}_${String(now.getUTCMonth() + 1).padStart(2, "0")}`);
  });

  it("still refuses an edit of a row that was there before", async () => {
    await expect(connection.db.execute(sql`update audit_events set action = 'FORGED' where id = 11`)).rejects.toThrow();
    await expect(connection.db.execute(sql`delete from audit_events where id = 13`)).rejects.toThrow();
    expect(await rows(sql`select action from audit_events where id = 11`)).toEqual([{ action: "PULL_VIEWED" }]);
  });

  it("still refuses a redelivery of a body received before the upgrade, and a second monitoring event of an old inbox row", async () => {
    expect(await receiveWebhook(connection.db, body, { webhookSecret: null, signatureHeader: null })).toEqual({
      status: 200,
      body: { received: true, duplicate: true },
    });
    const change = {
      event_type: "MONITORING_EVENTS",
      pull_id: otherPull,
      is_monitored: true,
      monitoring: { initial_pull_id: otherPull, monitoring_id: "mon_1" },
      data: { type: "RENEWAL", changes: [], documents: [] },
    };
    await applyEventEffects(connection.db, 502, change);
    // A new inbox row's event is stored (once, however often applied), the old one's not again.
    await applyEventEffects(connection.db, 503, change);
    await applyEventEffects(connection.db, 503, change);
    expect(
      await rows(
        sql`select inbox_event_id::int as inbox, count(*)::int as n from monitoring_events group by 1 order by 1`,
      ),
    ).toEqual([
      { inbox: 502, n: 1 },
      { inbox: 503, n: 1 },
    ]);
    expect(await rows(sql`select count(*)::int as n from webhook_events`)).toEqual([{ n: 2 }]);
  });
});
