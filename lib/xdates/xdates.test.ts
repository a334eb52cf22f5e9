import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import ICAL from "ical.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { auditEvents, calendarFeeds, policyXDates, pulls } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import { generatePulls } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import type { Actor } from "@/lib/core/actor";
import {
  calendarFeedIcs,
  feedOwnerOf,
  renewCalendarFeed,
  serveCalendarFeed,
  turnOffCalendarFeed,
} from "./calendar-feed";
import { addDays, isoDay } from "./derive";
import { backfillXDates } from "./store";
import { rollPassedXDates } from "./upkeep";
import { loadXDatesPage } from "@/lib/loaders/xdates";

// X-dates on a real database: written with the pull, replaced by a refresh (never counted
// twice), following assignments, scoped by role in the loader, rolled forward by the upkeep,
// and served as a calendar feed that a real iCalendar parser reads without a session.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;
const TODAY = isoDay();
const [template] = generatePulls(41, 1, new Date());

const asUser = (actor: Actor): Actor => ({ ...actor, email: `${actor.role}@agency.test` }) as Actor;

type PolicySpec = {
  id: string;
  type?: string;
  carrier?: string;
  premium?: number | null;
  effective?: unknown;
  expiry?: unknown;
  status?: string;
};

function payload(options: {
  pullId?: string;
  account?: string | null;
  createdAt?: string;
  status?: string;
  first?: string;
  policies: PolicySpec[];
}) {
  if (!template) throw new Error("no template pull");
  const base = (template.policies as Array<Record<string, unknown>>)[0];
  return {
    ...template,
    pull_id: options.pullId ?? randomUUID(),
    status: options.status ?? "SUCCESS",
    account_identifier: options.account === undefined ? `acct_${randomUUID()}` : options.account,
    created_at: options.createdAt ?? new Date().toISOString(),
    first_name: options.first ?? "Jane",
    last_name: "Doe",
    parent_pull_id: null,
    policies: options.policies.map((p) => ({
      ...base,
      policy_id: p.id,
      policy_type: p.type ?? "AUTO",
      carrier_name: (p.carrier ?? "Progressive").toLowerCase(),
      carrier_friendly_name: p.carrier ?? "Progressive",
      total_premium_cents: p.premium === undefined ? 60_200 : p.premium,
      total_estimated_annual_premium_cents: null,
      effective_date: p.effective === undefined ? addDays(TODAY, -160) : p.effective,
      expiry_date: p.expiry === undefined ? addDays(TODAY, 20) : p.expiry,
      renewal_date: null,
      canceled_date: null,
      status: p.status ?? "ACTIVE",
    })),
  };
}

async function rowsOf(pullId: string) {
  return database.db.select().from(policyXDates).where(eq(policyXDates.pullId, pullId)).orderBy(policyXDates.policyId);
}

beforeAll(async () => {
  database = await createTestDatabase();
  // The route handler asks getDb(): this test's database (db/client.ts caches it on globalThis,
  // and has already been loaded through the imports above, so the cache is filled, not replaced).
  const cache = globalThis as unknown as { __coverdeskDb?: { connection?: Promise<unknown> } };
  (cache.__coverdeskDb ??= {}).connection = Promise.resolve(database);
});
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate policy_xdates, calendar_feeds, policies, pulls, users, audit_events cascade`);
  staff = await createStaff(database.db);
});

describe("writing X-dates with the pull", () => {
  it("gives every policy of a stored pull a row: a date, or a reason in words", async () => {
    const pull = payload({
      policies: [
        { id: "p-coming", expiry: addDays(TODAY, 20), effective: addDays(TODAY, -161), premium: 60_200 },
        { id: "p-cancelled", status: "CANCELLED" },
        { id: "p-missing", expiry: null },
        { id: "p-malformed", expiry: "next spring" },
        { id: "p-old", effective: "2023-02-10", expiry: "2023-08-10" },
      ],
    });
    expect(await storePull(database.db, pull)).toMatchObject({ outcome: "created" });
    const rows = await rowsOf(pull.pull_id);
    expect(rows.map((r) => [r.policyId, r.xDate, r.basis, r.reason])).toEqual([
      ["p-cancelled", null, null, "CANCELLED"],
      ["p-coming", addDays(TODAY, 20), "EXPIRY", null],
      ["p-malformed", null, null, "MALFORMED_EXPIRY"],
      ["p-missing", null, null, "NO_EXPIRY"],
      ["p-old", expect.any(String), "ROLLED", null],
    ]);
    const old = rows.find((r) => r.policyId === "p-old");
    expect(old?.xDate && old.xDate >= TODAY).toBe(true);
    expect(old?.termMonths).toBe(6);
    // A six-month premium, a year's worth at stake.
    expect(rows.find((r) => r.policyId === "p-coming")?.annualPremiumCents).toBe(120_400);
    expect(rows.find((r) => r.policyId === "p-malformed")?.note).toMatch(/next spring/);
  });

  it("keeps only the newest successful pull of an account: a refresh replaces, a late older pull does not", async () => {
    const account = `acct_${randomUUID()}`;
    const first = payload({ account, createdAt: "2026-01-01T00:00:00Z", policies: [{ id: "p-1" }, { id: "p-2" }] });
    const refresh = payload({ account, createdAt: "2026-06-01T00:00:00Z", policies: [{ id: "p-1", premium: 70_000 }] });
    await storePull(database.db, first);
    await storePull(database.db, refresh);
    const all = await database.db.select().from(policyXDates).where(eq(policyXDates.accountIdentifier, account));
    expect(all.map((r) => [r.pullId, r.policyId])).toEqual([[refresh.pull_id, "p-1"]]);
    // The older pull fetched again with new content must not bring its rows back.
    await storePull(database.db, { ...first, first_name: "Janet" });
    expect(
      (await database.db.select().from(policyXDates).where(eq(policyXDates.accountIdentifier, account))).map(
        (r) => r.pullId,
      ),
    ).toEqual([refresh.pull_id]);
    // A refresh that failed (the consumer must reconnect) leaves the last good X-dates.
    await storePull(
      database.db,
      payload({ account, createdAt: "2026-09-01T00:00:00Z", status: "NOT_AUTHENTICATED", policies: [] }),
    );
    expect(
      (await database.db.select().from(policyXDates).where(eq(policyXDates.accountIdentifier, account))).map(
        (r) => r.pullId,
      ),
    ).toEqual([refresh.pull_id]);
  });

  it("follows the pull's assignee and stage, whichever command changes them", async () => {
    const pull = payload({ policies: [{ id: "p-1" }] });
    await storePull(database.db, pull);
    await database.db
      .update(pulls)
      .set({ assigneeId: staff.agent.id, stage: "WON", wonPremiumCents: 100 })
      .where(eq(pulls.pullId, pull.pull_id));
    expect(await rowsOf(pull.pull_id)).toMatchObject([{ assigneeId: staff.agent.id, stage: "WON" }]);
  });

  it("backfills pulls stored before the table, and rolls passed X-dates forward", async () => {
    const pull = payload({ policies: [{ id: "p-1", effective: addDays(TODAY, -365), expiry: addDays(TODAY, 1) }] });
    await storePull(database.db, pull);
    const account = `acct_${randomUUID()}`;
    const older = payload({ account, createdAt: "2026-01-01T00:00:00Z", policies: [{ id: "o-1" }] });
    const newer = payload({ account, createdAt: "2026-05-01T00:00:00Z", policies: [{ id: "n-1" }] });
    await storePull(database.db, older);
    await storePull(database.db, newer);
    await database.db.delete(policyXDates);
    // Each account's newest pull only: the older pull of the refreshed account gets none.
    expect(await backfillXDates(database.db)).toBe(2);
    expect(await rowsOf(older.pull_id)).toEqual([]);
    expect(await rowsOf(newer.pull_id)).toHaveLength(1);
    expect(await backfillXDates(database.db)).toBe(0);
    expect(await rowsOf(pull.pull_id)).toMatchObject([{ xDate: addDays(TODAY, 1), basis: "EXPIRY", termMonths: 12 }]);
    // Two days later the expiry has passed: the upkeep steps it a term on.
    const later = addDays(TODAY, 2);
    expect(await rollPassedXDates(database.db, later)).toBe(1);
    const [rolled] = await rowsOf(pull.pull_id);
    expect(rolled).toMatchObject({ basis: "ROLLED", termMonths: 12, expiryDate: addDays(TODAY, 1) });
    expect(rolled?.xDate && rolled.xDate > later).toBe(true);
    expect(await rollPassedXDates(database.db, later)).toBe(0);
  });
});

describe("the X-dates page's loader", () => {
  it("shows agents their own and the unassigned, managers and admins everyone, with the premium at stake", async () => {
    const mine = payload({ first: "Mine", policies: [{ id: "a", type: "AUTO", premium: 50_000 }] });
    const theirs = payload({ first: "Theirs", policies: [{ id: "b", type: "HOMEOWNERS", premium: 100_000 }] });
    const queue = payload({ first: "Queue", policies: [{ id: "c", type: "AUTO", premium: 20_000 }] });
    for (const p of [mine, theirs, queue]) await storePull(database.db, p);
    await database.db.update(pulls).set({ assigneeId: staff.agent.id }).where(eq(pulls.pullId, mine.pull_id));
    await database.db.update(pulls).set({ assigneeId: staff.otherAgent.id }).where(eq(pulls.pullId, theirs.pull_id));

    const agentView = await loadXDatesPage(database.db, asUser(staff.agent), {});
    expect(agentView.rows.map((r) => r.firstName).sort()).toEqual(["Mine", "Queue"]);
    expect(agentView.seesAll).toBe(false);
    expect(agentView.total).toBe(2);

    const managerView = await loadXDatesPage(database.db, asUser(staff.manager), {});
    expect(managerView.rows.map((r) => r.firstName).sort()).toEqual(["Mine", "Queue", "Theirs"]);
    expect(managerView.premiumCents).toBe((50_000 + 100_000 + 20_000) * 2);
    expect(managerView.days).toHaveLength(1);
    expect(managerView.entries).toHaveLength(3);

    // An agent asking for another agent's X-dates by URL gets nothing.
    const snooping = await loadXDatesPage(database.db, asUser(staff.agent), { agent: staff.otherAgent.id });
    expect(snooping.rows).toEqual([]);

    const autos = await loadXDatesPage(database.db, asUser(staff.admin), { line: "AUTO" });
    expect(autos.rows.map((r) => r.policyType)).toEqual(["AUTO", "AUTO"]);
    expect(autos.options.lines).toEqual(["AUTO", "HOMEOWNERS"]);

    const bad = await loadXDatesPage(database.db, asUser(staff.admin), { range: "45", stage: "MAYBE" });
    expect(bad.ignored.sort()).toEqual(["range", "stage"]);
    expect(bad.range).toBe(90);
  });

  it("keeps X-dates beyond the range out, and counts those without one by reason", async () => {
    const pull = payload({
      policies: [
        { id: "near", expiry: addDays(TODAY, 29) },
        { id: "far", expiry: addDays(TODAY, 120), effective: addDays(TODAY, -245) },
        { id: "gone", status: "RESCINDED" },
      ],
    });
    await storePull(database.db, pull);
    const view = await loadXDatesPage(database.db, asUser(staff.manager), { range: "30" });
    expect(view.rows.map((r) => r.policyId)).toEqual(["near"]);
    expect(view.withoutXDate).toEqual([{ reason: "RESCINDED", count: 1 }]);
    expect((await loadXDatesPage(database.db, asUser(staff.manager), { range: "180" })).total).toBe(2);
  });
});

describe("the calendar feed", () => {
  it("serves the owner's X-dates without a session, as iCalendar a parser reads, until revoked", async () => {
    const pull = payload({
      first: "Jane",
      policies: [
        { id: "p-1", premium: 60_200 },
        { id: "p-2", type: "HOMEOWNERS" },
      ],
    });
    const other = payload({ first: "Other", policies: [{ id: "p-3" }] });
    await storePull(database.db, pull);
    await storePull(database.db, other);
    await database.db.update(pulls).set({ assigneeId: staff.agent.id }).where(eq(pulls.pullId, pull.pull_id));

    const token = await renewCalendarFeed(database.db, staff.agent);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [stored] = await database.db.select().from(calendarFeeds);
    expect(stored?.tokenHash).not.toContain(token); // only the hash is kept

    const { GET } = await import("@/app/api/calendar/[token]/route");
    const fetchFeed = (t: string) =>
      GET(new Request(`http://app/api/calendar/${t}.ics`, { headers: { "x-forwarded-for": "192.0.2.44" } }), {
        params: Promise.resolve({ token: `${t}.ics` }),
      });
    const response = await fetchFeed(token);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/calendar/);
    expect(response.headers.get("cache-control")).toMatch(/^private/);
    const body = await response.text();
    const events = new ICAL.Component(ICAL.parse(body)).getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
    expect(events.map((e) => e.summary).sort()).toEqual([
      "X-date: Jane Doe — Progressive auto, $1,204/yr",
      "X-date: Jane Doe — Progressive homeowners, $1,204/yr",
    ]);
    const [event] = events;
    expect(event?.startDate.isDate).toBe(true); // all-day
    expect(event?.startDate.toString()).toBe(addDays(TODAY, 20));
    expect(String(event?.component.getFirstPropertyValue("url"))).toContain(`/pulls/${pull.pull_id}`);
    // The same event keeps its UID from one read to the next, so calendars update it.
    const again = new ICAL.Component(ICAL.parse(await (await fetchFeed(token)).text()))
      .getAllSubcomponents("vevent")
      .map((v) => new ICAL.Event(v).uid)
      .sort();
    expect(again).toEqual(events.map((e) => e.uid).sort());

    // Renewing retires the old address; turning off retires the new one.
    const renewed = await renewCalendarFeed(database.db, staff.agent);
    const gone = await fetchFeed(token);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toBe("Not found");
    expect((await fetchFeed(renewed)).status).toBe(200);
    expect(await turnOffCalendarFeed(database.db, staff.agent)).toBe(true);
    expect((await fetchFeed(renewed)).status).toBe(404);
    expect((await fetchFeed("not-a-token")).status).toBe(404);
    const trail = await database.db
      .select({ action: auditEvents.action, subject: auditEvents.subjectUserId, details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.actorId, staff.agent.id), sql`${auditEvents.action} like 'CALENDAR_FEED_%'`))
      .orderBy(auditEvents.id);
    // Every read that served the owner's clients is on the trail, with the address that read it;
    // a retired address reads nothing and records nothing.
    expect(trail.map((t) => t.action)).toEqual([
      "CALENDAR_FEED_RENEWED",
      "CALENDAR_FEED_READ",
      "CALENDAR_FEED_READ",
      "CALENDAR_FEED_RENEWED",
      "CALENDAR_FEED_READ",
      "CALENDAR_FEED_TURNED_OFF",
    ]);
    expect(trail[1]).toMatchObject({ subject: staff.agent.id, details: { address: "192.0.2.44", events: 2 } });
  });

  it("keeps hostile policy ids, names and carriers inside their own event", async () => {
    const inject = "\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:evil\r\nDTSTART:20300101\r\nSUMMARY:Injected\r\nX-INJECTED:1";
    const pull = payload({
      first: `Jane${inject}`,
      policies: [{ id: `p-1${inject}` }, { id: `p-1\u000b${inject.replace(/\r\n/g, "\n")}`, carrier: `Acme${inject}` }],
    });
    await storePull(database.db, pull);
    await database.db.update(pulls).set({ assigneeId: staff.agent.id }).where(eq(pulls.pullId, pull.pull_id));
    const owner = { id: staff.agent.id, name: `Ann${inject}\rX-WR-TIMEZONE:Evil/Zone, Agent; \\` };
    const body = await calendarFeedIcs(database.db, owner, "http://app");

    const lines = body.split(/\r\n/);
    expect(lines.filter((l) => l === "BEGIN:VEVENT")).toHaveLength(2);
    expect(lines.filter((l) => l === "END:VEVENT")).toHaveLength(2);
    expect(lines.filter((l) => /^(UID:evil|SUMMARY:Injected|X-INJECTED|DTSTART:2030|X-WR-TIMEZONE)/.test(l))).toEqual(
      [],
    );
    expect(body).not.toMatch(/\r(?!\n)|(?<!\r)\n|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/);

    const calendar = new ICAL.Component(ICAL.parse(body));
    expect(calendar.getAllProperties().map((p) => p.name)).not.toContain("x-injected");
    expect(calendar.getFirstPropertyValue("x-wr-timezone")).toBeNull();
    // The name stays on its one line, as escaped iCalendar text (an x-property reads back raw).
    expect(String(calendar.getFirstPropertyValue("x-wr-calname"))).toBe(
      "Coverdesk X-dates — Ann END:VEVENT BEGIN:VEVENT UID:evil DTSTART:20300101 SUMMARY:Injected X-INJECTED:1 X-WR-TIMEZONE:Evil/Zone\\, Agent\\; \\\\",
    );
    const events = calendar.getAllSubcomponents("vevent");
    expect(events).toHaveLength(2);
    const uids = events.map((e) => String(e.getFirstPropertyValue("uid")));
    expect(new Set(uids).size).toBe(2); // two policies, two events
    const clean = payload({ policies: [{ id: "p-9" }] });
    await storePull(database.db, clean);
    await database.db.update(pulls).set({ assigneeId: staff.admin.id }).where(eq(pulls.pullId, clean.pull_id));
    const [cleanEvent] = new ICAL.Component(
      ICAL.parse(await calendarFeedIcs(database.db, { id: staff.admin.id, name: "Ada" }, "http://app")),
    ).getAllSubcomponents("vevent");
    const expected = cleanEvent?.getAllProperties().map((p) => p.name);
    expect(expected).toContain("uid");
    for (const event of events) {
      // Each property once, the same ones as an event of harmless data: nothing added, none repeated.
      expect(event.getAllProperties().map((p) => p.name)).toEqual(expected);
      expect(String(event.getFirstPropertyValue("uid"))).toMatch(/^xdate-[0-9a-f]+@app$/);
      expect(String(event.getFirstPropertyValue("summary"))).toMatch(/^X-date: Jane/);
    }
  });

  it("answers 404 for a deactivated user's feed, and rate-limits guessing", async () => {
    const token = await renewCalendarFeed(database.db, staff.otherAgent);
    expect(await feedOwnerOf(database.db, token)).toMatchObject({ id: staff.otherAgent.id });
    await database.db.execute(sql`update users set is_active = false where id = ${staff.otherAgent.id}`);
    expect(await feedOwnerOf(database.db, token)).toBeNull();
    let last = 0;
    for (let i = 0; i < 61; i++)
      last = (await serveCalendarFeed(database.db, "x".repeat(43) + ".ics", "198.51.100.9", "http://app")).status;
    expect(last).toBe(429);
    const empty = await calendarFeedIcs(database.db, { id: staff.manager.id, name: "Max" }, "http://app");
    expect(new ICAL.Component(ICAL.parse(empty)).getAllSubcomponents("vevent")).toEqual([]);
  });
});
