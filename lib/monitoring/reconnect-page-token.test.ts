import { describe, expect, it } from "vitest";
import { newReconnectPageId, readReconnectPageToken, reconnectPageToken } from "./reconnect-page-token";

// A reconnect page's address opens its page only when we signed it.

const SECRET = "a-secret-of-the-app-0123456789abcdef";

describe("reconnect page tokens", () => {
  it("reads back the id of a token it signed", () => {
    const id = newReconnectPageId();
    expect(readReconnectPageToken(SECRET, reconnectPageToken(SECRET, id))).toBe(id);
  });

  it("refuses a token signed under another secret, a changed id or mac, and junk", () => {
    const id = newReconnectPageId();
    const token = reconnectPageToken(SECRET, id);
    const [, mac] = token.split(".");
    expect(readReconnectPageToken("another-secret-entirely-0123456789", token)).toBeNull();
    expect(readReconnectPageToken(SECRET, `${newReconnectPageId()}.${mac}`)).toBeNull();
    expect(readReconnectPageToken(SECRET, `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`)).toBeNull();
    for (const junk of ["", id, `${id}.`, `${token}.x`, "<script>alert(1)</script>", "' or 1=1 --", "x".repeat(10_000)]) expect(readReconnectPageToken(SECRET, junk)).toBeNull();
  });

  it("makes a different id every time", () => {
    const ids = new Set(Array.from({ length: 1_000 }, newReconnectPageId));
    expect(ids.size).toBe(1_000);
  });
});
