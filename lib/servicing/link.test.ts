import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { proxy } from "@/proxy";
import { referrerPolicyFor } from "@/lib/security/headers";
import { reconnectPageKey, reconnectPageToken } from "@/lib/monitoring/reconnect-page-token";
import {
  newServicingRequestId,
  readServicingPageToken,
  servicingLinkKey,
  servicingPageToken,
  servicingPageUrl,
} from "./link";
import { jwtExpiresAt } from "./request";

// The consumer's confirm link: its token, and the way to its page without a session.

const secrets = { sessionSecret: "servicing-link-test-secret-0123456789", linkSecret: null };
const key = servicingLinkKey(secrets);

describe("servicing page links", () => {
  it("reads back only tokens signed under its own key", () => {
    const id = newServicingRequestId();
    const token = servicingPageToken(key, id);
    expect(readServicingPageToken(key, token)).toBe(id);
    expect(readServicingPageToken(key, `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`)).toBeNull();
    expect(readServicingPageToken(servicingLinkKey({ ...secrets, linkSecret: "another" }), token)).toBeNull();
    // A reconnect page's token for the same id, under the same secrets, is no servicing token.
    expect(readServicingPageToken(key, reconnectPageToken(reconnectPageKey(secrets), id))).toBeNull();
    expect(readServicingPageToken(key, `${id}.`)).toBeNull();
    expect(servicingPageUrl("https://agency.example", key, id)).toBe(`https://agency.example/servicing/${token}`);
  });

  it("opens without a session and passes no referrer", async () => {
    const response = await proxy(new NextRequest("http://localhost:3000/servicing/abc.def"));
    expect(response.headers.get("x-middleware-next")).toBe("1");
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(referrerPolicyFor("/servicing/abc.def")).toBe("no-referrer");
    expect(referrerPolicyFor("/servicings")).toBe("strict-origin-when-cross-origin");
  });

  it("reads when the service's session ends from its JWT", () => {
    const payload = Buffer.from(JSON.stringify({ pull_id: "p", exp: 1_800_000_000 })).toString("base64url");
    expect(jwtExpiresAt(`h.${payload}.s`)?.toISOString()).toBe("2027-01-15T08:00:00.000Z");
    expect(jwtExpiresAt("not-a-jwt")).toBeNull();
    expect(jwtExpiresAt("h.bm90IGpzb24.s")).toBeNull();
  });
});
