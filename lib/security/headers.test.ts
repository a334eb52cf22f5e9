import { describe, expect, it } from "vitest";
import {
  API_POLICY,
  commonSecurityHeaders,
  createNonce,
  DOWNLOAD_POLICY,
  pagePolicy,
  referrerPolicyFor,
  routePolicy,
} from "./headers";

describe("security headers", () => {
  it("sends no referrer from the reconnect pages, whose address carries a token", () => {
    expect(referrerPolicyFor("/connect/abc.def")).toBe("no-referrer");
    expect(referrerPolicyFor("/api/connect/abc/answer")).toBe("no-referrer");
    expect(referrerPolicyFor("/pulls")).toBe("strict-origin-when-cross-origin");
    expect(referrerPolicyFor("/connectors")).toBe("strict-origin-when-cross-origin");
  });

  it("lets the browser's PDF and image viewers draw relayed documents, and nothing else", () => {
    expect(routePolicy("/api/pulls/6a1f2e3d-4c5b-4a69-8788-99aabbccddee/documents/d1")).toBe(DOWNLOAD_POLICY);
    expect(routePolicy("/api/pulls/p/answers/a/files/f")).toBe(DOWNLOAD_POLICY);
    expect(routePolicy("/api/pulls/p/policy-forms/f")).toBe(DOWNLOAD_POLICY);
    expect(DOWNLOAD_POLICY).toContain("frame-ancestors 'none'");
    for (const other of [
      "/api/pulls/csv",
      "/api/pulls/p/version",
      "/api/pulls/p/documents/d/extra",
      "/api/connect/t/status",
      "/api/pulls/p/documents",
    ])
      expect(routePolicy(other)).toBe(API_POLICY);
  });

  it("sends HSTS in production only", () => {
    expect(commonSecurityHeaders({ pathname: "/", production: true })["Strict-Transport-Security"]).toMatch(
      /^max-age=\d{8}/,
    );
    expect(commonSecurityHeaders({ pathname: "/", production: false })).not.toHaveProperty("Strict-Transport-Security");
  });

  it("lets scripts run only with the nonce, never eval in production, and forbids framing", () => {
    const policy = pagePolicy("abc123", { production: true, https: true });
    expect(policy).toContain("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(policy).not.toContain("unsafe-eval");
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("upgrade-insecure-requests");
    expect(pagePolicy("abc123", { production: true, https: false })).not.toContain("upgrade-insecure-requests");
  });

  it("makes a fresh, unguessable nonce each time", () => {
    const nonces = new Set(Array.from({ length: 100 }, createNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});
