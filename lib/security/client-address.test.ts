import { describe, expect, it } from "vitest";
import { addressBucket, ClientAddressError, clientAddressFrom } from "./client-address";

// server.mjs appends the socket's address to X-Forwarded-For, so the rightmost entry is always
// the peer that connected; whatever a client sends itself sits to the left of it.
const forwarded = (value: string) => new Headers({ "x-forwarded-for": value });

describe("the client's address, with no proxy in front (TRUSTED_PROXY_HOPS=0)", () => {
  it("is the socket's address, whatever the client claims to the left of it", () => {
    expect(clientAddressFrom(forwarded("198.51.100.77"), 0)).toBe("198.51.100.77");
    expect(clientAddressFrom(forwarded("203.0.113.1, 198.51.100.77"), 0)).toBe("198.51.100.77");
    expect(clientAddressFrom(forwarded("1.1.1.1, 2.2.2.2, 3.3.3.3, 198.51.100.77"), 0)).toBe("198.51.100.77");
  });

  it("does not change when a client rotates the header it sends", () => {
    const seen = new Set(
      Array.from({ length: 50 }, (_, i) => clientAddressFrom(forwarded(`10.0.${i}.1, 198.51.100.77`), 0)),
    );
    expect([...seen]).toEqual(["198.51.100.77"]);
  });

  it("reads IPv4 on a dual-stack socket, and IPv6", () => {
    expect(clientAddressFrom(forwarded("::ffff:198.51.100.77"), 0)).toBe("198.51.100.77");
    expect(clientAddressFrom(forwarded("2001:DB8::1"), 0)).toBe("2001:db8::1");
  });

  it("never falls back to one shared bucket: no address at all is an error, not 'unknown'", () => {
    expect(() => clientAddressFrom(new Headers(), 0)).toThrow(ClientAddressError);
    expect(() => clientAddressFrom(forwarded("'; drop table users; --"), 0)).toThrow(ClientAddressError);
    // X-Real-IP is whatever the client says: not read.
    expect(() => clientAddressFrom(new Headers({ "x-real-ip": "203.0.113.5" }), 0)).toThrow(ClientAddressError);
  });
});

describe("behind trusted reverse proxies (TRUSTED_PROXY_HOPS=n)", () => {
  it("believes the entry n places from the right: what the outermost trusted proxy saw", () => {
    // client-sent junk, the client as our proxy saw it, our proxy as server.mjs saw it
    expect(clientAddressFrom(forwarded("6.6.6.6, 203.0.113.9, 10.0.0.2"), 1)).toBe("203.0.113.9");
    expect(clientAddressFrom(forwarded("6.6.6.6, 203.0.113.9, 10.0.0.3, 10.0.0.2"), 2)).toBe("203.0.113.9");
    expect(clientAddressFrom(forwarded("203.0.113.9:51234, 10.0.0.2"), 1)).toBe("203.0.113.9");
    expect(clientAddressFrom(forwarded("[2001:db8::9]:443, 10.0.0.2"), 1)).toBe("2001:db8::9");
  });

  it("takes the leftmost entry when the chain is shorter than configured (a request that bypassed the proxy)", () => {
    expect(clientAddressFrom(forwarded("198.51.100.77"), 1)).toBe("198.51.100.77");
    expect(clientAddressFrom(forwarded("203.0.113.9, 10.0.0.2"), 3)).toBe("203.0.113.9");
  });

  it("passes over an entry that is not an address for the nearest trusted one to its right", () => {
    expect(clientAddressFrom(forwarded("unknown, 10.0.0.2"), 1)).toBe("10.0.0.2");
  });
});

describe("the bucket an address is counted in", () => {
  it("is the address for IPv4 and the /64 network for IPv6, however it is written", () => {
    expect(addressBucket("198.51.100.77")).toBe("198.51.100.77");
    expect(addressBucket("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:db8:1:2::9")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:0db8:0001:0002::1")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressBucket("::1")).toBe("0:0:0:0::/64");
  });
});
