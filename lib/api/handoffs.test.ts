import { readFileSync } from "node:fs";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { auditEvents, handoffs, redisclosures } from "@/db/schema";
import type { AgencyzoomConfig } from "@/lib/env";
import { forgetAgencyzoomTokens } from "@/lib/handoff/agencyzoom-client";
import { saveAgencyzoomSettings } from "@/lib/handoff/agencyzoom-settings";
import { storePull } from "@/lib/ingest/store-pull";
import { DEMO_PASSWORD, DEMO_USERNAME } from "@/sandbox/agencyzoom/seed";
import { startAgencyZoomSandbox, type AgencyZoomSandbox } from "@/sandbox/agencyzoom/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { rawPullOf } from "@/test/review-pulls";
import { createStaff } from "@/test/workflow-fixture";
import { createApiKey } from "./keys";

// POST /api/v1/pulls/{pull_id}/handoffs through its route handler: a real database, the
// AgencyZoom stand-in over HTTP, and the API's keys, scopes and Idempotency-Key rules as PATCH
// pulls has them.

let database: TestDatabase;
let az: AgencyZoomSandbox;
let agencyzoom: AgencyzoomConfig | null = null;
vi.mock("@/lib/database", () => ({ getDb: async () => database.db }));
vi.mock("@/lib/env", async (original) => {
  const real = await original<typeof import("@/lib/env")>();
  return { ...real, env: () => ({ ...real.env(), agencyzoom }) };
});

const route = await import("@/app/api/v1/pulls/[pull_id]/handoffs/route");

const example = (
  JSON.parse(readFileSync("lib/service/fixtures/real/pulls/personal.json", "utf8")) as { pull: Record<string, unknown> }
).pull;
const PULL = example.pull_id as string;
const OTHER = "11111111-2222-4333-8444-00000000a301";
const MISSING = "11111111-2222-4333-8444-00000000a3ff";

let writer = "";
let reader = "";

const send = (key: string, pullId: string, body: unknown, idempotencyKey?: string) =>
  route.POST(
    new Request(`http://app/api/v1/pulls/${pullId}/handoffs`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
      },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    { params: Promise.resolve({ pull_id: pullId }) },
  );

type Answer = { target: string; external_id: string; url: string; action: string };
type ErrorBody = { error: { code: string; message: string; field?: string } };

beforeAll(async () => {
  database = await createTestDatabase();
  az = await startAgencyZoomSandbox({ port: 0 });
  const staff = await createStaff(database.db);
  await storePull(database.db, example);
  await storePull(
    database.db,
    rawPullOf([], { pull_id: OTHER, account_identifier: "acct_api_other", email: "o@example.com" }),
  );
  await saveAgencyzoomSettings(database.db, staff.admin, {
    pipelineId: 5001,
    stageId: 50011,
    leadSourceId: 7001,
    country: "US",
    fallbackAssigneeId: 3001,
    userMap: [],
  });
  const made = await createApiKey(database.db, { name: "AMS sync", scopes: ["handoffs:write"] });
  const read = await createApiKey(database.db, { name: "Reports", scopes: ["pulls:read"] });
  if (!made.ok || !read.ok) throw new Error("keys not made");
  writer = made.key;
  reader = read.key;
});
afterAll(async () => {
  await az?.close();
  await database?.close();
});
beforeEach(() => {
  agencyzoom = { baseUrl: az.url, username: DEMO_USERNAME, password: DEMO_PASSWORD, timeoutMs: 5000 };
  forgetAgencyzoomTokens();
});

describe("POST /api/v1/pulls/{pull_id}/handoffs", () => {
  it("sent twice with the same Idempotency-Key makes one lead and gives the same answer", async () => {
    az.leads.clear();
    const first = await send(writer, PULL, { target: "agencyzoom" }, "handoff-clark-1");
    expect(first.status).toBe(201);
    const created = (await first.json()) as Answer;
    expect(created).toMatchObject({ target: "agencyzoom", action: "created" });
    expect(created.url).toBe(`${az.url}/lead/index?id=${created.external_id}`);
    const second = await send(writer, PULL, { target: "agencyzoom" }, "handoff-clark-1");
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await second.json()).toEqual(created);
    expect(az.leads.size).toBe(1);
    expect(az.requests.filter((r) => r.status >= 400)).toEqual([]);

    // A new key is a new send: the kept lead is updated, not duplicated.
    const third = await send(writer, PULL, { target: "agencyzoom" }, "handoff-clark-2");
    expect(third.status).toBe(200);
    expect(await third.json()).toEqual({ ...created, action: "updated" });
    expect(az.leads.size).toBe(1);
    expect(await database.db.select().from(handoffs).where(eq(handoffs.pullId, PULL))).toMatchObject([
      { externalId: created.external_id, sendCount: 2, sentBy: null, sentByName: "API key: AMS sync" },
    ]);
  });

  it("refuses the same Idempotency-Key with another request (422), sending nothing", async () => {
    await send(writer, PULL, { target: "agencyzoom" }, "handoff-reuse");
    const before = az.leads.size;
    const answer = await send(writer, OTHER, { target: "agencyzoom" }, "handoff-reuse");
    expect(answer.status).toBe(422);
    expect(((await answer.json()) as ErrorBody).error).toMatchObject({
      code: "IDEMPOTENCY_MISMATCH",
      field: "Idempotency-Key",
    });
    expect(az.leads.size).toBe(before);
  });

  it("refuses a key without the handoffs:write scope (403) and an unknown target (400)", async () => {
    const forbidden = await send(reader, PULL, { target: "agencyzoom" });
    expect(forbidden.status).toBe(403);
    expect(((await forbidden.json()) as ErrorBody).error.code).toBe("FORBIDDEN");
    const unknown = await send(writer, PULL, { target: "salesforce" });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as ErrorBody).error).toMatchObject({ code: "INVALID", field: "target" });
    const missing = await send(writer, MISSING, { target: "agencyzoom" });
    expect(missing.status).toBe(404);
  });

  it("answers 422 naming the field when a value AgencyZoom requires is missing", async () => {
    const refused = await send(writer, OTHER, { target: "agencyzoom" });
    expect(refused.status).toBe(201);
    const noEmail = "11111111-2222-4333-8444-00000000a302";
    await storePull(database.db, rawPullOf([], { pull_id: noEmail, account_identifier: "acct_api_none" }));
    const answer = await send(writer, noEmail, { target: "agencyzoom" });
    expect(answer.status).toBe(422);
    expect(((await answer.json()) as ErrorBody).error).toMatchObject({ code: "TARGET_REFUSED", field: "email" });
  });

  it("answers 503 when AgencyZoom is not configured, and 502 (not kept for the key) when it fails", async () => {
    agencyzoom = null;
    const off = await send(writer, PULL, { target: "agencyzoom" });
    expect(off.status).toBe(503);
    expect(((await off.json()) as ErrorBody).error.code).toBe("TARGET_UNAVAILABLE");

    agencyzoom = { baseUrl: az.url, username: DEMO_USERNAME, password: "wrong", timeoutMs: 5000 };
    const failed = await send(writer, PULL, { target: "agencyzoom" }, "handoff-retry");
    expect(failed.status).toBe(502);
    expect(((await failed.json()) as ErrorBody).error.code).toBe("TARGET_FAILED");
    // The failure was not kept: the retry with the same key sends again, and succeeds.
    agencyzoom = { baseUrl: az.url, username: DEMO_USERNAME, password: DEMO_PASSWORD, timeoutMs: 5000 };
    const retried = await send(writer, PULL, { target: "agencyzoom" }, "handoff-retry");
    expect([200, 201]).toContain(retried.status);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
  });

  it("puts each send on the audit trail under the key's name, and in the redisclosure log", async () => {
    const sent = await database.db
      .select({ actorName: auditEvents.actorName })
      .from(auditEvents)
      .where(and(eq(auditEvents.pullId, PULL), eq(auditEvents.action, "HANDOFF_SENT")));
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.every((row) => row.actorName === "API key: AMS sync")).toBe(true);
    const logged = await database.db.select().from(redisclosures);
    expect(logged.some((r) => r.recipient === "AgencyZoom" && r.pullIds.includes(PULL))).toBe(true);
  });
});
