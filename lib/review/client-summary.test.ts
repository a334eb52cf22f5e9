import { asc, eq, sql } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { auditEvents, pulls, userSessions } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import type { ServiceConfig } from "@/lib/service/client";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { pdfText } from "@/test/pdf-text";
import {
  autoPolicy,
  coverage,
  dwelling,
  homePolicy,
  rawPullOf,
  soundAuto,
  soundHome,
  split,
  vehicle,
} from "@/test/review-pulls";
import { createStaff } from "@/test/workflow-fixture";
import { FALLBACK_AGENCY_NAME, forgetAgencyNames, getAgencyName } from "./agency-name";
import { decideFinding } from "./decisions";

// GET /api/pulls/[pullId]/summary end to end on a real database (next-auth's session check is
// the only stand-in): the PDF with its headers, what it lists, the audit entry, and the same 404
// for a pull the viewer may not see as for one that does not exist. And where the agency's name
// comes from: the link's company name on the service, else "Your agency".

let current: { id: string } | null = null;
const sessions: Record<string, string> = {};
vi.mock("next-auth", () => ({
  getServerSession: async () => (current ? { user: { id: current.id }, sessionId: sessions[current.id] } : null),
  default: () => null,
}));
vi.mock("next/headers", () => ({ headers: async () => new Headers() }));

// No service answers this test: the agency's name falls back at once.
const savedServiceUrl = process.env.SERVICE_BASE_URL;
process.env.SERVICE_BASE_URL = "http://127.0.0.1:9/api/v1.0.0";

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;
const PULL = "11111111-2222-4333-8444-00000000a001";
let stored: ReturnType<typeof household>;

const household = () =>
  rawPullOf(
    [
      autoPolicy([vehicle({}, [coverage("Bodily Injury Liability", split(25_000, 50_000)), ...soundAuto().slice(1)])], {
        carrier_policy_number: "AU-7",
      }),
      homePolicy([dwelling({}, soundHome(400_000).slice(0, 3))], { carrier_policy_number: "HO-7" }),
    ],
    { pull_id: PULL, first_name: "Zoë", last_name: "Ødegaard-李" },
  );

const get = async (pullId: string) =>
  (await import("@/app/api/pulls/[pullId]/summary/route")).GET(new Request(`http://app/api/pulls/${pullId}/summary`), {
    params: Promise.resolve({ pullId }),
  });

beforeAll(async () => {
  database = await createTestDatabase();
  const cache = globalThis as unknown as { __coverdeskDb?: { connection?: Promise<unknown> } };
  (cache.__coverdeskDb ??= {}).connection = Promise.resolve(database);
  staff = await createStaff(database.db);
  for (const actor of Object.values(staff)) {
    const [session] = await database.db
      .insert(userSessions)
      .values({ userId: actor.id, expiresAt: new Date(Date.now() + 3_600_000) })
      .returning({ id: userSessions.id });
    sessions[actor.id] = session?.id ?? "";
  }
});
afterAll(async () => {
  await database?.close();
  if (savedServiceUrl === undefined) delete process.env.SERVICE_BASE_URL;
  else process.env.SERVICE_BASE_URL = savedServiceUrl;
});
beforeEach(async () => {
  current = null;
  await database.db.execute(sql`truncate finding_decisions, audit_events, pulls, policies, pull_versions cascade`);
  stored = household();
  await storePull(database.db, stored);
  await database.db.update(pulls).set({ assigneeId: staff.agent.id }).where(eq(pulls.pullId, PULL));
});

describe("the client summary route", () => {
  it("answers the pull's agent with a one-page PDF of the review and what the client declined", async () => {
    await decideFinding(database.db, staff.agent, {
      pullId: PULL,
      findingKey: `home-water-backup:HO-7:${(stored.policies as Array<{ dwellings: Array<{ dwelling_id: string }> }>)[1]?.dwellings[0]?.dwelling_id}`,
      decision: "DECLINED",
      note: "Finished basement; client will self-insure.",
    });
    current = { id: staff.agent.id };
    const response = await get(PULL);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="Coverage review Zoe .* \d{4}-\d{2}-\d{2}\.pdf"$/,
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(1);
    const text = pdfText(bytes);
    expect(text).toContain(FALLBACK_AGENCY_NAME);
    expect(text).toContain("Insurance review for Zoë Ødegaard-?");
    expect(text).toContain("Gap: Bodily injury liability below $100,000/$300,000");
    expect(text).toContain("What you chose not to change");
    expect(text).toContain("No water backup cover (declined on");
    expect(text).toContain("Finished basement; client will self-insure.");
    // A declined finding is listed once, among what the client chose, not again among the gaps.
    expect(text.match(/No water backup cover/g)).toHaveLength(1);
    const [audit] = await database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "CLIENT_SUMMARY_MADE"))
      .orderBy(asc(auditEvents.id));
    expect(audit).toMatchObject({ actorId: staff.agent.id, pullId: PULL, details: { declined: 1 } });
  });

  it("answers another agent, a stranger and a malformed id alike: 404, and nothing audited", async () => {
    current = { id: staff.otherAgent.id };
    expect((await get(PULL)).status).toBe(404);
    current = null;
    expect((await get(PULL)).status).toBe(404);
    current = { id: staff.manager.id };
    expect((await get("not-a-pull")).status).toBe(404);
    expect((await get("11111111-2222-4333-8444-00000000ffff")).status).toBe(404);
    expect(await database.db.select().from(auditEvents).where(eq(auditEvents.action, "CLIENT_SUMMARY_MADE"))).toEqual(
      [],
    );
  });
});

describe("the agency's name", () => {
  const WIDGET = "3d7e4a8c-1b2f-4e5a-9c6d-7e8f9a0b1c2d";
  const config = (fetch: typeof globalThis.fetch): ServiceConfig => ({
    baseUrl: "http://service.test/api/v1.0.0",
    teamId: "team-1",
    clientId: "id",
    clientSecret: "secret",
    timeoutMs: 1_000,
    fetch,
  });
  beforeEach(() => forgetAgencyNames());

  it("is the company name of the link the consumer used, asked once", async () => {
    const fetch = vi.fn(async () =>
      Response.json({ success: true, widget: { widget_id: WIDGET, company_name: "Harbor Point Insurance Agency" } }),
    );
    expect(await getAgencyName(config(fetch), WIDGET)).toBe("Harbor Point Insurance Agency");
    expect(await getAgencyName(config(fetch), WIDGET)).toBe("Harbor Point Insurance Agency");
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('is "Your agency" without a link, with a link of no company name, or when the service fails', async () => {
    expect(await getAgencyName(config(vi.fn()), null)).toBe(FALLBACK_AGENCY_NAME);
    const nameless = vi.fn(async () =>
      Response.json({ success: true, widget: { widget_id: WIDGET, company_name: null } }),
    );
    expect(await getAgencyName(config(nameless), WIDGET)).toBe(FALLBACK_AGENCY_NAME);
    forgetAgencyNames();
    const failing = vi.fn(async () => Response.json({ error: "NOT_FOUND" }, { status: 404 }));
    expect(await getAgencyName(config(failing), WIDGET)).toBe(FALLBACK_AGENCY_NAME);
  });
});
