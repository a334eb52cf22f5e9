import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, legalHolds, monitorings, pulls, servicingRequests, webhookEvents } from "@/db/schema";
import { queryRows } from "@/db/connect";
import { storePull } from "@/lib/ingest/store-pull";
import { getJob } from "@/lib/jobs/catalog";
import { loadPullPage } from "@/lib/loaders/pull-page";
import { auditSentence } from "@/components/workflow/audit-sentence";
import { parseEnv } from "@/lib/env";
import { generatePulls } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { countDisposalDue, nextDisposalRun, runDisposal } from "./disposal";
import { listLegalHolds, listLegalHoldsOfPull, liftLegalHold, placeLegalHold } from "./legal-holds";
import {
  DEFAULT_RETENTION_SCHEDULE,
  getRetentionSchedule,
  retentionScheduleFormSchema,
  saveRetentionSchedule,
} from "./retention";
import type { RetentionSchedule } from "./retention-kinds";

// The retention schedule on a real database: a small book of accounts at different ages and
// stages; the dry run counts exactly what the run then removes; held pulls and accounts, and
// monitored ones, survive; processed inbox bodies are blanked (rows kept); audit rows older than
// the cutoff go and newer ones stay, never younger than the legal minimum; bad input and other
// roles are refused.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;
const NOW = new Date();
const MONTH = 30.44 * 86_400_000;
const ago = (months: number) => new Date(NOW.getTime() - months * MONTH);
const day = (date: Date) => date.toISOString().slice(0, 10);
const [template] = generatePulls(7, 1, NOW);

type Age = {
  stage?: "WORKING" | "WON" | "LOST";
  /** Months since the pull arrived (and last activity on it). */
  monthsAgo: number;
  /** Months since its policies' latest expiry (negative: in the future); null: none known. */
  expiryMonthsAgo?: number | null;
};

/** Stores one pull of `account` and ages it as told; answers its id. */
async function pullOf(account: string, age: Age, lastName = account): Promise<string> {
  if (!template) throw new Error("no template pull");
  const pullId = randomUUID();
  await storePull(database.db, {
    ...template,
    pull_id: pullId,
    status: "SUCCESS",
    type: "PULLING_DATA",
    parent_pull_id: null,
    account_identifier: account,
    first_name: "Jo",
    last_name: lastName,
  });
  const at = ago(age.monthsAgo);
  await database.db
    .update(pulls)
    .set({
      stage: age.stage ?? "WORKING",
      createdAt: at,
      serviceCreatedAt: at,
      stageChangedAt: age.stage && age.stage !== "WORKING" ? at : null,
      assignedAt: null,
      firstTouchedAt: null,
      nextExpiryDate:
        age.expiryMonthsAgo === undefined || age.expiryMonthsAgo === null ? null : day(ago(age.expiryMonthsAgo)),
    })
    .where(eq(pulls.pullId, pullId));
  return pullId;
}

const remaining = async (ids: string[]) =>
  (await database.db.select({ id: pulls.pullId }).from(pulls).where(inArray(pulls.pullId, ids))).map((r) => r.id);

const book: Record<string, string[]> = {};

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
  // Never-won prospects: one quiet for 30 months (two pulls), one active 10 months ago, one
  // whose old pull was refreshed 5 months ago.
  book.oldProspect = [
    await pullOf("acct-old-prospect", { monthsAgo: 31 }),
    await pullOf("acct-old-prospect", { monthsAgo: 30 }),
  ];
  book.recentProspect = [await pullOf("acct-recent-prospect", { monthsAgo: 10 })];
  book.refreshedProspect = [
    await pullOf("acct-refreshed", { monthsAgo: 30 }),
    await pullOf("acct-refreshed", { monthsAgo: 5 }),
  ];
  // Lost deals: one lost 40 months ago whose X-date passed 36 months ago; one lost 30 months
  // ago whose X-date was 20 months ago (its clock started then); one lost 40 months ago with an
  // X-date claimed for a year from now (a guess: its clock starts a year after its last activity).
  book.lostDue = [await pullOf("acct-lost-due", { stage: "LOST", monthsAgo: 40, expiryMonthsAgo: 36 })];
  book.lostNotYet = [await pullOf("acct-lost-later", { stage: "LOST", monthsAgo: 30, expiryMonthsAgo: 20 })];
  book.lostCapped = [await pullOf("acct-lost-capped", { stage: "LOST", monthsAgo: 40, expiryMonthsAgo: -12 })];
  // Won clients: one gone quiet 80 months ago; one as old but monitored (active); a former
  // client (won, then back to Working on its refresh) quiet for 30 months: a client's records.
  book.wonDue = [await pullOf("acct-won-due", { stage: "WON", monthsAgo: 80, expiryMonthsAgo: 79 })];
  book.wonMonitored = [await pullOf("acct-won-monitored", { stage: "WON", monthsAgo: 80 })];
  await database.db.insert(monitorings).values({
    monitoringId: "mon_retention",
    initialPullId: book.wonMonitored[0],
    accountIdentifier: "acct-won-monitored",
    status: "ACTIVE",
    interval: "P1M",
  });
  book.formerClient = [
    await pullOf("acct-former", { stage: "WON", monthsAgo: 31 }),
    await pullOf("acct-former", { stage: "WORKING", monthsAgo: 30 }),
  ];
  // The service's child pull of the old prospect goes with it; a SERVICING pull goes with the
  // client whose change it carried, not as an account of its own.
  const child = randomUUID();
  await database.db.insert(pulls).values({
    pullId: child,
    status: "SUCCESS",
    type: "PULLING_DATA",
    parentPullId: book.oldProspect[0],
    raw: {},
    contentHash: "child",
    createdAt: ago(31),
    serviceCreatedAt: ago(31),
  });
  book.oldProspect.push(child);
  const servicing = randomUUID();
  await database.db.insert(pulls).values({
    pullId: servicing,
    status: "SUCCESS",
    type: "SERVICING",
    raw: {},
    contentHash: "servicing",
    createdAt: ago(79),
    serviceCreatedAt: ago(79),
  });
  await database.db.insert(servicingRequests).values({
    id: "RETENTIONSERVICINGREQ1",
    pullId: book.wonDue[0] ?? "",
    accountKey: "acct-won-due",
    actionType: "ADD_DRIVER",
    payload: {},
    servicingPullId: servicing,
    expiresAt: ago(79),
  });
  book.wonDue.push(servicing);
  // Held: an old prospect held by one pull, another by its account.
  book.heldPull = [
    await pullOf("acct-held-pull", { monthsAgo: 40 }),
    await pullOf("acct-held-pull", { monthsAgo: 39 }),
  ];
  book.heldAccount = [await pullOf("acct-held-account", { monthsAgo: 40 })];
  expect(
    await placeLegalHold(database.db, staff.admin, {
      pullId: book.heldPull[0],
      scope: "PULL",
      reason: "Claim 2024-17",
    }),
  ).toMatchObject({ ok: true });
  expect(
    await placeLegalHold(database.db, staff.admin, {
      pullId: book.heldAccount[0],
      scope: "ACCOUNT",
      reason: "Subpoena of 3 March",
    }),
  ).toMatchObject({ ok: true });
});

afterAll(async () => {
  await database?.close();
});

describe("the schedule", () => {
  it("reads as the defaults until an admin saves it, then as saved and audited", async () => {
    expect(await getRetentionSchedule(database.db)).toEqual(DEFAULT_RETENTION_SCHEDULE);
    expect(DEFAULT_RETENTION_SCHEDULE).toEqual({
      PROSPECTS: 24,
      LOST_DEALS: 24,
      WON_CLIENTS: 60,
      INBOX_BODIES: 1,
      AUDIT_TRAIL: 84,
    });
    const saved = await saveRetentionSchedule(database.db, staff.admin, {
      PROSPECTS: "18",
      LOST_DEALS: null,
      WON_CLIENTS: 72,
      INBOX_BODIES: 2,
      AUDIT_TRAIL: null,
    });
    expect(saved).toEqual({ ok: true });
    expect(await getRetentionSchedule(database.db)).toEqual({
      PROSPECTS: 18,
      LOST_DEALS: null,
      WON_CLIENTS: 72,
      INBOX_BODIES: 2,
      AUDIT_TRAIL: null,
    });
    const [entry] = await database.db
      .select({ actorId: auditEvents.actorId, details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.action, "RETENTION_SCHEDULE_CHANGED"));
    expect(entry?.actorId).toBe(staff.admin.id);
    expect(entry?.details).toMatchObject({ before: DEFAULT_RETENTION_SCHEDULE, after: { LOST_DEALS: null } });
    // Back to the defaults for the rest of the file.
    expect(await saveRetentionSchedule(database.db, staff.admin, DEFAULT_RETENTION_SCHEDULE)).toEqual({ ok: true });
  });

  it("refuses a period under the legal floor, out of bounds, or not a number, and changes nothing", async () => {
    const base = DEFAULT_RETENTION_SCHEDULE;
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ AUDIT_TRAIL: 36 }, "AUDIT_TRAIL", /Audit trail: .* from 60 to 240/],
      [{ WON_CLIENTS: "12" }, "WON_CLIENTS", /Won clients: .* from 36/],
      [{ PROSPECTS: 0 }, "PROSPECTS", /Never-won prospects/],
      [{ PROSPECTS: "2.5" }, "PROSPECTS", /whole number/],
      [{ INBOX_BODIES: "soon" }, "INBOX_BODIES", /Webhook inbox bodies/],
      [{ LOST_DEALS: "" }, "LOST_DEALS", /Lost deals/],
      [{ LOST_DEALS: { months: 24 } }, "LOST_DEALS", /Lost deals/],
      [{ AUDIT_TRAIL: undefined }, "AUDIT_TRAIL", /Audit trail/],
    ];
    for (const [change, field, message] of cases) {
      const result = await saveRetentionSchedule(database.db, staff.admin, { ...base, ...change });
      expect(result, JSON.stringify(change)).toMatchObject({ ok: false, code: "INVALID" });
      if (!result.ok) {
        expect(result.message).toMatch(message);
        expect(result.field?.startsWith(field)).toBe(true);
      }
    }
    expect(await getRetentionSchedule(database.db)).toEqual(DEFAULT_RETENTION_SCHEDULE);
  });

  it("reads the page's form: Keep, or a number of months beside it", () => {
    const form = {
      PROSPECTS: { mode: "MONTHS", months: "18" },
      LOST_DEALS: { mode: "KEEP", months: "not read" },
      WON_CLIENTS: { mode: "MONTHS", months: "72" },
      INBOX_BODIES: { mode: "MONTHS", months: "1" },
      AUDIT_TRAIL: { mode: "KEEP" },
    };
    expect(retentionScheduleFormSchema.parse(form)).toEqual({
      PROSPECTS: 18,
      LOST_DEALS: null,
      WON_CLIENTS: 72,
      INBOX_BODIES: 1,
      AUDIT_TRAIL: null,
    });
    const refused = retentionScheduleFormSchema.safeParse({ ...form, AUDIT_TRAIL: { mode: "MONTHS", months: "" } });
    expect(refused.error?.issues[0]).toMatchObject({
      path: ["AUDIT_TRAIL", "months"],
      message: expect.stringMatching(/from 60/),
    });
    expect(retentionScheduleFormSchema.safeParse({ ...form, PROSPECTS: { mode: "FOREVER" } }).success).toBe(false);
  });

  it("is an admin's alone to change", async () => {
    for (const who of [staff.manager, staff.agent]) {
      expect(
        await saveRetentionSchedule(database.db, who, {
          ...DEFAULT_RETENTION_SCHEDULE,
          PROSPECTS: null,
        }),
      ).toMatchObject({ ok: false, code: "FORBIDDEN" });
    }
    expect(await getRetentionSchedule(database.db)).toEqual(DEFAULT_RETENTION_SCHEDULE);
  });
});

describe("legal holds", () => {
  it("refuses other roles, a short reason, an unknown pull and a second hold on the same thing", async () => {
    const pullId = book.recentProspect?.[0] ?? "";
    for (const who of [staff.manager, staff.agent])
      expect(await placeLegalHold(database.db, who, { pullId, scope: "PULL", reason: "A matter" })).toMatchObject({
        ok: false,
        code: "FORBIDDEN",
      });
    expect(await placeLegalHold(database.db, staff.admin, { pullId, scope: "PULL", reason: " x " })).toMatchObject({
      ok: false,
      code: "INVALID",
      field: "reason",
    });
    expect(
      await placeLegalHold(database.db, staff.admin, { pullId, scope: "HOUSE", reason: "A matter" }),
    ).toMatchObject({ ok: false, code: "INVALID", field: "scope" });
    expect(
      await placeLegalHold(database.db, staff.admin, { pullId: randomUUID(), scope: "PULL", reason: "A matter" }),
    ).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect(
      await placeLegalHold(database.db, staff.admin, {
        pullId: book.heldAccount?.[0],
        scope: "ACCOUNT",
        reason: "Again",
      }),
    ).toMatchObject({ ok: false, code: "CONFLICT" });
    const standing = await database.db.select({ id: legalHolds.id }).from(legalHolds);
    expect(standing).toHaveLength(2);
  });

  it("shows the pull's page its holds, and their reasons in its history to admins only", async () => {
    const pullId = book.heldAccount?.[0] ?? "";
    const NO_SERVICE = { baseUrl: "http://127.0.0.1:9", teamId: "t", clientId: "c", clientSecret: "s", timeoutMs: 100 };
    const asAdmin = await loadPullPage(database.db, NO_SERVICE, { ...staff.admin, sessionId: "s" }, pullId);
    const asManager = await loadPullPage(database.db, NO_SERVICE, { ...staff.manager, sessionId: "s" }, pullId);
    expect(asAdmin?.legalHolds).toMatchObject({ canManage: true, holds: [{ scope: "ACCOUNT" }] });
    expect(asManager?.legalHolds).toMatchObject({ canManage: false, holds: [{ scope: "ACCOUNT" }] });
    const sentences = (page: typeof asAdmin) =>
      (page?.history.rows ?? []).filter((row) => row.action === "LEGAL_HOLD_PLACED").map((row) => auditSentence(row));
    expect(sentences(asAdmin)).toEqual(["Ada Admin placed a legal hold on the whole account: Subpoena of 3 March"]);
    expect(sentences(asManager)).toEqual(["Ada Admin placed a legal hold on the whole account"]);
  });

  it("shows a pull its own hold and its account's, and lists them for the admin", async () => {
    const [first, second] = book.heldPull ?? [];
    expect((await listLegalHoldsOfPull(database.db, first ?? "")).map((h) => [h.scope, h.reason])).toEqual([
      ["PULL", "Claim 2024-17"],
    ]);
    // The other pull of that account is kept with it (the account goes whole or not at all), but
    // the hold is not its own.
    expect(await listLegalHoldsOfPull(database.db, second ?? "")).toEqual([]);
    const list = await listLegalHolds(database.db);
    expect(list.map((h) => [h.scope, h.openPullId])).toEqual([
      ["ACCOUNT", book.heldAccount?.[0]],
      ["PULL", first],
    ]);
    const placed = await database.db
      .select({ pullId: auditEvents.pullId, details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.action, "LEGAL_HOLD_PLACED"));
    expect(placed).toHaveLength(2);
  });
});

describe("the dry run and the disposal", () => {
  let heldEvent = 0;
  const events: Record<string, number> = {};

  beforeAll(async () => {
    const event = async (key: string, status: "DONE" | "IGNORED" | "FAILED", monthsAgo: number, pullId?: string) => {
      const [row] = await database.db
        .insert(webhookEvents)
        .values({
          dedupKey: key,
          eventType: "COMPLETE",
          pullId: pullId ?? null,
          status,
          payload: { pull_id: pullId ?? null, account_email: "jo@example.test" },
          receivedAt: ago(monthsAgo),
          processedAt: ago(monthsAgo),
        })
        .returning({ id: webhookEvents.id });
      events[key] = row?.id ?? 0;
    };
    await event("done-old", "DONE", 2, book.recentProspect?.[0]);
    await event("ignored-old", "IGNORED", 3);
    await event("done-new", "DONE", 0.2, book.recentProspect?.[0]);
    await event("failed-old", "FAILED", 2, book.recentProspect?.[0]);
    await event("held-old", "DONE", 2, book.heldPull?.[1]);
    heldEvent = events["held-old"] ?? 0;
    // The audit trail: entries of 90 and 70 months ago (the schedule keeps 84), one of 90 about
    // a held pull, one of 30 months (under the legal minimum whatever the schedule).
    await database.db.insert(auditEvents).values([
      { action: "CSV_EXPORTED", at: ago(90), details: { marker: "old" } },
      { action: "CSV_EXPORTED", at: ago(70), details: { marker: "newer" } },
      { action: "STAGE_CHANGED", at: ago(90), pullId: book.heldPull?.[1], details: { marker: "held" } },
      { action: "CSV_EXPORTED", at: ago(30), details: { marker: "young" } },
    ]);
  });

  it("counts, for the next run, what that run then removes, and nothing more", async () => {
    const due = await countDisposalDue(database.db, { asOf: NOW });
    expect(due).toEqual({
      accounts: { PROSPECTS: 1, LOST_DEALS: 2, WON_CLIENTS: 1 },
      pulls: { PROSPECTS: 3, LOST_DEALS: 2, WON_CLIENTS: 2 },
      inboxBodies: 2,
      auditRows: 1,
    });
    const run = await runDisposal(database.db, { now: NOW });
    expect({
      accounts: run.accounts,
      pulls: run.pulls,
      inboxBodies: run.inboxBodies,
      auditRows: run.auditRows,
    }).toEqual(due);
    expect(run.removed).toMatchObject({ pulls: 7 });

    const gone = [
      ...(book.oldProspect ?? []),
      ...(book.lostDue ?? []),
      ...(book.lostCapped ?? []),
      ...(book.wonDue ?? []),
    ];
    expect(await remaining(gone)).toEqual([]);
    const kept = Object.entries(book)
      .filter(([name]) => !["oldProspect", "lostDue", "lostCapped", "wonDue"].includes(name))
      .flatMap(([, ids]) => ids);
    expect((await remaining(kept)).sort()).toEqual([...kept].sort());

    // Nothing is due any more.
    expect(await countDisposalDue(database.db, { asOf: NOW })).toEqual({
      accounts: { PROSPECTS: 0, LOST_DEALS: 0, WON_CLIENTS: 0 },
      pulls: { PROSPECTS: 0, LOST_DEALS: 0, WON_CLIENTS: 0 },
      inboxBodies: 0,
      auditRows: 0,
    });
  });

  it("blanks processed inbox bodies past the period, keeping the row, its status and held pulls' bodies", async () => {
    const rows = await database.db
      .select({ id: webhookEvents.id, status: webhookEvents.status, payload: webhookEvents.payload })
      .from(webhookEvents);
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(events["done-old"] ?? 0)).toMatchObject({ status: "DONE", payload: {} });
    expect(byId.get(events["ignored-old"] ?? 0)).toMatchObject({ status: "IGNORED", payload: {} });
    for (const key of ["done-new", "failed-old"])
      expect(byId.get(events[key] ?? 0)?.payload).toMatchObject({ account_email: "jo@example.test" });
    expect(byId.get(heldEvent)?.payload).toMatchObject({ account_email: "jo@example.test" });
  });

  it("deletes audit entries older than the cutoff, keeps newer ones and held pulls', and records the run without content", async () => {
    const markers = (
      await queryRows<{ marker: string }>(
        database.db,
        sql`select details->>'marker' as marker from audit_events where details ? 'marker' order by at`,
      )
    ).map((row) => row.marker);
    expect(markers.sort()).toEqual(["held", "newer", "young"]);
    const [entry] = await database.db
      .select({ actorId: auditEvents.actorId, details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.action, "RETENTION_DISPOSAL_RUN"));
    expect(entry?.actorId).toBeNull();
    expect(entry?.details).toMatchObject({
      accounts: { PROSPECTS: 1, LOST_DEALS: 2, WON_CLIENTS: 1 },
      inboxBodies: 2,
      auditRows: 1,
    });
    const text = JSON.stringify(entry?.details);
    for (const word of ["acct-", "jo@example.test", ...(book.oldProspect ?? [])]) expect(text).not.toContain(word);
  });

  it("never deletes an audit entry younger than the legal minimum, nor one outside its own function", async () => {
    const [row] = await queryRows<{ n: number }>(
      database.db,
      sql`select dispose_audit_events(now() + interval '1 day', '{}'::uuid[], 100) as n`,
    );
    // Only the 70-month entry and the held one are old enough; the held one was not kept by this call.
    expect(Number(row?.n)).toBe(2);
    const young = await database.db
      .select({ id: auditEvents.id })
      .from(auditEvents)
      .where(sql`${auditEvents.details}->>'marker' = 'young'`);
    expect(young).toHaveLength(1);
    await expect(
      database.db.execute(sql`delete from audit_events where details->>'marker' = 'young'`),
    ).rejects.toThrow();
    await expect(
      database.db.execute(sql`delete from audit_events where action = 'RETENTION_SCHEDULE_CHANGED'`),
    ).rejects.toThrow();
  });

  it("looks ahead: what a later run would dispose of, and lifts a hold for the next run", async () => {
    // 15 months on, the prospect last active 10 months ago has been quiet for 25.
    const later = await countDisposalDue(database.db, { asOf: new Date(NOW.getTime() + 15 * MONTH) });
    expect(later.accounts.PROSPECTS).toBe(1);
    expect(nextDisposalRun(new Date("2026-03-01T02:00:00Z")).toISOString()).toBe("2026-03-01T03:30:00.000Z");
    expect(nextDisposalRun(new Date("2026-03-01T04:00:00Z")).toISOString()).toBe("2026-03-02T03:30:00.000Z");

    const [hold] = await database.db
      .select({ id: legalHolds.id })
      .from(legalHolds)
      .where(and(eq(legalHolds.pullId, book.heldPull?.[0] ?? "")));
    expect(
      await liftLegalHold(database.db, staff.agent, { pullId: book.heldPull?.[0], holdId: hold?.id, reason: "Closed" }),
    ).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(
      await liftLegalHold(database.db, staff.admin, { pullId: book.heldPull?.[0], holdId: hold?.id, reason: "" }),
    ).toMatchObject({ ok: false, code: "INVALID", field: "reason" });
    expect(
      await liftLegalHold(database.db, staff.admin, {
        pullId: book.heldPull?.[0],
        holdId: hold?.id,
        reason: "Claim settled",
      }),
    ).toEqual({ ok: true });
    expect(
      await liftLegalHold(database.db, staff.admin, { pullId: book.heldPull?.[0], holdId: hold?.id, reason: "Again" }),
    ).toMatchObject({ ok: false, code: "STALE" });
    const due = await countDisposalDue(database.db, { asOf: NOW });
    expect(due.accounts.PROSPECTS).toBe(1);
    expect(due.pulls.PROSPECTS).toBe(2);
    const run = await runDisposal(database.db, { now: NOW });
    expect(run.accounts.PROSPECTS).toBe(1);
    expect(await remaining(book.heldPull ?? [])).toEqual([]);
    expect(await remaining(book.heldAccount ?? [])).toEqual(book.heldAccount);
  });

  it("is the daily job the jobs page runs now: one line of what it did, and one audit entry more", async () => {
    const job = getJob("retention-disposal");
    expect(job?.cron).toBe("30 3 * * *");
    const runs = async () =>
      (await database.db.select().from(auditEvents).where(eq(auditEvents.action, "RETENTION_DISPOSAL_RUN"))).length;
    const before = await runs();
    const line = await job?.run({ db: database.db, config: parseEnv({ NODE_ENV: "test" }), log: () => {} }, null);
    expect(line).toMatch(/^0 accounts \(0 pulls\) disposed of: .* 0 inbox bodies blanked; 0 audit entries deleted$/);
    expect(await runs()).toBe(before + 1);
  });

  it("keeps a kind set to Keep", async () => {
    const keepAll: RetentionSchedule = {
      PROSPECTS: null,
      LOST_DEALS: null,
      WON_CLIENTS: null,
      INBOX_BODIES: null,
      AUDIT_TRAIL: null,
    };
    const far = new Date(NOW.getTime() + 600 * MONTH);
    expect(await countDisposalDue(database.db, { asOf: far, schedule: keepAll })).toEqual({
      accounts: { PROSPECTS: 0, LOST_DEALS: 0, WON_CLIENTS: 0 },
      pulls: { PROSPECTS: 0, LOST_DEALS: 0, WON_CLIENTS: 0 },
      inboxBodies: 0,
      auditRows: 0,
    });
  });
});
