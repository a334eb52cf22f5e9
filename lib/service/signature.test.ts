import { describe, expect, it } from "vitest";
import { signPayload, verifySignature } from "./signature";

const secret = "whsec_test";
const body = JSON.stringify({ event_type: "COMPLETE", pull_id: "p1" });
const now = 1_800_000_000;

describe("webhook signature", () => {
  it("accepts a fresh signature made with the shared secret", () => {
    const header = signPayload(secret, body, now - 10);
    expect(verifySignature({ secret, header, rawBody: body, nowSeconds: now })).toEqual({ ok: true });
  });

  it("rejects a missing, malformed, stale, tampered or wrongly keyed signature", () => {
    const header = signPayload(secret, body, now);
    expect(verifySignature({ secret, header: null, rawBody: body, nowSeconds: now })).toEqual({ ok: false, reason: "missing" });
    expect(verifySignature({ secret, header: "t=abc,s=zz", rawBody: body, nowSeconds: now })).toEqual({ ok: false, reason: "malformed" });
    expect(verifySignature({ secret, header: signPayload(secret, body, now - 301), rawBody: body, nowSeconds: now })).toEqual({ ok: false, reason: "stale" });
    expect(verifySignature({ secret, header, rawBody: body.replace("p1", "p2"), nowSeconds: now })).toEqual({ ok: false, reason: "mismatch" });
    expect(verifySignature({ secret: "other", header, rawBody: body, nowSeconds: now })).toEqual({ ok: false, reason: "mismatch" });
  });
});
