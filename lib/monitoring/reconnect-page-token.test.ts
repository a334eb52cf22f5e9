import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { configuredReconnectPageKey } from "./reconnect-page-key";
import {
  newReconnectPageId,
  readReconnectPageToken,
  reconnectPageKey,
  reconnectPageToken,
  type ReconnectPageKey,
} from "./reconnect-page-token";

// A reconnect page's address opens its page only when we signed it, under a key of its own:
// never the session secret itself, so the two can be rotated apart.

const SESSION_SECRET = "a-secret-of-the-app-0123456789abcdef";
const KEY = reconnectPageKey({ sessionSecret: SESSION_SECRET, linkSecret: null });

describe("reconnect page tokens", () => {
  it("reads back the id of a token it signed", () => {
    const id = newReconnectPageId();
    expect(readReconnectPageToken(KEY, reconnectPageToken(KEY, id))).toBe(id);
  });

  it("refuses a token signed under another key, a changed id or mac, and junk", () => {
    const id = newReconnectPageId();
    const token = reconnectPageToken(KEY, id);
    const [, mac] = token.split(".");
    expect(
      readReconnectPageToken(
        reconnectPageKey({ sessionSecret: "another-secret-entirely-0123456789", linkSecret: null }),
        token,
      ),
    ).toBeNull();
    expect(readReconnectPageToken(KEY, `${newReconnectPageId()}.${mac}`)).toBeNull();
    expect(readReconnectPageToken(KEY, `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`)).toBeNull();
    for (const junk of ["", id, `${id}.`, `${token}.x`, "<script>alert(1)</script>", "' or 1=1 --", "x".repeat(10_000)])
      expect(readReconnectPageToken(KEY, junk)).toBeNull();
  });

  it("makes a different id every time", () => {
    const ids = new Set(Array.from({ length: 1_000 }, newReconnectPageId));
    expect(ids.size).toBe(1_000);
  });
});

describe("the reconnect page key", () => {
  it("is not the session secret: a token signed with the raw session secret is refused, and ours does not verify under it", () => {
    const id = newReconnectPageId();
    const rawKey = Buffer.from(SESSION_SECRET) as ReconnectPageKey;
    const underSessionSecret = `${id}.${createHmac("sha256", SESSION_SECRET).update(`coverdesk-reconnect-page:${id}`).digest("base64url")}`;
    expect(readReconnectPageToken(KEY, underSessionSecret)).toBeNull();
    expect(readReconnectPageToken(rawKey, reconnectPageToken(KEY, id))).toBeNull();
    expect(KEY.equals(Buffer.from(SESSION_SECRET))).toBe(false);
  });

  it("is derived deterministically: the same secrets give the same key, and links survive a restart", () => {
    const again = reconnectPageKey({ sessionSecret: SESSION_SECRET, linkSecret: null });
    expect(again.equals(KEY)).toBe(true);
    expect(KEY).toHaveLength(32);
    const id = newReconnectPageId();
    expect(readReconnectPageToken(again, reconnectPageToken(KEY, id))).toBe(id);
  });

  it("follows COVERDESK_LINK_SECRET when set, so the session secret can be rotated apart from the links", () => {
    const base = { NODE_ENV: "development", NEXTAUTH_SECRET: SESSION_SECRET };
    const derived = configuredReconnectPageKey(parseEnv(base));
    expect(derived.equals(KEY)).toBe(true);
    // The session secret changes; the link secret keeps the old value: every link still opens.
    const rotatedSession = configuredReconnectPageKey(
      parseEnv({
        ...base,
        NEXTAUTH_SECRET: "a-brand-new-session-secret-9876543210",
        COVERDESK_LINK_SECRET: SESSION_SECRET,
      }),
    );
    expect(rotatedSession.equals(KEY)).toBe(true);
    // The link secret changes: the links are retired, whatever the session secret.
    const rotatedLinks = configuredReconnectPageKey(
      parseEnv({ ...base, COVERDESK_LINK_SECRET: "a-fresh-link-secret-0123456789abcdef" }),
    );
    expect(rotatedLinks.equals(KEY)).toBe(false);
    expect(
      rotatedLinks.equals(
        configuredReconnectPageKey(
          parseEnv({ ...base, COVERDESK_LINK_SECRET: "a-fresh-link-secret-0123456789abcdef" }),
        ),
      ),
    ).toBe(true);
  });
});
