import "server-only";
import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { Readable } from "node:stream";

// Documents relayed from the service are fetched from whatever address its answer names: a
// short-lived signed link on a storage host the service does not publish, which may redirect.
// Left to itself, fetch would follow a redirect anywhere, including this machine and the
// private network (a cloud metadata endpoint, an internal admin page), and relay the answer to
// the browser. So every hop is checked before it is requested: in production it must be https
// and every address its host resolves to must be public; in development and test http and
// this machine's loopback addresses are allowed too, since the sandbox's storage server runs
// here. The connection then goes to an address that was checked: the host is resolved once,
// and the request's own lookup answers with that result, so a second DNS answer (rebinding)
// cannot send it elsewhere. The host name still travels as Host, SNI and the name the
// certificate is checked against.

export type ResolvedAddress = { address: string; family: number };
export type Lookup = (hostname: string) => Promise<ResolvedAddress[]>;

export type DownloadPolicy = {
  /** Development and test: http and loopback addresses (the sandbox's storage server) are allowed. */
  allowLocal: boolean;
  /** SERVICE_DOWNLOAD_HOSTS: exact names (or IP literals), or "*.example.com" for its subdomains; null: any host. */
  allowedHosts: readonly string[] | null;
  /** Redirects followed at most. */
  maxRedirects?: number;
  /** DNS resolution; dns.lookup (every address) by default. */
  lookup?: Lookup;
  /** Certificates trusted besides the system's, for a test's own TLS server. */
  ca?: string;
};

export const DEFAULT_MAX_REDIRECTS = 5;

export class DownloadBlockedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DownloadBlockedError";
  }
}

const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** A URL's host as a bare name or address: lower-case, without IPv6 brackets or a trailing dot. */
export function hostOf(url: URL): string {
  return url.hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
}

/** Whether a host is on the list (exact, or a subdomain of a "*.domain" entry). */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) => {
    const pattern = entry.toLowerCase().replace(/^\[(.*)\]$/, "$1");
    return pattern.startsWith("*.")
      ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1
      : host === pattern;
  });
}

export type AddressKind = "loopback" | "private" | "link-local" | "unspecified" | "multicast" | "reserved";

function ipv4Kind(a: number, b: number, c: number): AddressKind | null {
  if (a === 127) return "loopback";
  if (a === 0) return "unspecified";
  if (a === 169 && b === 254) return "link-local";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "private";
  if (a === 100 && b >= 64 && b <= 127) return "private"; // carrier-grade NAT
  if (a === 198 && (b === 18 || b === 19)) return "private"; // benchmarking networks
  if (a >= 224) return a < 240 ? "multicast" : "reserved";
  if (
    (a === 192 && b === 0 && (c === 0 || c === 2)) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113)
  )
    return "reserved";
  return null;
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail included), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().replace(/%.*$/, "");
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const bytes = dotted[1].split(".").map(Number);
    if (bytes.length !== 4 || bytes.some((n) => n > 255)) return null;
    const [a = 0, b = 0, c = 0, d = 0] = bytes;
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string | undefined) => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  const groups =
    halves.length === 2 ? [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail] : head;
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** What kind of non-public address this is, or null for a public one. Unreadable counts as reserved. */
export function addressKind(address: string): AddressKind | null {
  const version = isIP(address.replace(/%.*$/, ""));
  if (version === 4) {
    const [a = 0, b = 0, c = 0] = address.split(".").map(Number);
    return ipv4Kind(a, b, c);
  }
  if (version !== 6) return "reserved";
  const g = ipv6Groups(address);
  if (!g) return "reserved";
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = (hi: number, lo: number) => ipv4Kind(hi >> 8, hi & 0xff, lo >> 8);
  if (g.every((x) => x === 0)) return "unspecified";
  if (g.slice(0, 7).every((x) => x === 0) && g7 === 1) return "loopback";
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): the IPv4 address decides.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && (g5 === 0xffff || g5 === 0))
    return embedded(g6, g7) ?? (g5 === 0 ? "reserved" : null);
  // NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::): an IPv4 address travels inside.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return embedded(g6, g7);
  if (g0 === 0x2002) return embedded(g1, g2);
  if ((g0 & 0xffc0) === 0xfe80) return "link-local";
  if ((g0 & 0xfe00) === 0xfc00 || (g0 & 0xffc0) === 0xfec0) return "private";
  if ((g0 & 0xff00) === 0xff00) return "multicast";
  return null;
}

/**
 * Refuses a URL that may not be downloaded; otherwise answers the addresses its host resolves
 * to, every one of them checked, which are the only ones the request may connect to.
 */
export async function checkDownloadUrl(url: URL, policy: DownloadPolicy): Promise<ResolvedAddress[]> {
  if (url.protocol !== "https:" && !(url.protocol === "http:" && policy.allowLocal))
    throw new DownloadBlockedError(
      url.protocol === "http:"
        ? "plain http is not downloaded in production"
        : `scheme ${url.protocol} is not downloaded`,
    );
  if (url.username || url.password) throw new DownloadBlockedError("addresses with credentials are not downloaded");
  const host = hostOf(url);
  if (policy.allowedHosts && !hostAllowed(host, policy.allowedHosts))
    throw new DownloadBlockedError(`host ${host} is not on the download allow-list (SERVICE_DOWNLOAD_HOSTS)`);
  let addresses: ResolvedAddress[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await (policy.lookup ?? systemLookup)(host);
    } catch {
      throw new DownloadBlockedError(`host ${host} does not resolve`);
    }
  }
  if (addresses.length === 0) throw new DownloadBlockedError(`host ${host} does not resolve`);
  for (const { address } of addresses) {
    const kind = addressKind(address);
    if (kind && !(kind === "loopback" && policy.allowLocal))
      throw new DownloadBlockedError(`host ${host} resolves to a ${kind} address`);
  }
  return addresses;
}

/** The request's DNS: answers the addresses already checked, never asking again. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const [first] = addresses;
    if (options.all) callback(null, addresses);
    else callback(null, first?.address ?? "", first?.family);
  };
}

const NULL_BODY_STATUSES = new Set([204, 205, 304]);

function toResponse(message: IncomingMessage): Response {
  const status = message.statusCode ?? 0;
  if (status < 200 || status > 599) {
    message.destroy();
    throw new Error(`the file host answered status ${status}`);
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
  }
  if (NULL_BODY_STATUSES.has(status)) {
    message.resume();
    return new Response(null, { status, headers });
  }
  return new Response(Readable.toWeb(message) as ReadableStream<Uint8Array>, { status, headers });
}

/** One GET without credentials, connected to one of `addresses`; the body streams as it arrives. */
function requestOnce(
  url: URL,
  addresses: ResolvedAddress[],
  policy: DownloadPolicy,
  signal: AbortSignal | undefined,
): Promise<Response> {
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: "GET",
        headers: { accept: "*/*" },
        // A connection of its own: a pooled one may have been opened for another check.
        agent: false,
        lookup: pinnedLookup(addresses),
        signal,
        ...(policy.ca ? { ca: policy.ca } : {}),
      },
      (message) => {
        try {
          resolve(toResponse(message));
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      },
    );
    // Every error, also one after the answer began (an abort mid-body): the body's stream reports it.
    request.on("error", reject);
    request.end();
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GETs a download, following redirects by hand so that every hop is checked first. Answers the
 * first response that is not a redirect; throws DownloadBlockedError for a refused hop (never
 * requested) or too many redirects. Network errors and aborts are thrown as they come; the
 * signal also ends a body still streaming.
 */
export async function fetchDownload(
  address: string,
  policy: DownloadPolicy,
  init: { signal?: AbortSignal } = {},
): Promise<Response> {
  const maxRedirects = policy.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new DownloadBlockedError("the download address is not a URL");
  }
  for (let redirects = 0; ; redirects++) {
    const addresses = await checkDownloadUrl(url, policy);
    const response = await requestOnce(url, addresses, policy, init.signal);
    const location = response.headers.get("location");
    if (!REDIRECTS.has(response.status) || location === null) return response;
    await response.body?.cancel();
    if (redirects >= maxRedirects) throw new DownloadBlockedError(`more than ${maxRedirects} redirects`);
    try {
      url = new URL(location, url);
    } catch {
      throw new DownloadBlockedError("a redirect names no URL");
    }
  }
}

/**
 * The policy for relayed files, from lib/env.ts: any host that passes the checks unless
 * SERVICE_DOWNLOAD_HOSTS narrows it (the real service's storage host is not published, so no
 * list written in advance could be the default); this machine and plain http only outside
 * production.
 */
export function serviceDownloadPolicy(config: {
  nodeEnv: "development" | "production" | "test";
  service: { downloadHosts: readonly string[] | null };
}): DownloadPolicy {
  return { allowLocal: config.nodeEnv !== "production", allowedHosts: config.service.downloadHosts };
}
