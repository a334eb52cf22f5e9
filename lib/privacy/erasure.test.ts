import { readFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/db/connect";
import { auditEvents, erasedSubjects, legalHolds, privacyRequests, pulls, syncRuns, webhookEvents } from "@/db/schema";
import { auditSentence } from "@/components/workflow/audit-sentence";
import { recordAudit } from "@/lib/audit/audit-log";
import { receiveWebhook } from "@/lib/ingest/receive-webhook";
import { storePull } from "@/lib/ingest/store-pull";
import { runSync, startSyncRun } from "@/lib/ingest/sync";
import type { ServiceConfig } from "@/lib/service/client";
import { enqueueEvent } from "@/lib/webhooks/events";
import { createWebhookEndpoint, webhookUrlPolicy } from "@/lib/webhooks/endpoints";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { findConsumer } from "./find-consumer";
import { eraseConsumer } from "./requests";
import { liftLegalHold, placeLegalHold } from "./legal-holds";

// Erasure is complete and stays complete: the service's published example pull, with a row in
// every table that can speak of a pull, erased by its email; then every table of every schema
// is read as text and must hold neither the email, nor the VIN, nor the phone.

const fixture = (
  JSON.parse(readFileSync("lib/service/fixtures/real/pulls/personal.json", "utf8")) as {
    pull: { pull_id: string };
  }
).pull;
const EMAIL = "clark.kent@theplanet.com";
const VIN = "1G1FK1R62J0158884";
const PHONE = "8885550000";
const PULL = fixture.pull_id;
const OTHER_PULL = "7d1c3f0e-5b2a-4c9d-8e6f-0a1b2c3d4e5f";
const admin = { id: "00000000-0000-4000-8000-000000000001", name: "Ada Admin", role: "ADMIN" as const };

/**
 * Every table with a column naming a pull, and how removePulls handles it. A new table holding
 * pull data fails here until it is handled in remove-pulls.ts and listed.
 */
const HANDLED_PULL_TABLES = new Set([
  "alerts",
  "audit_events",
  "consumer_index",
  "deal_returns",
  "enrichment_answers",
  "finding_decisions",
  // AgencyZoom lead ids of sent pulls (lib/handoff/agencyzoom-send.ts).
  "handoffs",
  "household_gaps",
  "lost_decisions",
  "monitoring_events",
  "monitorings",
  "policies",
  "policy_check_runs",
  "policy_xdates",
  "pull_archive_writes",
  "pull_auth_states",
  "pull_status_checks",
  "pull_versions",
  "pulls",
  "reconnect_pages",
  "servicing_requests",
  "webhook_events",
  // Holds pull ids of an erasure only until the service is told, never content.
  "privacy_requests",
  // Lifted holds go with the pulls; a standing hold refuses the erasure (tested below).
  "legal_holds",
  // The DPPA's record of who received driver data, kept five years by law (18 U.S.C. 2721(c)):
  // pull ids only, no content, append-only; an erasure cannot shorten it.
  "redisclosures",
  // The reports' facts of a pull and the marks of its changes: removePulls refreshes the rollups.
  "report_facts",
  "report_source_facts",
  "report_dirty",
  // Views over pulls and lost_decisions: they hold nothing of their own.
  "report_facts_now",
  "report_source_facts_now",
]);

let database: TestDatabase;

async function tablesOfSchema(): Promise<{ schema: string; table: string }[]> {
  return queryRows<{ schema: string; table: string }>(
    database.db,
    sql`select table_schema as schema, table_name as "table" from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
          and table_schema not like 'pg_%' and table_schema <> 'drizzle'`,
  );
}

/** The tables (schema.table) whose rows, read as text, contain `needle` (case-insensitive). */
async function tablesContaining(needle: string): Promise<string[]> {
  const hits: string[] = [];
  for (const { schema, table } of await tablesOfSchema()) {
    const [row] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from ${sql.identifier(schema)}.${sql.identifier(table)} t
          where strpos(lower(t::text), lower(${needle})) > 0`,
    );
    if ((row?.n ?? 0) > 0) hits.push(`${schema}.${table}`);
  }
  return hits;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  // An earlier version, so a snapshot is kept, then the published example itself.
  expect(
    (await storePull(db, { ...fixture, status: "PULLING_DATA" }, { fetchStartedAt: new Date(Date.now() - 60_000) }))
      .outcome,
  ).toBe("created");
  expect((await storePull(db, fixture)).outcome).toBe("updated");
  const monitoringId = "mon-erasure-1";
  await db.execute(sql`insert into monitorings (monitoring_id, initial_pull_id, latest_pull_id, account_identifier, status)
    values (${monitoringId}, ${PULL}, ${PULL}, ${EMAIL}, 'ACTIVE')`);
  await db.execute(sql`insert into monitoring_events (inbox_event_id, monitoring_id, pull_id, type, changes)
    values (991, ${monitoringId}, ${PULL}, 'ENDORSEMENT', ${JSON.stringify([{ schema: "VEHICLE", after: { vin: VIN } }])}::jsonb)`);
  await db.execute(
    sql`insert into pull_auth_states (pull_id, auth_status, login_error_message) values (${PULL}, 'SUCCESS', ${EMAIL})`,
  );
  await db.execute(sql`insert into pull_status_checks (pull_id, error) values (${PULL}, ${`no answer for ${EMAIL}`})`);
  await db.execute(
    sql`insert into reconnect_pages (id, monitoring_id, expires_at, session_pull_id) values ('rp-erasure', ${monitoringId}, now() + interval '1 day', ${PULL})`,
  );
  await db.execute(sql`insert into alerts (key, kind, pull_id, account_identifier, holder_name, headline, details)
    values ('erasure-alert', 'PREMIUM_JUMP', ${PULL}, ${EMAIL}, 'Clark', ${`Premium up on ${VIN}`}, '[]'::jsonb)`);
  await db.execute(
    sql`insert into deal_returns (key, kind, pull_id, headline) values ('erasure-return', 'WIN_BACK', ${PULL}, ${`Lost ${VIN}`})`,
  );
  await db.execute(
    sql`insert into lost_decisions (pull_id, lost_at, lost_reason) values (${PULL}, now(), ${`Called ${PHONE}`})`,
  );
  await db.execute(sql`insert into finding_decisions (account_key, pull_id, finding_key, decision, note)
    values (${PULL}, ${PULL}, ${`vehicle:${VIN}`}, 'DECLINED', 'client declined')`);
  await db.execute(sql`insert into enrichment_answers (kind, question_key, account_key, pull_id, subject_key, question, status, answer)
    values ('DRIVER_LICENSE', 'q-erasure', ${PULL}, ${PULL}, 'driver:1', ${JSON.stringify({ email: EMAIL })}::jsonb, 'ANSWERED', ${JSON.stringify({ vin: VIN })}::jsonb)`);
  await db.execute(sql`insert into servicing_requests (id, pull_id, account_key, action_type, payload, expires_at)
    values ('sr-erasure', ${PULL}, ${PULL}, 'ADD_VEHICLE', ${JSON.stringify({ vin: VIN })}::jsonb, now() + interval '1 day')`);
  await db.execute(
    sql`insert into policy_check_runs (pull_id, results, settings) values (${PULL}, ${JSON.stringify([{ vin: VIN }])}::jsonb, '{}'::jsonb)`,
  );
  await db.execute(sql`insert into pull_archive_writes (pull_id, archived) values (${PULL}, true)`);
  await db.execute(sql`insert into webhook_events (dedup_key, event_type, pull_id, status, payload)
    values ('erasure-event', 'COMPLETE', ${PULL}, 'DONE', ${JSON.stringify({ pull_id: PULL, account_identifier: EMAIL })}::jsonb)`);
  // An outgoing webhook about this pull, and one about another, kept.
  const endpoint = await createWebhookEndpoint(
    db,
    { url: "http://127.0.0.1:9/hook", events: ["pull.assigned"] },
    { name: "Zapier" },
    webhookUrlPolicy("test"),
  );
  if (!endpoint.ok) throw new Error(endpoint.message);
  for (const pullId of [PULL, OTHER_PULL])
    await enqueueEvent(db, "pull.assigned", { pull_id: pullId, from_assignee_id: null, to_assignee_id: admin.id });
  // The trail: a row about the pull, and a row elsewhere whose details quote the email (an export's filter).
  await recordAudit(db, admin, "DOCUMENT_DOWNLOADED", { pullId: PULL, details: { file: `${VIN}.pdf` } });
  await recordAudit(db, admin, "CSV_EXPORTED", { details: { filters: { q: EMAIL } } });
  // A list's CSV that carried this consumer among others: only their pull leaves its list.
  await recordAudit(db, admin, "CSV_EXPORTED", { pullIds: [PULL, OTHER_PULL], details: { rows: 2 } });
});
afterAll(async () => {
  await database?.close();
});

describe("erasing a consumer", () => {
  it("lists every table that names a pull, so a new one is handled before it ships", async () => {
    const columns = await queryRows<{ table: string }>(
      database.db,
      sql`select distinct table_name as "table" from information_schema.columns
          where table_schema = 'public' and (column_name like '%pull_id' or column_name like '%pull_ids')
            -- A month's partition is erased through its table (the trail, the inbox, monitoring events).
            and table_name not in (select c.relname from pg_class c where c.relispartition)`,
    );
    const unhandled = columns.map((c) => c.table).filter((t) => !HANDLED_PULL_TABLES.has(t));
    expect(unhandled).toEqual([]);
  });

  it("finds the consumer by email, phone and date of birth, and not by a stranger's", async () => {
    expect((await findConsumer(database.db, { email: "Clark.Kent@ThePlanet.com" })).map((p) => p.pullId)).toEqual([
      PULL,
    ]);
    expect((await findConsumer(database.db, { phone: "(888) 555-0000" })).map((p) => p.pullId)).toEqual([PULL]);
    expect((await findConsumer(database.db, { birthDate: "1987-05-03" })).map((p) => p.pullId)).toEqual([PULL]);
    expect(await findConsumer(database.db, { email: "lois.lane@theplanet.com" })).toEqual([]);
    expect(await findConsumer(database.db, { email: EMAIL, birthDate: "1990-01-01" })).toEqual([]);
  });

  it("holds the consumer in many tables before", async () => {
    expect((await tablesContaining(EMAIL)).length).toBeGreaterThan(3);
    expect((await tablesContaining(VIN)).length).toBeGreaterThan(3);
  });

  it("is refused while a legal hold keeps the account, and the lifted hold's record goes with it", async () => {
    const actor = { ...admin, sessionId: "erasure-test" };
    const placed = await placeLegalHold(database.db, actor, { pullId: PULL, scope: "ACCOUNT", reason: "Subpoena 42" });
    if (!placed.ok) throw new Error(placed.message);
    const refused = await eraseConsumer(database.db, admin, { pullIds: [PULL] });
    expect(refused).toMatchObject({ ok: false, code: "INVALID", message: expect.stringMatching(/legal hold/) });
    expect(await database.db.$count(pulls)).toBe(1);
    const lifted = await liftLegalHold(database.db, actor, {
      pullId: PULL,
      holdId: String(placed.holdId),
      reason: "Closed",
    });
    expect(lifted.ok).toBe(true);
  });

  it("leaves neither email, VIN nor phone in any table, and one content-free tombstone", async () => {
    const result = await eraseConsumer(database.db, admin, { pullIds: [PULL] });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.counts).toMatchObject({
      pulls: 1,
      snapshots: 1,
      alerts: 1,
      webhookEvents: 1,
      webhookDeliveries: 1,
      monitorings: 1,
    });
    expect(await tablesContaining(PULL)).not.toContain("public.webhook_deliveries");
    expect(await tablesContaining(OTHER_PULL)).toContain("public.webhook_deliveries");
    expect(result.counts.auditRowsRedacted).toBeGreaterThanOrEqual(2);
    expect(await tablesContaining(EMAIL)).toEqual([]);
    expect(await tablesContaining(VIN)).toEqual([]);
    expect(await tablesContaining(PHONE)).toEqual([]);
    expect(await tablesContaining("1987")).toEqual([]);

    const tombstones = await database.db
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.action} = 'CONSUMER_ERASED'`);
    expect(tombstones).toHaveLength(1);
    expect(tombstones[0]?.pullId).toBeNull();
    expect(JSON.stringify(tombstones[0]?.details)).not.toContain(PULL);
    // The pull id stays only on the request, for the service's deletion, until someone records it told.
    const [request] = await database.db.select().from(privacyRequests);
    expect(request).toMatchObject({ kind: "ERASURE", status: "DONE", servicePullIds: [PULL] });
    expect(await database.db.$count(erasedSubjects)).toBeGreaterThanOrEqual(2);
    expect(await database.db.$count(legalHolds)).toBe(0);
    const [bulk] = await database.db
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.action} = 'CSV_EXPORTED' and ${auditEvents.details} = '{"rows": 2}'::jsonb`);
    expect(bulk?.pullIds).toEqual([OTHER_PULL]);
  });

  it("reads on the audit page as an erasure, and the redacted rows as about a consumer since erased", async () => {
    const rows = await database.db.select().from(auditEvents).orderBy(auditEvents.id);
    const sentences = rows.map((row) => auditSentence(row));
    expect(sentences).toContain("Ada Admin erased a consumer on their request: 1 pulls and everything of them");
    expect(sentences).toContain("Ada Admin: Document downloaded (about a consumer since erased)");
    expect(sentences).toContain("Ada Admin: Csv exported (about a consumer since erased)");
  });

  it("refuses the pull when it comes again, by sync or by a repeated webhook, and only counts it", async () => {
    expect((await storePull(database.db, fixture)).outcome).toBe("refused");
    const body = JSON.stringify({ event_type: "COMPLETE", pull_id: PULL, status: "SUCCESS", data: {} });
    const answer = await receiveWebhook(database.db, body, { webhookSecret: null, signatureHeader: null });
    expect(answer.status).toBe(200);
    expect(await database.db.$count(webhookEvents)).toBe(0);
    expect(await database.db.$count(pulls)).toBe(0);
    expect(await tablesContaining(EMAIL)).toEqual([]);
    const [refusals] = await queryRows<{ n: number }>(
      database.db,
      sql`select sum(refusals)::int as n from erased_subjects`,
    );
    expect(refusals?.n).toBeGreaterThanOrEqual(2);
  });

  it("still refuses any other edit of the audit trail", async () => {
    await expect(database.db.execute(sql`update audit_events set details = '{"x":1}'::jsonb`)).rejects.toThrow();
    await expect(database.db.execute(sql`delete from audit_events`)).rejects.toThrow();
    await expect(
      database.db.execute(
        sql`update audit_events set details = '{"redacted": true}'::jsonb, pull_id = null, actor_name = 'someone'`,
      ),
    ).rejects.toThrow();
  });
});

describe("erasing a consumer the sandbox service still holds", () => {
  const TEAM = "7d3f0a52-1c2b-4e9f-8a6d-5b4c3d2e1f00";
  let sandbox: Sandbox;
  let service: ServiceConfig;
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
    sandbox = await startSandbox({
      port: 0,
      clientId: "erasure-client",
      clientSecret: "erasure-secret",
      teamId: TEAM,
      webhookUrl: null,
      webhookSecret: null,
      seed: 34,
      pullCount: 12,
      speed: 0.001,
      deliverOnStart: false,
    });
    service = {
      baseUrl: sandbox.baseUrl,
      teamId: TEAM,
      clientId: "erasure-client",
      clientSecret: "erasure-secret",
      timeoutMs: 2_000,
      retryBaseMs: 1,
      maxAttempts: 2,
    };
  });
  afterAll(async () => {
    await sandbox?.close();
    await db?.close();
  });

  async function syncEverything() {
    // Every pull the service lists, not only those since the last run.
    await db.db.delete(syncRuns);
    const start = await startSyncRun(db.db, "MANUAL");
    return runSync(db.db, service, start.run);
  }

  it("keeps them erased through a full sync and a webhook delivered again", async () => {
    expect((await syncEverything()).status).toBe("DONE");
    const [victim] = await db.db
      .select({ pullId: pulls.pullId, email: pulls.email })
      .from(pulls)
      .where(sql`${pulls.email} is not null and ${pulls.parentPullId} is null`)
      .limit(1);
    if (!victim?.email) throw new Error("the sandbox made no pull with an email");
    const before = await db.db.$count(pulls);
    const erased = await eraseConsumer(db.db, admin, {
      pullIds: (await findConsumer(db.db, { email: victim.email })).map((p) => p.pullId),
    });
    if (!erased.ok) throw new Error(erased.message);
    const remaining = before - erased.pullIds.length;

    const run = await syncEverything();
    expect(run.status).toBe("DONE");
    expect(run.problems.join(" ")).toMatch(/erased consumer/);
    expect(await db.db.$count(pulls)).toBe(remaining);
    expect(await findConsumer(db.db, { email: victim.email })).toEqual([]);

    const body = JSON.stringify({
      event_type: "COMPLETE",
      pull_id: victim.pullId,
      team_id: TEAM,
      status: "SUCCESS",
      data: {},
    });
    expect((await receiveWebhook(db.db, body, { webhookSecret: null, signatureHeader: null })).status).toBe(200);
    expect(await db.db.$count(webhookEvents, eq(webhookEvents.pullId, victim.pullId))).toBe(0);
  }, 120_000);
});
