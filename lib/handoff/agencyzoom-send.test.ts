import { readFileSync } from "node:fs";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { auditEvents, handoffs, pulls, redisclosures } from "@/db/schema";
import type { AgencyzoomConfig } from "@/lib/env";
import { storePull } from "@/lib/ingest/store-pull";
import { parsePull } from "@/lib/service/schemas";
import { leadBodySchema } from "@/sandbox/agencyzoom/lead-body";
import { DEMO_PASSWORD, DEMO_USERNAME } from "@/sandbox/agencyzoom/seed";
import { startAgencyZoomSandbox, type AgencyZoomSandbox } from "@/sandbox/agencyzoom/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { autoPolicy, driver, rawPullOf, vehicle } from "@/test/review-pulls";
import { createStaff } from "@/test/workflow-fixture";
import { forgetAgencyzoomTokens } from "./agencyzoom-client";
import { buildAgencyzoomLead } from "./agencyzoom-lead";
import { AGENCYZOOM_PURPOSE, AGENCYZOOM_RECIPIENT, sendPullToAgencyzoom } from "./agencyzoom-send";
import { saveAgencyzoomSettings } from "./agencyzoom-settings";

// The send to AgencyZoom end to end: a real database and the AgencyZoom stand-in over real HTTP.
// One lead per pull however often it is sent, a re-login when the token expires, AgencyZoom's
// refusals surfaced with the field they name, and every send on the audit trail and in the
// redisclosure log.

const example = (
  JSON.parse(readFileSync("lib/service/fixtures/real/pulls/personal.json", "utf8")) as { pull: Record<string, unknown> }
).pull;
const EXAMPLE_ID = example.pull_id as string;
const AUTO = "11111111-2222-4333-8444-00000000a201";
const NO_EMAIL = "11111111-2222-4333-8444-00000000a202";

let database: TestDatabase;
let az: AgencyZoomSandbox;
let config: AgencyzoomConfig;
let staff: Awaited<ReturnType<typeof createStaff>>;

const SETTINGS = { pipelineId: 5001, stageId: 50011, leadSourceId: 7001, country: "US", fallbackAssigneeId: 3002 };

beforeAll(async () => {
  database = await createTestDatabase();
  az = await startAgencyZoomSandbox({ port: 0 });
  config = { baseUrl: az.url, username: DEMO_USERNAME, password: DEMO_PASSWORD, timeoutMs: 5000 };
  staff = await createStaff(database.db);
});
afterAll(async () => {
  await az?.close();
  await database?.close();
});
beforeEach(async () => {
  az.leads.clear();
  az.requests.length = 0;
  forgetAgencyzoomTokens();
  await database.db.execute(
    sql`truncate audit_events, redisclosures, handoffs, agencyzoom_settings, agencyzoom_user_map, pulls, policies, pull_versions cascade`,
  );
  await storePull(database.db, example);
  await storePull(
    database.db,
    rawPullOf([autoPolicy([vehicle({ year: 2019, make: "Subaru", model: "Outback" })])], {
      pull_id: AUTO,
      account_identifier: "acct_az_auto",
      first_name: "Lois",
      last_name: "Lane",
      email: "lois@example.com",
      mobile_phone: "(212) 555-0100",
      drivers: [driver("Lois", "Lane", { relationship_to_insured: "INSURED", marital_status: "MARRIED" })],
    }),
  );
  await storePull(database.db, rawPullOf([], { pull_id: NO_EMAIL, account_identifier: "acct_az_none" }));
  await database.db.update(pulls).set({ assigneeId: staff.agent.id }).where(eq(pulls.pullId, AUTO));
  const saved = await saveAgencyzoomSettings(database.db, staff.admin, {
    ...SETTINGS,
    userMap: [{ userId: staff.agent.id, agencyzoomUserId: 3001 }],
  });
  expect(saved.ok).toBe(true);
});

const sentRow = async (pullId: string) =>
  (await database.db.select().from(handoffs).where(eq(handoffs.pullId, pullId)))[0];

describe("sending a pull to AgencyZoom", () => {
  it("builds a lead from the published example pull that AgencyZoom's rules accept", () => {
    const parsed = parsePull(example);
    if (!parsed.ok) throw new Error(parsed.error);
    const built = buildAgencyzoomLead(
      parsed.pull,
      { pipelineId: 5001, stageId: 50011, leadSourceId: 7001, country: "US", assignTo: 3001 },
      "2026-11-28",
    );
    if (!built.ok) throw new Error(JSON.stringify(built.missing));
    expect(leadBodySchema.safeParse(built.lead).error?.issues).toBeUndefined();
    expect(built.lead).toMatchObject({
      firstname: "Clark",
      lastname: "Kent",
      email: "clark.kent@theplanet.com",
      phone: "8885550000",
      streetAddress: "344 Clinton St",
      streetAddressLine2: "Apartment 3D",
      city: "Brooklyn",
      state: "NY",
      zip: "11231",
      birthday: "1987-05-03",
      maritalStatus: "Single",
    });
    expect(built.lead.notes).toContain("Drivers:");
    expect(built.lead.notes).toContain("Vehicles:");
    // No null and no undefined in the body: unset optionals are left out.
    expect(Object.values(built.lead).every((v) => v !== null && v !== undefined)).toBe(true);
  });

  it("creates the lead once, then updates that same lead: one lead however often it is sent", async () => {
    const first = await sendPullToAgencyzoom(database.db, config, staff.agent, AUTO);
    expect(first).toMatchObject({ ok: true, action: "created", recreated: false });
    if (!first.ok) return;
    expect(first.url).toBe(`${az.url}/lead/index?id=${first.externalId}`);
    const lead = az.leads.get(Number(first.externalId));
    expect(lead).toMatchObject({
      firstname: "Lois",
      assignTo: 3001,
      pipelineId: 5001,
      phone: "2125550100",
      maritalStatus: "Married",
    });
    expect(lead?.notes).toContain("2019 Subaru Outback");

    const again = await sendPullToAgencyzoom(database.db, config, staff.manager, AUTO);
    expect(again).toMatchObject({ ok: true, action: "updated", externalId: first.externalId });
    expect(az.leads.size).toBe(1);
    expect(az.requests.filter((r) => r.path === "/v1/api/leads/create")).toHaveLength(1);
    expect(az.requests.filter((r) => r.status >= 400)).toEqual([]);
    expect(await sentRow(AUTO)).toMatchObject({
      externalId: first.externalId,
      sendCount: 2,
      sentByName: staff.manager.name,
    });
  });

  it("assigns the lead to the fallback user when the pull's owner is not mapped", async () => {
    const sent = await sendPullToAgencyzoom(database.db, config, staff.admin, EXAMPLE_ID);
    expect(sent.ok).toBe(true);
    expect([...az.leads.values()][0]?.assignTo).toBe(3002);
  });

  it("signs in again once when AgencyZoom says the token expired, and the send goes through", async () => {
    expect((await sendPullToAgencyzoom(database.db, config, staff.agent, AUTO)).ok).toBe(true);
    az.expireTokens();
    const again = await sendPullToAgencyzoom(database.db, config, staff.agent, AUTO);
    expect(again).toMatchObject({ ok: true, action: "updated" });
    expect(az.requests.filter((r) => r.path === "/v1/api/auth/login")).toHaveLength(2);
    expect(az.requests.filter((r) => r.status === 401)).toHaveLength(1);
  });

  it("fails plainly when AgencyZoom refuses the credentials", async () => {
    const refused = await sendPullToAgencyzoom(database.db, { ...config, password: "wrong" }, staff.agent, AUTO);
    expect(refused).toMatchObject({ ok: false, code: "UPSTREAM" });
    if (!refused.ok) expect(refused.message).toContain("AGENCYZOOM_PASSWORD");
    expect(az.leads.size).toBe(0);
    expect(await sentRow(AUTO)).toBeUndefined();
  });

  it("surfaces AgencyZoom's 400 with the field it names, and keeps nothing", async () => {
    await saveAgencyzoomSettings(database.db, staff.admin, { ...SETTINGS, pipelineId: 9999, userMap: [] });
    const refused = await sendPullToAgencyzoom(database.db, config, staff.agent, AUTO);
    expect(refused).toMatchObject({ ok: false, code: "REFUSED", field: "pipelineId" });
    expect(await sentRow(AUTO)).toBeUndefined();
    const failed = await database.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.pullId, AUTO), eq(auditEvents.action, "HANDOFF_FAILED")));
    expect(failed[0]?.details).toMatchObject({ code: "REFUSED", field: "pipelineId" });
  });

  it("refuses before calling AgencyZoom when the pull has no email or the settings lack a value", async () => {
    const noEmail = await sendPullToAgencyzoom(database.db, config, staff.admin, NO_EMAIL);
    expect(noEmail).toMatchObject({ ok: false, code: "REFUSED", field: "email" });
    await database.db.execute(sql`truncate agencyzoom_settings`);
    const noPipeline = await sendPullToAgencyzoom(database.db, config, staff.agent, AUTO);
    expect(noPipeline).toMatchObject({ ok: false, code: "REFUSED", field: "pipelineId" });
    expect(az.requests).toEqual([]);
  });

  it("creates a new lead, and says so, when the kept one is gone from AgencyZoom", async () => {
    const first = await sendPullToAgencyzoom(database.db, config, staff.agent, AUTO);
    az.leads.clear();
    const again = await sendPullToAgencyzoom(database.db, config, staff.agent, AUTO);
    expect(again).toMatchObject({ ok: true, action: "created", recreated: true });
    if (!first.ok || !again.ok) return;
    expect(again.externalId).not.toBe(first.externalId);
    expect((await sentRow(AUTO))?.externalId).toBe(again.externalId);
  });

  it("keeps every send on the audit trail and in the redisclosure log with its recipient and purpose", async () => {
    await sendPullToAgencyzoom(database.db, config, staff.agent, AUTO);
    await sendPullToAgencyzoom(database.db, config, staff.agent, AUTO);
    const audited = await database.db
      .select({ details: auditEvents.details, actorName: auditEvents.actorName })
      .from(auditEvents)
      .where(and(eq(auditEvents.pullId, AUTO), eq(auditEvents.action, "HANDOFF_SENT")));
    expect(audited.map((a) => (a.details as { action: string }).action)).toEqual(["created", "updated"]);
    expect(audited[0]?.details).toMatchObject({
      recipient: AGENCYZOOM_RECIPIENT,
      purpose: AGENCYZOOM_PURPOSE,
      drivers: 1,
      vehicles: 1,
    });
    const logged = await database.db.select().from(redisclosures);
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatchObject({
      pullIds: [AUTO],
      recipient: AGENCYZOOM_RECIPIENT,
      purpose: AGENCYZOOM_PURPOSE,
      channel: "hand-off",
      actorName: staff.agent.name,
    });
    expect(logged[0]?.dataKinds).toContain("driver data");
  });

  it("answers an agent who does not own the pull as if it did not exist, and calls nobody", async () => {
    const refused = await sendPullToAgencyzoom(database.db, config, staff.otherAgent, AUTO);
    expect(refused).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect(az.requests).toEqual([]);
  });

  it("is off when AgencyZoom is not configured", async () => {
    expect(await sendPullToAgencyzoom(database.db, null, staff.admin, AUTO)).toMatchObject({
      ok: false,
      code: "UNAVAILABLE",
    });
  });
});
