import fc from "fast-check";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookEvents } from "@/db/schema";
import { MAX_WEBHOOK_BYTES, receiveWebhook } from "@/lib/ingest/receive-webhook";
import { DEFAULT_WEBHOOK_MAX_AGE_SECONDS } from "@/lib/env";
import { signPayload } from "@/lib/service/signature";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { INJECTIONS, ODD_UNICODE, fingerprint, hostileString } from "./hostile-input";

// The webhook endpoint, sent what a broken or hostile sender might: bad JSON, huge bodies,
// wrong types, injection strings, odd unicode. Every answer is a clear status (4xx for what
// can never be stored, 2xx for what was), never a crash or a 5xx that would make the service
// deliver the same poison forever; a refused body leaves every table as it was, an accepted
// one is stored exactly as sent.

const PULL_ID = "3f1e8c3a-6b1d-4c4e-9a55-2d8f1b7c9e01";
let database: TestDatabase;
let POST: (request: Request) => Promise<Response>;

beforeAll(async () => {
  database = await createTestDatabase();
  (globalThis as unknown as { __coverdeskDb?: { connection?: Promise<unknown> } }).__coverdeskDb = {
    connection: Promise.resolve(database),
  };
  ({ POST } = await import("@/app/api/webhooks/service/route"));
});
afterAll(async () => {
  await database?.close();
});

const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
  POST(
    new Request("http://app/api/webhooks/service", {
      method: "POST",
      body,
      headers: { "content-type": "application/json", ...headers },
      duplex: "half",
    } as RequestInit),
  );

/** Sends a body; refused ones must change nothing, accepted ones must be stored as sent. */
async function deliver(
  body: string,
  headers?: Record<string, string>,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const before = await fingerprint(database.db);
  const response = await post(body, headers);
  const json = (await response.json()) as Record<string, unknown>;
  expect([200, 202, 400, 401, 413]).toContain(response.status);
  if (response.status >= 400) {
    expect(typeof json.error).toBe("string");
    expect(typeof json.message).toBe("string");
    expect(await fingerprint(database.db)).toBe(before);
  } else {
    const [stored] = await database.db
      .select()
      .from(webhookEvents)
      .where(sql`${webhookEvents.dedupKey} = encode(sha256(convert_to(${body}, 'UTF8')), 'hex')`);
    expect(stored?.payload).toEqual(JSON.parse(body));
  }
  return { status: response.status, json };
}

describe("the webhook endpoint under hostile bodies", () => {
  it("refuses malformed JSON with 400", async () => {
    for (const body of [
      "",
      " ",
      "{",
      "}",
      "{'event_type':'COMPLETE'}",
      '{"event_type": "COMPLETE",}',
      "nul",
      "\u0000",
      '{"a":1}{"b":2}',
      "[".repeat(10_000),
      "\ud800",
      '{"event_type":"COMPLETE","pull_id":"' + PULL_ID + '"',
    ]) {
      expect((await deliver(body)).status, JSON.stringify(body.slice(0, 40))).toBe(400);
    }
  });

  it("refuses wrong shapes and types with 400", async () => {
    const shapes: unknown[] = [
      null,
      1,
      "COMPLETE",
      [],
      [{ event_type: "COMPLETE", pull_id: PULL_ID }],
      {},
      { event_type: "COMPLETE" },
      { pull_id: PULL_ID },
      { event_type: 1, pull_id: PULL_ID },
      { event_type: ["COMPLETE"], pull_id: PULL_ID },
      { event_type: { $ne: null }, pull_id: PULL_ID },
      { event_type: null, pull_id: PULL_ID },
      { event_type: "COMPLETE", pull_id: 42 },
      { event_type: "COMPLETE", pull_id: [PULL_ID] },
      { event_type: "COMPLETE", pull_id: `${PULL_ID}' OR '1'='1` },
      { event_type: "", pull_id: PULL_ID },
      { event_type: "   ", pull_id: PULL_ID },
      { event_type: "X".repeat(65), pull_id: PULL_ID },
    ];
    for (const shape of shapes) expect((await deliver(JSON.stringify(shape))).status, JSON.stringify(shape)).toBe(400);
  });

  it("refuses bodies over 1 MB with 413, whether or not their length is declared", async () => {
    const huge = JSON.stringify({ event_type: "COMPLETE", pull_id: PULL_ID, padding: "x".repeat(MAX_WEBHOOK_BYTES) });
    expect((await deliver(huge)).status).toBe(413);
    expect((await deliver(huge, { "content-length": String(Buffer.byteLength(huge)) })).status).toBe(413);
    expect((await deliver("{}", { "content-length": String(10 * MAX_WEBHOOK_BYTES) })).status).toBe(413);
    // Streamed in chunks with no length: cut off at the limit, not read to the end.
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 40; i++) controller.enqueue(new TextEncoder().encode("x".repeat(64 * 1024)));
        controller.close();
      },
    });
    expect((await post(chunks)).status).toBe(413);
  });

  it("stores injection strings and odd unicode as plain data, or refuses them with 400", async () => {
    for (const text of [...INJECTIONS, ...ODD_UNICODE]) {
      const inType = await deliver(JSON.stringify({ event_type: text.slice(0, 64) || "x", pull_id: PULL_ID }));
      expect([202, 400], JSON.stringify(text)).toContain(inType.status);
      const inPayload = await deliver(
        JSON.stringify({ event_type: "COMPLETE", pull_id: PULL_ID, note: text, [text || "empty"]: [text] }),
      );
      expect([202, 400], JSON.stringify(text)).toContain(inPayload.status);
    }
    // The tables are all still there and whole.
    const [count] = await database.db.select({ n: sql<number>`count(*)::int` }).from(webhookEvents);
    expect(count?.n).toBeGreaterThan(0);
  });

  it("answers any JSON value or string with a clear status", async () => {
    // Any UTF-16 unit in keys and strings: NUL and lone surrogates are valid JSON PostgreSQL cannot store.
    const oddJson = fc.jsonValue({
      stringUnit: fc.oneof(
        fc.constantFrom("\u0000", "\ud800", "\udc00", "'", "<", "é", "😀"),
        fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
      ),
      maxDepth: 3,
    });
    const anyJson = fc
      .oneof(
        fc.jsonValue(),
        oddJson,
        fc.record(
          {
            event_type: fc.oneof(
              fc.constantFrom("COMPLETE", "AUTH_STATUS"),
              hostileString.map((s) => s.slice(0, 70)),
              fc.jsonValue(),
            ),
            pull_id: fc.oneof(fc.uuid(), fc.uuid(), hostileString, fc.jsonValue()),
            data: oddJson,
          },
          { requiredKeys: [] },
        ),
      )
      .map((value) => JSON.stringify(value) ?? "null");
    const body = fc.oneof(
      anyJson,
      hostileString.map((s) => s.slice(0, 2_000)),
    );
    await fc.assert(
      fc.asyncProperty(body, async (text) => void (await deliver(text))),
      { numRuns: 300, seed: 20261123 },
    );
  });
});

describe("signed webhooks under hostile signatures", () => {
  const secret = "fuzz-webhook-secret";
  const body = JSON.stringify({ event_type: "COMPLETE", pull_id: PULL_ID, fuzz: "signed" });
  const now = 1_800_000_000;
  const STALE = DEFAULT_WEBHOOK_MAX_AGE_SECONDS + 1; // older than any retry of the service

  it("refuses every forged, malformed or stale signature with 401 and stores nothing", async () => {
    const headers = fc.oneof(
      hostileString,
      fc.constantFrom(
        `t=${now},s=${"0".repeat(64)}`,
        `t=${now - STALE},${signPayload(secret, body, now - STALE).split(",")[1]}`,
        signPayload(secret, body, now + 301),
        signPayload("wrong", body, now),
        `s=${"a".repeat(64)},t=${now}`,
        `t=${now},s=${"g".repeat(64)}`,
      ),
    );
    await fc.assert(
      fc.asyncProperty(headers, async (header) => {
        const before = await fingerprint(database.db);
        const result = await receiveWebhook(database.db, body, {
          webhookSecret: secret,
          signatureHeader: header,
          nowSeconds: now,
        });
        expect(result.status).toBe(401);
        expect(await fingerprint(database.db)).toBe(before);
      }),
      { numRuns: 200, seed: 20261124 },
    );
    expect(
      (
        await receiveWebhook(database.db, body, {
          webhookSecret: secret,
          signatureHeader: signPayload(secret, body, now),
          nowSeconds: now,
        })
      ).status,
    ).toBe(202);
  });
});
