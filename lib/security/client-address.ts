import "server-only";
import { isIP } from "node:net";
import { env } from "@/lib/env";

// The visitor's address, for rate limits and for the record of sign-ins. Only entries that
// someone we trust wrote are believed: server.mjs (`npm start`) always appends the address of
// the peer that connected to X-Forwarded-For, so the rightmost entry is that peer, and each
// reverse proxy in front of us (TRUSTED_PROXY_HOPS of them) appended the address it saw to the
// left of it. Anything further left was sent by the client and could be anything. The value is
// only ever a key for counting and a note for people, never a permission.

export class ClientAddressError extends Error {
  constructor() {
    super(
      "The request carries no client address: start Coverdesk with `npm start` (server.mjs), which records the socket's address in X-Forwarded-For.",
    );
    this.name = "ClientAddressError";
  }
}

/** "::ffff:203.0.113.7" is an IPv4 peer on a dual-stack socket; "[2001:db8::1]:443" and "203.0.113.7:5000" carry a port. */
function normalise(entry: string): string | null {
  let value = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed?.[1]) value = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(":"));
  if (/^::ffff:\d{1,3}(\.\d{1,3}){3}$/i.test(value)) value = value.slice(7);
  return isIP(value) ? value.toLowerCase() : null;
}

/**
 * The client's address: the X-Forwarded-For entry `trustedHops` places from the right (fewer
 * entries than that: the leftmost, as far as the chain goes). An entry there that is not an
 * address is passed over for the nearest one to its right, which a closer, trusted hop wrote.
 * Throws when there is no address at all: every client sharing one bucket would let anyone
 * lock everyone out.
 */
export function clientAddressFrom(headers: Pick<Headers, "get">, trustedHops: number): string {
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  for (let index = Math.max(0, entries.length - 1 - trustedHops); index < entries.length; index++) {
    const address = normalise(entries[index] ?? "");
    if (address) return address;
  }
  throw new ClientAddressError();
}

/** The client's address under this deployment's TRUSTED_PROXY_HOPS. */
export function clientAddress(headers: Pick<Headers, "get">): string {
  return clientAddressFrom(headers, env().trustedProxyHops);
}

/**
 * What a rate limit counts: the address itself for IPv4, its /64 network for IPv6, since anyone
 * with one IPv6 address usually holds the 2^64 of its subnet and could rotate through them.
 */
export function addressBucket(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = "", tail = ""] = address.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === "" ? [] : tail.split(":");
  const groups = address.includes("::")
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => (group === "" ? "0" : group.replace(/^0+(?=.)/, "")))
    .join(":")}::/64`;
}
