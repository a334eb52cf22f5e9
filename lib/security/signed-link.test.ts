import { createHmac, hkdfSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  newReconnectPageId,
  readReconnectPageToken,
  reconnectPageKey,
  reconnectPageToken,
} from "@/lib/monitoring/reconnect-page-token";
import { readServicingPageToken, servicingLinkKey, servicingPageToken } from "@/lib/servicing/link";

// Links to the pages Coverdesk hosts for consumers: a reconnect link sent before the two kinds
// shared one implementation still opens its page (the same key and MAC, spelled out here), and
// one kind's token never opens the other's page.

const secrets = { sessionSecret: "a-session-secret-of-enough-length", linkSecret: null };

describe("signed links", () => {
  it("keeps the reconnect links already sent working", () => {
    const id = newReconnectPageId();
    const key = hkdfSync("sha256", secrets.sessionSecret, "", "coverdesk reconnect-page links v1", 32);
    const before = `${id}.${createHmac("sha256", Buffer.from(key)).update(`coverdesk-reconnect-page:${id}`).digest("base64url")}`;
    expect(reconnectPageToken(reconnectPageKey(secrets), id)).toBe(before);
    expect(readReconnectPageToken(reconnectPageKey(secrets), before)).toBe(id);
  });

  it("opens no page with another kind's token, another key, or a changed one", () => {
    const id = newReconnectPageId();
    const reconnect = reconnectPageToken(reconnectPageKey(secrets), id);
    const servicing = servicingPageToken(servicingLinkKey(secrets), id);
    expect(servicing).not.toBe(reconnect);
    expect(readServicingPageToken(servicingLinkKey(secrets), reconnect)).toBeNull();
    expect(readReconnectPageToken(reconnectPageKey(secrets), servicing)).toBeNull();
    const rotated = { ...secrets, linkSecret: "a-new-link-secret-of-enough-length" };
    expect(readReconnectPageToken(reconnectPageKey(rotated), reconnect)).toBeNull();
    const tampered = `${reconnect.slice(0, -1)}${reconnect.endsWith("A") ? "B" : "A"}`;
    expect(readReconnectPageToken(reconnectPageKey(secrets), tampered)).toBeNull();
    for (const bad of ["", "x.y", `${id}.`, `${id}.${"A".repeat(44)}`, `${reconnect}\u0000`])
      expect(readReconnectPageToken(reconnectPageKey(secrets), bad)).toBeNull();
  });
});
