import { describe, expect, it } from "vitest";
import { MAX_CLOCK_SKEW_SECONDS, signPayload, verifySignature } from "./signature";

const secret = "whsec_test";
const body = JSON.stringify({ event_type: "COMPLETE", pull_id: "p1" });
const now = 1_800_000_000;
const maxAgeSeconds = 8 * 3600;
const check = (header: string | null, overrides: Partial<Parameters<typeof verifySignature>[0]> = {}) =>
  verifySignature({ secrets: [secret], header, rawBody: body, nowSeconds: now, maxAgeSeconds, ...overrides });

describe("webhook signature", () => {
  it("accepts a fresh signature made with the shared secret", () => {
    expect(check(signPayload(secret, body, now - 10))).toEqual({ ok: true });
  });

  it("accepts the last retry of a delivery signed at its first attempt, 7.2 hours earlier", () => {
    // The service waits 60 + n⁴ s before retry n, ten times: 25,933 s from first to last.
    const retrySchedule = Array.from({ length: 10 }, (_, i) => 60 + (i + 1) ** 4).reduce((a, b) => a + b, 0);
    expect(retrySchedule).toBe(25_933);
    expect(check(signPayload(secret, body, now - retrySchedule))).toEqual({ ok: true });
  });

  it("refuses a signature older than the configured age, or from further in the future than clock skew explains", () => {
    expect(check(signPayload(secret, body, now - maxAgeSeconds - 1))).toEqual({ ok: false, reason: "stale" });
    expect(check(signPayload(secret, body, now - 301), { maxAgeSeconds: 300 })).toEqual({ ok: false, reason: "stale" });
    expect(check(signPayload(secret, body, now + MAX_CLOCK_SKEW_SECONDS))).toEqual({ ok: true });
    expect(check(signPayload(secret, body, now + MAX_CLOCK_SKEW_SECONDS + 1))).toEqual({ ok: false, reason: "stale" });
  });

  it("rejects a missing, malformed, tampered or wrongly keyed signature", () => {
    const header = signPayload(secret, body, now);
    expect(check(null)).toEqual({ ok: false, reason: "missing" });
    expect(check("t=abc,s=zz")).toEqual({ ok: false, reason: "malformed" });
    expect(check(header, { rawBody: body.replace("p1", "p2") })).toEqual({ ok: false, reason: "mismatch" });
    expect(check(header, { secrets: ["other"] })).toEqual({ ok: false, reason: "mismatch" });
    expect(check(header, { secrets: [] })).toEqual({ ok: false, reason: "mismatch" });
  });

  it("accepts a signature made with any of the registrations' secrets", () => {
    const header = signPayload("whsec_dashboard", body, now);
    expect(check(header, { secrets: [secret, "whsec_dashboard"] })).toEqual({ ok: true });
    expect(check(header, { secrets: [secret, "whsec_other"] })).toEqual({ ok: false, reason: "mismatch" });
  });
});
