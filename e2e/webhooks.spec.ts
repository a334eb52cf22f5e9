import { expect, test } from "@playwright/test";
import { signPayload } from "../lib/service/signature";

const SECRET = "coverdesk-e2e-webhook-secret"; // the one playwright.config.ts gives the app
const signed = (body: string) => ({
  "content-type": "application/json",
  "canopy-signature": signPayload(SECRET, body, Math.floor(Date.now() / 1000)),
});

// The receiver is public (the service calls it), so it must refuse bad input clearly.
test.describe("webhook receiver", () => {
  test("malformed JSON with a valid signature gets 400 and a clear message", async ({ request }) => {
    const body = "{not json";
    // A Buffer goes out byte for byte; Playwright would JSON-encode a string that does not parse.
    const response = await request.post("/api/webhooks/service", { data: Buffer.from(body), headers: signed(body) });
    expect(response.status()).toBe(400);
    expect(await response.json()).toEqual({ error: "INVALID_JSON", message: "The body is not valid JSON." });
  });

  test("a signed event without a pull id gets 400 naming the field", async ({ request }) => {
    const body = JSON.stringify({ event_type: "COMPLETE" });
    const response = await request.post("/api/webhooks/service", { data: Buffer.from(body), headers: signed(body) });
    expect(response.status()).toBe(400);
    expect((await response.json()).message).toContain("pull_id");
  });

  test("an unsigned event is refused when a webhook secret is configured", async ({ request }) => {
    const response = await request.post("/api/webhooks/service", {
      data: { event_type: "COMPLETE", pull_id: "00000000-0000-4000-8000-000000000000" },
    });
    expect(response.status()).toBe(401);
    expect(await response.json()).toMatchObject({ error: "INVALID_SIGNATURE" });
  });

  test("a body over 1 MB gets 413", async ({ request }) => {
    const response = await request.post("/api/webhooks/service", {
      data: JSON.stringify({ event_type: "COMPLETE", padding: "x".repeat(1_100_000) }),
      headers: { "content-type": "application/json" },
    });
    expect(response.status()).toBe(413);
  });
});
