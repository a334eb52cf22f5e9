import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditEvents } from "@/db/schema";
import type { Actor } from "@/lib/core/actor";
import { exportListCsv } from "@/lib/csv/list-export";
import { storePull } from "@/lib/ingest/store-pull";
import { generatePulls } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { recordAudit, recordPullViewed } from "./audit-log";
import { exportIncidentScopeCsv } from "@/lib/csv/audit-exports";
import {
  getIncidentScope,
  incidentScopeHrefFor,
  incidentScopeInputSchema,
  readIncidentRequest,
  type IncidentScopeInput,
} from "./incident-scope";

// A small book on a real database: Ann opens three New York clients (one twice) and one in
// New Jersey from her session and address; Otto exports a list holding a New York client and
// one in Connecticut from his. The report answers who saw whom, by state, for each filter.

let database: TestDatabase;
/** Who the CSV route's session names (the session is the only stand-in). */
let signedIn: Actor | null = null;
vi.mock("@/lib/auth/session", () => ({ getSessionUser: async () => signedIn, secondFactorMissing: async () => false }));
vi.mock("@/lib/database", () => ({ getDb: async () => database.db }));
let ann: Actor;
let otto: Actor;
let admin: Actor;
const ANN_SESSION = randomUUID();
const OTTO_SESSION = randomUUID();
const ANN_ADDRESS = "198.51.100.7";
const OTTO_ADDRESS = "2001:db8::9";
const ids: Record<"ny1" | "ny2" | "ny3" | "nj1" | "ct1", string> = { ny1: "", ny2: "", ny3: "", nj1: "", ct1: "" };
const TODAY = new Date().toISOString().slice(0, 10);
const TOMORROW = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
const LAST_WEEK = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);

const [template] = generatePulls(91, 1, new Date());

async function clientIn(state: string, name: string): Promise<string> {
  if (!template) throw new Error("no template pull");
  const pullId = randomUUID();
  await storePull(database.db, {
    ...template,
    pull_id: pullId,
    status: "SUCCESS",
    parent_pull_id: null,
    account_identifier: `acct-${pullId}`,
    first_name: name,
    last_name: "Client",
    addresses: [
      // A mailing address elsewhere does not move where the client lives.
      { address_id: `${pullId}-m`, full_address: "PO Box 1, Miami, FL, 33101", state: "FL", address_nature: "MAILING" },
      {
        address_id: `${pullId}-p`,
        full_address: `1 Main St, Town, ${state}, 00001`,
        state,
        address_nature: "PHYSICAL",
      },
    ],
  });
  return pullId;
}

const scope = (fields: Record<string, string>): IncidentScopeInput =>
  incidentScopeInputSchema.parse({ from: LAST_WEEK, to: TOMORROW, ...fields });

beforeAll(async () => {
  database = await createTestDatabase();
  const staff = await createStaff(database.db);
  admin = staff.admin;
  ann = { ...staff.agent, sessionId: ANN_SESSION, address: ANN_ADDRESS };
  otto = { ...staff.otherAgent, sessionId: OTTO_SESSION, address: OTTO_ADDRESS };
  ids.ny1 = await clientIn("NY", "Nora");
  ids.ny2 = await clientIn("NY", "Ned");
  ids.ny3 = await clientIn("NY", "Nell");
  ids.nj1 = await clientIn("NJ", "Jay");
  ids.ct1 = await clientIn("CT", "Cal");
  for (const pullId of [ids.ny1, ids.ny1, ids.ny2, ids.ny3, ids.nj1]) await recordPullViewed(database.db, ann, pullId);
  // Long before the window: not in any report below.
  await recordAudit(database.db, ann, "PULL_VIEWED", { pullId: ids.ct1, at: new Date(Date.now() - 60 * 86_400_000) });
  await exportListCsv(database.db, otto, {
    name: "pulls",
    filters: {},
    columns: [["pull id", (row: { pullId: string }) => row.pullId]],
    rows: [{ pullId: ids.ny1 }, { pullId: ids.ct1 }],
  });
});
afterAll(async () => {
  await database?.close();
});

describe("the incident-scope report", () => {
  it("for a user: the consumers they saw, counted per state of residence", async () => {
    const report = await getIncidentScope(database.db, scope({ user: ann.id }));
    expect(report.states).toEqual([
      { state: "NY", consumers: 3 },
      { state: "NJ", consumers: 1 },
    ]);
    expect(report.total).toBe(4);
    const nora = report.consumers.find((c) => c.pullId === ids.ny1);
    expect(nora).toMatchObject({ name: "Nora Client", state: "NY", access: "viewed", count: 2 });
    expect(nora && nora.lastAt >= nora.firstAt).toBe(true);
    expect(report.consumers.map((c) => c.pullId)).not.toContain(ids.ct1);
  });

  it("for the other user: what their export carried, as exported", async () => {
    const report = await getIncidentScope(database.db, scope({ user: otto.id }));
    expect(report.states).toEqual([
      { state: "CT", consumers: 1 },
      { state: "NY", consumers: 1 },
    ]);
    expect(report.consumers.every((c) => c.access === "exported" && c.count === 1)).toBe(true);
  });

  it("for a session and for an address: only what came through them", async () => {
    const bySession = await getIncidentScope(database.db, scope({ session: ANN_SESSION }));
    expect(bySession.total).toBe(4);
    expect(new Set(bySession.consumers.map((c) => c.access))).toEqual(new Set(["viewed"]));
    const byAddress = await getIncidentScope(database.db, scope({ ip: OTTO_ADDRESS }));
    expect(byAddress.consumers.map((c) => c.pullId).sort()).toEqual([ids.ny1, ids.ct1].sort());
    const nobody = await getIncidentScope(database.db, scope({ ip: "192.0.2.1" }));
    expect(nobody).toMatchObject({ total: 0, states: [], consumers: [] });
  });

  it("for a window alone: every consumer once per state, whatever was done to them", async () => {
    const report = await getIncidentScope(database.db, scope({}));
    expect(report.states).toEqual([
      { state: "NY", consumers: 3 },
      { state: "CT", consumers: 1 },
      { state: "NJ", consumers: 1 },
    ]);
    expect(report.total).toBe(5);
    // Nora was both viewed and exported: two lines, one consumer.
    expect(
      report.consumers
        .filter((c) => c.pullId === ids.ny1)
        .map((c) => c.access)
        .sort(),
    ).toEqual(["exported", "viewed"]);
    // The window ends where it says: the old view of Cal is outside a window of today alone.
    const today = await getIncidentScope(database.db, scope({ from: `${TODAY}T00:00`, to: TOMORROW, user: ann.id }));
    expect(today.consumers.map((c) => c.pullId)).not.toContain(ids.ct1);
  });

  it("downloads as CSV, and the download is itself on the audit trail with the consumers it names", async () => {
    const body = await exportIncidentScopeCsv(database.db, admin, scope({ user: ann.id }));
    const lines = body.trim().split("\r\n");
    expect(lines[0]).toBe("section,state,consumers,pull id,name,what was done,first,last,times");
    expect(lines).toContain("by state,NY,3,,,,,,");
    expect(lines).toContain("by state,NJ,1,,,,,,");
    expect(lines.filter((line) => line.startsWith("consumer,"))).toHaveLength(4);
    expect(lines.find((line) => line.includes(ids.ny1))).toMatch(/^consumer,NY,,[^,]+,Nora Client,viewed,.+,2$/);
    const [entry] = await database.db
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.action} = 'CSV_EXPORTED' and ${auditEvents.details}->>'export' = 'incident-scope'`);
    expect(entry).toMatchObject({ actorId: admin.id, details: { rows: 4, filters: { user: ann.id } } });
    expect([...(entry?.pullIds ?? [])].sort()).toEqual([ids.ny1, ids.ny2, ids.ny3, ids.nj1].sort());
    // The trail keeps ids and the window, never a consumer's name.
    expect(JSON.stringify(entry?.details)).not.toContain("Nora");
  });

  it("records the session and the address of the reader on the trail, and leads from an entry to its session's report", async () => {
    const rows = await database.db.select().from(auditEvents).where(eq(auditEvents.pullId, ids.nj1));
    expect(rows).toEqual([
      expect.objectContaining({ action: "PULL_VIEWED", sessionId: ANN_SESSION, address: ANN_ADDRESS }),
    ]);
    const href = rows[0] ? incidentScopeHrefFor(rows[0]) : null;
    const asked = readIncidentRequest(Object.fromEntries(new URL(`http://app${href}`).searchParams));
    if (asked.status !== "ready") throw new Error(`not ready: ${JSON.stringify(asked)}`);
    expect(asked.input.session).toBe(ANN_SESSION);
    expect((await getIncidentScope(database.db, asked.input)).total).toBe(4);
    expect(incidentScopeHrefFor({ sessionId: null, address: null, at: new Date() })).toBeNull();
  });
});

describe("the report's filters", () => {
  const refusal = (fields: Record<string, unknown>) => {
    const parsed = incidentScopeInputSchema.safeParse(fields);
    return parsed.success ? null : parsed.error.issues[0]?.message;
  };

  it("refuses a report without a window, an open or reversed window, or one over a year", () => {
    expect(refusal({ user: randomUUID() })).toMatch(/start/);
    expect(refusal({ from: LAST_WEEK })).toMatch(/end/);
    expect(refusal({ from: TODAY, to: LAST_WEEK })).toBe("The window must end after it starts.");
    expect(refusal({ from: "2024-01-01", to: "2025-06-01" })).toMatch(/at most 366 days/);
    expect(refusal({ from: "2026-02-30", to: "2026-03-01" })).toBe("That date does not exist.");
    expect(refusal({ from: "yesterday", to: TODAY })).toMatch(/Write a date/);
    expect(refusal({ from: `${LAST_WEEK}T25:99`, to: TODAY })).toMatch(/Write a date/);
  });

  it("refuses a user, session or address that is not one", () => {
    expect(refusal({ from: LAST_WEEK, to: TODAY, user: "ann" })).toBe("Choose a user from the list.");
    expect(refusal({ from: LAST_WEEK, to: TODAY, session: "'; drop table audit_events; --" })).toMatch(/session id/);
    expect(refusal({ from: LAST_WEEK, to: TODAY, ip: "10.0.0.300" })).toMatch(/IPv4 or IPv6/);
    expect(refusal({ from: LAST_WEEK, to: TODAY, ip: "a".repeat(100) })).toBeTruthy();
  });

  it("takes empty fields as not given, and a day as the whole day", () => {
    const input = incidentScopeInputSchema.parse({ from: TODAY, to: TODAY, user: "", session: " ", ip: "" });
    expect(input).toMatchObject({ user: undefined, session: undefined, ip: undefined });
    expect(input.end.getTime() - input.start.getTime()).toBe(86_400_000);
  });
});

describe("GET /api/admin/incident/csv", () => {
  const get = async (query: string) => {
    const { GET } = await import("@/app/api/admin/incident/csv/route");
    return GET(new Request(`http://app/api/admin/incident/csv?${query}`));
  };

  it("answers an admin with the report's CSV", async () => {
    signedIn = admin;
    const response = await get(`user=${ann.id}&from=${LAST_WEEK}T00:00&to=${TOMORROW}T00:00`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
    const body = await response.text();
    expect(body).toContain("by state,NY,3");
    expect(body).toContain("by state,NJ,1");
  });

  it("refuses bad filters in words, and no filters at all", async () => {
    signedIn = admin;
    const bad = await get(`ip=not-an-address&from=${LAST_WEEK}&to=${TODAY}`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: "INVALID_FILTERS",
      message: expect.stringMatching(/IPv4 or IPv6/),
    });
    const none = await get("");
    expect(none.status).toBe(400);
    const unbounded = await get(`user=${ann.id}&from=2020-01-01&to=${TODAY}`);
    expect(await unbounded.json()).toMatchObject({ message: expect.stringMatching(/at most 366 days/) });
  });

  it("answers anyone but an admin as if it did not exist", async () => {
    for (const who of [ann, otto, null]) {
      signedIn = who;
      expect((await get(`from=${LAST_WEEK}&to=${TODAY}`)).status).toBe(404);
    }
  });
});
