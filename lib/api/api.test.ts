import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { apiIdempotency, apiKeys, auditEvents, pulls, redisclosures } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import { generatePulls } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { deleteExpiredIdempotencyRecords, requestHash } from "./idempotency";
import { createApiKey, revokeApiKey } from "./keys";
import { API_ROUTES, buildOpenApiDocument } from "./openapi";

// The public API end to end through its route handlers, against a real database: keys and
// scopes, paging, the changes through the pages' commands, errors, idempotency, the rate limit,
// and the OpenAPI document (linted with Redocly's recommended rules).

let database: TestDatabase;
vi.mock("@/lib/database", () => ({ getDb: async () => database.db }));

const listRoute = await import("@/app/api/v1/pulls/route");
const pullRoute = await import("@/app/api/v1/pulls/[pull_id]/route");
const openapiRoute = await import("@/app/api/v1/openapi.json/route");
const exportRoute = await import("@/app/api/v1/pulls/[pull_id]/exports/[format]/route");

let ids: string[];
let readWrite = "";
let readOnly = "";

async function keyOf(name: string, scopes: string[], rateLimitPerMinute?: number): Promise<string> {
  const made = await createApiKey(database.db, { name, scopes, ...(rateLimitPerMinute ? { rateLimitPerMinute } : {}) });
  if (!made.ok) throw new Error(made.message);
  return made.key;
}

const headers = (key: string | null, extra: Record<string, string> = {}) => ({
  ...(key ? { authorization: `Bearer ${key}` } : {}),
  ...extra,
});

const list = (key: string | null, query = "") =>
  listRoute.GET(new Request(`http://app/api/v1/pulls${query}`, { headers: headers(key) }));
const getPull = (key: string | null, pullId: string) =>
  pullRoute.GET(new Request(`http://app/api/v1/pulls/${pullId}`, { headers: headers(key) }), {
    params: Promise.resolve({ pull_id: pullId }),
  });
const patchPull = (key: string, pullId: string, body: unknown, extra: Record<string, string> = {}) =>
  pullRoute.PATCH(
    new Request(`http://app/api/v1/pulls/${pullId}`, {
      method: "PATCH",
      headers: headers(key, { "content-type": "application/json", ...extra }),
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    { params: Promise.resolve({ pull_id: pullId }) },
  );

type ErrorBody = { error: { code: string; message: string; field?: string } };
type PullBody = {
  pull_id: string;
  agency: {
    stage: string;
    won_premium_cents: number | null;
    assignee_email: string | null;
    lost_reason: string | null;
    lost_category: string | null;
  };
};
type ListBody = { data: Array<{ pull_id: string; updated_at: string; stage: string }>; next_cursor: string | null };

const auditOf = (pullId: string, action: string) =>
  database.db
    .select({ actorName: auditEvents.actorName, details: auditEvents.details })
    .from(auditEvents)
    .where(and(eq(auditEvents.pullId, pullId), eq(auditEvents.action, action)));

beforeAll(async () => {
  database = await createTestDatabase();
  await createStaff(database.db);
  const seeded = generatePulls(35, 12, new Date()).filter((p) => !p.parent_pull_id && p.type !== "SERVICING");
  for (const pull of seeded) await storePull(database.db, pull);
  const listed = await database.db
    .select({ pullId: pulls.pullId })
    .from(pulls)
    .where(sql`${pulls.listed}`);
  ids = listed.map((row) => row.pullId);
  readWrite = await keyOf("Zapier", ["pulls:read", "pulls:write"]);
  readOnly = await keyOf("Reports", ["pulls:read"]);
});
afterAll(async () => {
  await database?.close();
});

describe("API keys", () => {
  it("refuses a call without a key, with a malformed or unknown key, and with a revoked one (401)", async () => {
    for (const key of [null, "nonsense", `${readWrite.slice(0, -4)}AAAA`]) {
      const answer = await list(key);
      expect(answer.status).toBe(401);
      expect(((await answer.json()) as ErrorBody).error.code).toBe("UNAUTHORIZED");
      expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
    const doomed = await createApiKey(database.db, { name: "Old", scopes: ["pulls:read"] });
    if (!doomed.ok) throw new Error("not made");
    expect((await list(doomed.key)).status).toBe(200);
    expect(await revokeApiKey(database.db, { id: doomed.id })).toMatchObject({ ok: true, name: "Old" });
    expect((await list(doomed.key)).status).toBe(401);
  });

  it("refuses a route whose scope the key lacks (403), changing nothing", async () => {
    const pullId = ids[0] ?? "";
    const answer = await patchPull(readOnly, pullId, { stage: "LOST" });
    expect(answer.status).toBe(403);
    expect(((await answer.json()) as ErrorBody).error).toMatchObject({ code: "FORBIDDEN" });
    expect(
      (await database.db.select({ stage: pulls.stage }).from(pulls).where(eq(pulls.pullId, pullId)))[0]?.stage,
    ).toBe("WORKING");
  });

  it("refuses a key without a name or with an unknown scope, naming the field", async () => {
    expect(await createApiKey(database.db, { name: " ", scopes: ["pulls:read"] })).toMatchObject({
      ok: false,
      field: "name",
    });
    expect(await createApiKey(database.db, { name: "X", scopes: ["pulls:delete"] })).toMatchObject({
      ok: false,
      field: "scopes",
    });
    expect(await createApiKey(database.db, { name: "X", scopes: [] })).toMatchObject({ ok: false, field: "scopes" });
  });

  it("answers 429 with Retry-After once a key passes its calls a minute", async () => {
    const key = await keyOf("Busy", ["pulls:read"], 3);
    for (let i = 0; i < 3; i++) expect((await list(key, "?limit=1")).status).toBe(200);
    const refused = await list(key, "?limit=1");
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as ErrorBody).error.code).toBe("RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another key is not slowed by this one.
    expect((await list(readOnly, "?limit=1")).status).toBe(200);
  });
});

describe("GET /api/v1/pulls", () => {
  it("pages the whole book with a cursor, each pull once, and audits each call under the key's name", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const answer = await list(readOnly, `?limit=5${cursor ? `&cursor=${cursor}` : ""}`);
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as ListBody;
      expect(body.data.length).toBeLessThanOrEqual(5);
      seen.push(...body.data.map((pull) => pull.pull_id));
      cursor = body.next_cursor;
      pages++;
    } while (cursor && pages < 20);
    expect(seen.sort()).toEqual([...ids].sort());
    expect(pages).toBe(Math.ceil(ids.length / 5));
    const calls = await database.db
      .select({ actorName: auditEvents.actorName, details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.action, "API_CALLED"));
    expect(
      calls.some(
        (call) =>
          call.actorName === "API key: Reports" && (call.details as { route?: string }).route === "GET /api/v1/pulls",
      ),
    ).toBe(true);
  });

  it("lists only the pulls changed at or after updated_since", async () => {
    const old = ids.slice(0, ids.length - 2);
    await database.db.execute(sql`update pulls set updated_at = '2020-01-01T00:00:00Z' where pull_id in ${old}`);
    const answer = await list(readOnly, `?updated_since=${encodeURIComponent("2024-01-01T00:00:00Z")}`);
    const body = (await answer.json()) as ListBody;
    expect(body.data.map((pull) => pull.pull_id).sort()).toEqual(ids.slice(-2).sort());
    expect(body.next_cursor).toBeNull();
  });

  it("refuses a bad limit, cursor or updated_since, naming the parameter", async () => {
    for (const [query, field] of [
      ["?limit=0", "limit"],
      ["?limit=101", "limit"],
      ["?limit=ten", "limit"],
      ["?cursor=abc", "cursor"],
      ["?updated_since=yesterday", "updated_since"],
    ] as const) {
      const answer = await list(readOnly, query);
      expect(answer.status, query).toBe(400);
      expect(((await answer.json()) as ErrorBody).error, query).toMatchObject({ code: "INVALID", field });
    }
  });
});

describe("GET /api/v1/pulls/{pull_id}", () => {
  it("answers the household, its policies, vehicles, dwellings and drivers, and audits the read", async () => {
    const pullId = ids[1] ?? "";
    const answer = await getPull(readOnly, pullId);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as PullBody & Record<string, unknown>;
    expect(body).toMatchObject({ pull_id: pullId, agency: { stage: "WORKING", assignee_email: null } });
    for (const part of ["household", "policies", "vehicles", "dwellings", "drivers"]) expect(body).toHaveProperty(part);
    expect((body.policies as unknown[]).length).toBeGreaterThan(0);
    expect(await auditOf(pullId, "API_CALLED")).toEqual([
      expect.objectContaining({ actorName: "API key: Reports", details: expect.objectContaining({ status: 200 }) }),
    ]);
  });

  it("answers 404 for an unknown pull and for an id that is no UUID", async () => {
    for (const pullId of ["00000000-0000-4000-8000-000000000000", "not-a-pull"]) {
      const answer = await getPull(readOnly, pullId);
      expect(answer.status).toBe(404);
      expect(((await answer.json()) as ErrorBody).error.code).toBe("NOT_FOUND");
    }
  });
});

describe("GET /api/v1/pulls/{pull_id}/exports/{format}", () => {
  const exportPull = (key: string, pullId: string, format: string) =>
    exportRoute.GET(new Request(`http://app/api/v1/pulls/${pullId}/exports/${format}`, { headers: headers(key) }), {
      params: Promise.resolve({ pull_id: pullId, format }),
    });

  it("answers the EZLynx file the pull page offers, audited and on the DPPA redisclosure log", async () => {
    const withAuto = (
      await database.db
        .select({ pullId: pulls.pullId, types: pulls.policyTypes })
        .from(pulls)
        .where(sql`${pulls.listed}`)
    ).find((row) => row.types.includes("AUTO"));
    if (!withAuto) throw new Error("the book has no auto policy");
    const answer = await exportPull(readOnly, withAuto.pullId, "ezlynx-auto");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(answer.headers.get("content-disposition")).toMatch(/^attachment; filename="EZLynx auto .*\.xml"$/);
    expect(await answer.text()).toMatch(/^<\?xml[^>]*\?>\s*<EZAUTO/);
    const [disclosed] = await database.db
      .select()
      .from(redisclosures)
      .where(sql`${withAuto.pullId} = any(${redisclosures.pullIds})`);
    expect(disclosed).toMatchObject({ recipient: "EZLynx import", channel: "hand-off", actorName: "API key: Reports" });
    expect(await auditOf(withAuto.pullId, "API_CALLED")).toContainEqual(
      expect.objectContaining({ details: expect.objectContaining({ status: 200, format: "ezlynx-auto" }) }),
    );
  });

  it("answers 404 for an unknown format or pull, in the API's error shape", async () => {
    for (const [pullId, format] of [
      [ids[0] ?? "", "acord-xml"],
      ["00000000-0000-4000-8000-000000000000", "ezlynx-auto"],
    ] as const) {
      const answer = await exportPull(readOnly, pullId, format);
      expect(answer.status).toBe(404);
      expect(((await answer.json()) as ErrorBody).error.code).toBe("NOT_FOUND");
    }
  });
});

describe("PATCH /api/v1/pulls/{pull_id}", () => {
  it("moves a pull to WON with its premium through the stage command: audited under the key, visible in the list", async () => {
    const pullId = ids[2] ?? "";
    const since = new Date().toISOString();
    const answer = await patchPull(readWrite, pullId, { stage: "WON", premium_cents: 123456 });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as PullBody).agency).toMatchObject({ stage: "WON", won_premium_cents: 123456 });
    expect(await auditOf(pullId, "STAGE_CHANGED")).toEqual([
      expect.objectContaining({
        actorName: "API key: Zapier",
        details: expect.objectContaining({ from: "WORKING", to: "WON", wonPremiumCents: 123456, creditedTo: null }),
      }),
    ]);
    const changed = (await (await list(readOnly, `?updated_since=${encodeURIComponent(since)}`)).json()) as ListBody;
    expect(changed.data).toEqual([expect.objectContaining({ pull_id: pullId, stage: "WON" })]);
  });

  it("marks a pull LOST with why", async () => {
    const pullId = ids[3] ?? "";
    const answer = await patchPull(readWrite, pullId, {
      stage: "LOST",
      lost_reason: "Went with a cheaper quote",
      lost_category: "PRICE",
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as PullBody).agency).toMatchObject({
      stage: "LOST",
      lost_reason: "Went with a cheaper quote",
      lost_category: "PRICE",
    });
  });

  it("assigns a pull by the user's email, and puts it back in the queue with null", async () => {
    const pullId = ids[4] ?? "";
    const assigned = await patchPull(readWrite, pullId, { assignee_email: "AGENT@agency.test" });
    expect(assigned.status).toBe(200);
    expect(((await assigned.json()) as PullBody).agency.assignee_email).toBe("agent@agency.test");
    expect(await auditOf(pullId, "PULL_ASSIGNED")).toEqual([expect.objectContaining({ actorName: "API key: Zapier" })]);
    const unassigned = await patchPull(readWrite, pullId, { assignee_email: null });
    expect(((await unassigned.json()) as PullBody).agency.assignee_email).toBeNull();
  });

  it("refuses bad input naming the field, and changes nothing", async () => {
    const pullId = ids[5] ?? "";
    for (const [body, field] of [
      [{ stage: "WON" }, "premium_cents"],
      [{ stage: "WON", premium_cents: -5 }, "premium_cents"],
      [{ stage: "WON", premium_cents: 12.5 }, "premium_cents"],
      [{ stage: "DONE" }, "stage"],
      [{ stage: "WORKING", lost_reason: "x" }, "lost_reason"],
      [{ stage: "LOST", lost_category: "BORED" }, "lost_category"],
      [{ stage: "LOST", colour: "red" }, "colour"],
      [{}, "stage"],
      [{ assignee_email: "nobody@agency.test" }, "assignee_email"],
      [{ assignee_email: "not an email" }, "assignee_email"],
      ["{not json", "body"],
    ] as const) {
      const answer = await patchPull(readWrite, pullId, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(((await answer.json()) as ErrorBody).error, JSON.stringify(body)).toMatchObject({
        code: "INVALID",
        field,
      });
    }
    expect(
      (
        await database.db
          .select({ stage: pulls.stage, assigneeId: pulls.assigneeId })
          .from(pulls)
          .where(eq(pulls.pullId, pullId))
      )[0],
    ).toEqual({
      stage: "WORKING",
      assigneeId: null,
    });
  });

  it("replays the first answer to a retry with the same Idempotency-Key, and refuses the key with another body (422)", async () => {
    const pullId = ids[6] ?? "";
    const retry = { "idempotency-key": "win-6-once" };
    const first = await patchPull(readWrite, pullId, { stage: "WON", premium_cents: 50000 }, retry);
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const firstBody = await first.json();
    const again = await patchPull(readWrite, pullId, { stage: "WON", premium_cents: 50000 }, retry);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(firstBody);
    expect(await auditOf(pullId, "STAGE_CHANGED")).toHaveLength(1);
    // The replay is a call of its own on the trail, about the same pull.
    expect(await auditOf(pullId, "API_CALLED")).toContainEqual(
      expect.objectContaining({ details: expect.objectContaining({ replayed: true, status: 200 }) }),
    );
    const other = await patchPull(readWrite, pullId, { stage: "WON", premium_cents: 99900 }, retry);
    expect(other.status).toBe(422);
    expect(((await other.json()) as ErrorBody).error).toMatchObject({
      code: "IDEMPOTENCY_MISMATCH",
      field: "Idempotency-Key",
    });
    // Another key's same Idempotency-Key is its own.
    const mine = await keyOf("Make", ["pulls:write"]);
    expect((await patchPull(mine, pullId, { stage: "WON", premium_cents: 99900 }, retry)).status).toBe(200);
  });

  it("keeps answers 24 hours: an older one is removed by the cleanup and the key may be used again", async () => {
    const pullId = ids[7] ?? "";
    const retry = { "idempotency-key": "assign-7" };
    expect((await patchPull(readWrite, pullId, { assignee_email: "agent@agency.test" }, retry)).status).toBe(200);
    await database.db
      .update(apiIdempotency)
      .set({ createdAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(apiIdempotency.idempotencyKey, "assign-7"));
    expect(await deleteExpiredIdempotencyRecords(database.db)).toBeGreaterThanOrEqual(1);
    const fresh = await patchPull(readWrite, pullId, { assignee_email: null }, retry);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("idempotent-replayed")).toBeNull();
  });

  it("answers 409 to a copy sent while the first is still running, and lets a dead first request go", async () => {
    const pullId = ids[9] ?? "";
    const body = { stage: "LOST", lost_category: "SERVICE" };
    const [key] = await database.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.name, "Zapier"));
    const path = `/api/v1/pulls/${pullId}`;
    // The first copy has claimed the key and not answered yet.
    await database.db.insert(apiIdempotency).values({
      keyId: key?.id ?? "",
      idempotencyKey: "racing",
      requestHash: requestHash("PATCH", path, JSON.stringify(body)),
    });
    const second = await patchPull(readWrite, pullId, body, { "idempotency-key": "racing" });
    expect(second.status).toBe(409);
    expect(((await second.json()) as ErrorBody).error).toMatchObject({ code: "CONFLICT", field: "Idempotency-Key" });
    expect(
      (await database.db.select({ stage: pulls.stage }).from(pulls).where(eq(pulls.pullId, pullId)))[0]?.stage,
    ).toBe("WORKING");
    // A first copy that never answered (its process stopped) stops holding the key after a minute.
    await database.db
      .update(apiIdempotency)
      .set({ createdAt: new Date(Date.now() - 5 * 60_000) })
      .where(eq(apiIdempotency.idempotencyKey, "racing"));
    expect((await patchPull(readWrite, pullId, body, { "idempotency-key": "racing" })).status).toBe(200);
  });

  it("refuses a malformed Idempotency-Key, naming the header", async () => {
    const answer = await patchPull(
      readWrite,
      ids[8] ?? "",
      { stage: "WORKING" },
      { "idempotency-key": "x".repeat(300) },
    );
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as ErrorBody).error.field).toBe("Idempotency-Key");
  });
});

describe("GET /api/v1/openapi.json", () => {
  it("is served without a key and lints clean under Redocly's recommended rules", async () => {
    const answer = openapiRoute.GET(new Request("http://app/api/v1/openapi.json"));
    expect(answer.status).toBe(200);
    const document = await answer.json();
    expect(document.openapi).toBe("3.1.0");
    const problems = await lintFromString({
      source: JSON.stringify(document),
      absoluteRef: "http://app/api/v1/openapi.json",
      config: await createConfig({ extends: ["recommended"] }),
    });
    const errors = problems.filter((problem) => problem.severity === "error");
    expect(errors.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    // The one warning accepted: GET /api/v1/openapi.json has no 4XX answer because it never
    // refuses (no key, no input). Any other warning fails here until it is fixed or listed.
    const warnings = problems
      .filter((problem) => problem.severity !== "error")
      .map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer ?? "?"}`);
    expect(warnings).toEqual(["operation-4xx-response at #/paths/~1api~1v1~1openapi.json/get/responses"]);
  });

  it("lists every route of app/api/v1 with its method", () => {
    const document = buildOpenApiDocument();
    const documented = Object.entries(document.paths ?? {}).flatMap(([route, item]) =>
      Object.keys(item ?? {})
        .filter((method) => ["get", "post", "patch", "put", "delete"].includes(method))
        .map((method) => `${method.toUpperCase()} ${route}`),
    );
    expect(documented.sort()).toEqual([...API_ROUTES].sort());
    const root = path.join(process.cwd(), "app/api/v1");
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((entry) => {
        const full = path.join(dir, entry);
        return statSync(full).isDirectory() ? files(full) : entry === "route.ts" ? [full] : [];
      });
    const routes = files(root).map((file) =>
      `/api/v1/${path.relative(root, path.dirname(file))}`.replace(/\[(\w+)\]/g, "{$1}"),
    );
    expect([...new Set(API_ROUTES.map((route) => route.split(" ")[1]))].sort()).toEqual(routes.sort());
  });
});
