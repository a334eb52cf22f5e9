import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { auditEvents, pulls, redisclosures, userSessions } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import { parsePull } from "@/lib/service/schemas";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { autoPolicy, driver, dwelling, homePolicy, rawPullOf, vehicle } from "@/test/review-pulls";
import { createStaff } from "@/test/workflow-fixture";
import { readXml } from "@/test/xml-document";
import { EZLYNX_PURPOSE, EZLYNX_RECIPIENT, listHandoffFiles } from "./export";

// GET /api/pulls/[pullId]/exports/ezlynx-auto and …/ezlynx-home end to end on a real database
// (next-auth's session check is the only stand-in): the XML with its headers, the audit entry
// naming the recipient and purpose, and the same 404 for a pull the viewer may not see as for one
// without the line the file carries.

let current: { id: string } | null = null;
const sessions: Record<string, string> = {};
vi.mock("next-auth", () => ({
  getServerSession: async () => (current ? { user: { id: current.id }, sessionId: sessions[current.id] } : null),
  default: () => null,
}));
vi.mock("next/headers", () => ({ headers: async () => new Headers() }));

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;
const AUTO_ONLY = "11111111-2222-4333-8444-00000000e001";
const BOTH = "11111111-2222-4333-8444-00000000e002";

const get = async (kind: "ezlynx-auto" | "ezlynx-home", pullId: string) => {
  const route =
    kind === "ezlynx-auto"
      ? await import("@/app/api/pulls/[pullId]/exports/ezlynx-auto/route")
      : await import("@/app/api/pulls/[pullId]/exports/ezlynx-home/route");
  return route.GET(new Request(`http://app/api/pulls/${pullId}/exports/${kind}`), {
    params: Promise.resolve({ pullId }),
  });
};

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
});
beforeEach(async () => {
  current = null;
  await database.db.execute(sql`truncate audit_events, pulls, policies, pull_versions cascade`);
  await storePull(
    database.db,
    rawPullOf([autoPolicy([vehicle({ year: 2017, make: "Subaru", model: "Outback" })])], {
      pull_id: AUTO_ONLY,
      account_identifier: "acct_auto",
      first_name: "Zoë",
      last_name: "Ødegaard & Sons",
      drivers: [driver("Zoë", "Ødegaard", { relationship_to_insured: "INSURED" })],
    }),
  );
  await storePull(
    database.db,
    rawPullOf([autoPolicy([vehicle()]), homePolicy([dwelling()])], { pull_id: BOTH, account_identifier: "acct_both" }),
  );
  await database.db.update(pulls).set({ assigneeId: staff.agent.id }).where(eq(pulls.pullId, AUTO_ONLY));
});

describe("the EZLynx downloads", () => {
  it("answer the pull's agent with the XML file, and record who sent the driver data where and why", async () => {
    current = { id: staff.agent.id };
    const response = await get("ezlynx-auto", AUTO_ONLY);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="EZLynx auto Zoe (?:O)?degaard Sons \d{4}-\d{2}-\d{2}\.xml"$/,
    );
    const doc = readXml(await response.text());
    expect(doc.at("Applicant/PersonalInfo/Name/LastName").text).toBe("Ødegaard & Sons");
    expect(doc.at("Vehicles/Vehicle/Model").text).toBe("Outback");
    const entries = await database.db.select().from(auditEvents).where(eq(auditEvents.action, "HANDOFF_EXPORTED"));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorId: staff.agent.id,
      pullId: AUTO_ONLY,
      details: { kind: "ezlynx-auto", recipient: EZLYNX_RECIPIENT, purpose: EZLYNX_PURPOSE, drivers: 1, vehicles: 1 },
    });
    expect(EZLYNX_RECIPIENT).toBe("EZLynx import");
    // The file carries the driver's licence: the DPPA's redisclosure log names where it went, and why.
    expect(await database.db.select().from(redisclosures)).toMatchObject([
      { pullIds: [AUTO_ONLY], recipient: EZLYNX_RECIPIENT, purpose: EZLYNX_PURPOSE, channel: "hand-off" },
    ]);
  });

  it("give the home file to a manager for a pull with a home", async () => {
    current = { id: staff.manager.id };
    const response = await get("ezlynx-home", BOTH);
    expect(response.status).toBe(200);
    expect(readXml(await response.text()).name).toBe("EZHOME");
  });

  it("answer 404, and record nothing, for another agent's pull, a pull without the line, and a bad id", async () => {
    current = { id: staff.otherAgent.id };
    expect((await get("ezlynx-auto", AUTO_ONLY)).status).toBe(404);
    current = { id: staff.agent.id };
    expect((await get("ezlynx-home", AUTO_ONLY)).status).toBe(404);
    expect((await get("ezlynx-auto", "11111111-2222-4333-8444-00000000ffff")).status).toBe(404);
    expect((await get("ezlynx-auto", "not-a-uuid")).status).toBe(404);
    expect(await database.db.select().from(auditEvents).where(eq(auditEvents.action, "HANDOFF_EXPORTED"))).toEqual([]);
  });

  it("refuse a visitor who is not signed in, like a pull that does not exist", async () => {
    expect((await get("ezlynx-auto", AUTO_ONLY)).status).toBe(404);
  });
});

describe("the pull page's hand-off panel", () => {
  it("offers the files the pull makes, each with its download and what it leaves out", () => {
    const parsed = parsePull(
      rawPullOf(
        [
          autoPolicy([vehicle()]),
          homePolicy([dwelling(), dwelling({ address: { full_address: "14 Elm Street, Springfield, IL 62701" } })]),
        ],
        {
          pull_id: BOTH,
        },
      ),
    );
    if (!parsed.ok) throw new Error(parsed.error);
    const files = listHandoffFiles(parsed.pull, "2026-11-28");
    expect(files.map((f) => [f.kind, f.href])).toEqual([
      ["ezlynx-auto", `/api/pulls/${BOTH}/exports/ezlynx-auto`],
      ["ezlynx-home", `/api/pulls/${BOTH}/exports/ezlynx-home`],
    ]);
    expect(files[1]?.leftOut[0]).toMatch(/^1 other dwelling \(EZHOME holds one/);
  });

  it("offers nothing for a pull without an auto or a home", () => {
    const parsed = parsePull(rawPullOf([], { pull_id: BOTH }));
    if (!parsed.ok) throw new Error(parsed.error);
    expect(listHandoffFiles(parsed.pull)).toEqual([]);
  });
});
