import { lookup as dnsLookup } from "node:dns/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import {
  addressKind,
  DownloadBlockedError,
  fetchDownload,
  serviceDownloadPolicy,
  type DownloadPolicy,
  type Lookup,
} from "./download-guard";

// Relayed documents follow the service's redirects only to allowed hosts on public addresses,
// checked on every hop before it is requested. Real HTTP servers on 127.0.0.1 play the
// service's file host (allowed to be loopback, as the development sandbox is) and an internal
// service on this machine that must never be reached.

type Stub = { server: Server; origin: string; hits: string[] };

async function stub(
  handler: (path: string, origin: string) => { status: number; location?: string; body?: string },
): Promise<Stub> {
  const hits: string[] = [];
  const result: Stub = { server: createServer(), origin: "", hits };
  result.server.on("request", (request, response) => {
    const path = request.url ?? "/";
    hits.push(path);
    const answer = handler(path, result.origin);
    response.writeHead(answer.status, {
      ...(answer.location ? { location: answer.location } : {}),
      "content-type": "application/pdf",
    });
    response.end(answer.body ?? "");
  });
  await new Promise<void>((resolve) => result.server.listen(0, "127.0.0.1", resolve));
  result.origin = `http://127.0.0.1:${(result.server.address() as AddressInfo).port}`;
  return result;
}

let files: Stub;
let internal: Stub;

/** Names the tests resolve themselves (a public host, a private one, one that resolves to both); localhost by the system. */
const lookup: Lookup = async (hostname) => {
  const table: Record<string, string[]> = {
    "cdn.files.test": ["93.184.216.34"],
    "intranet.files.test": ["10.0.0.12"],
    "rebind.files.test": ["93.184.216.34", "127.0.0.1"],
    "v6.files.test": ["2606:2800:220:1:248:1893:25c8:1946", "fd00::7"],
  };
  if (hostname === "localhost") return dnsLookup(hostname, { all: true, verbatim: true });
  const addresses = table[hostname];
  if (!addresses) throw new Error("ENOTFOUND");
  return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

const policy = (): DownloadPolicy => ({
  // The file host stands for the local sandbox as configured service: loopback is allowed on its
  // port, and nowhere else on this machine, whatever name reaches it.
  allowedHosts: ["127.0.0.1", "localhost", "*.files.test", "169.254.169.254", "[::ffff:7f00:1]"],
  localService: { port: new URL(files.origin).port },
  maxRedirects: 3,
  lookup,
});

const blocked = async (address: string) => {
  const error = await fetchDownload(address, policy()).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DownloadBlockedError);
  return (error as Error).message;
};

beforeAll(async () => {
  internal = await stub(() => ({ status: 200, body: "internal secrets" }));
  const internalPort = new URL(internal.origin).port;
  files = await stub((path, origin) => {
    if (path === "/file.pdf") return { status: 200, body: "%PDF-1.4 the document" };
    const hop = /^\/hop\/(\d+)$/.exec(path);
    if (hop) {
      const left = Number(hop[1]);
      return { status: 302, location: left > 1 ? `/hop/${left - 1}` : `${origin}/file.pdf` };
    }
    const targets: Record<string, string> = {
      "/to-elsewhere": "https://attacker.example.net/collect",
      "/to-metadata": "http://169.254.169.254/latest/meta-data/iam",
      "/to-localhost": `http://localhost:${internalPort}/admin`,
      "/to-mapped": `http://[::ffff:127.0.0.1]:${internalPort}/admin`,
      "/to-intranet": "http://intranet.files.test/admin",
      "/to-rebind": "http://rebind.files.test/admin",
      "/to-file-scheme": "file:///etc/passwd",
    };
    const location = targets[path];
    return location ? { status: 307, location } : { status: 404 };
  });
});
afterAll(async () => {
  await Promise.all([files, internal].map((s) => s && new Promise((resolve) => s.server.close(resolve))));
});
beforeEach(() => {
  files.hits.length = 0;
  internal.hits.length = 0;
});

describe("following a download's redirects", () => {
  it("fetches the file through several allowed hops", async () => {
    const response = await fetchDownload(`${files.origin}/hop/3`, policy());
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("%PDF-1.4 the document");
    expect(files.hits).toEqual(["/hop/3", "/hop/2", "/hop/1", "/file.pdf"]);
  });

  it("stops after the hop limit", async () => {
    expect(await blocked(`${files.origin}/hop/4`)).toMatch(/more than 3 redirects/);
    expect(files.hits).not.toContain("/file.pdf");
  });

  it("refuses a redirect to a host that is not on the list", async () => {
    expect(await blocked(`${files.origin}/to-elsewhere`)).toMatch(
      /attacker\.example\.net is not on the download allow-list/,
    );
  });

  it("refuses a redirect to a link-local, private or loopback address, even on an allowed host, before asking it", async () => {
    expect(await blocked(`${files.origin}/to-metadata`)).toMatch(/link-local/);
    expect(await blocked(`${files.origin}/to-intranet`)).toMatch(/private/);
    expect(await blocked(`${files.origin}/to-rebind`)).toMatch(/loopback/);
    expect(await blocked(`${files.origin}/to-localhost`)).toMatch(/localhost resolves to a loopback address/); // another port of this machine
    expect(await blocked(`${files.origin}/to-mapped`)).toMatch(/loopback/);
    expect(await blocked(`${files.origin}/to-file-scheme`)).toMatch(/scheme file:/);
    expect(internal.hits).toEqual([]);
  });

  it("checks the first address too, not only redirects", async () => {
    expect(await blocked(`http://localhost:${new URL(internal.origin).port}/admin`)).toMatch(/loopback/);
    expect(await blocked("http://v6.files.test/file.pdf")).toMatch(/private/);
    expect(await blocked("http://unknown.files.test/file.pdf")).toMatch(/does not resolve/);
    expect(internal.hits).toEqual([]);
  });
});

describe("which addresses are not public", () => {
  it("names loopback, private, link-local and reserved IPv4 and IPv6 addresses, mapped ones included", () => {
    const cases: Record<string, string | null> = {
      "127.0.0.1": "loopback",
      "127.8.9.10": "loopback",
      "10.1.2.3": "private",
      "172.16.0.1": "private",
      "172.31.255.255": "private",
      "192.168.1.1": "private",
      "100.64.0.1": "private",
      "169.254.169.254": "link-local",
      "0.0.0.0": "unspecified",
      "224.0.0.1": "multicast",
      "255.255.255.255": "reserved",
      "::1": "loopback",
      "::": "unspecified",
      "fe80::1": "link-local",
      "fd12:3456::1": "private",
      "fc00::1": "private",
      "ff02::1": "multicast",
      "::ffff:127.0.0.1": "loopback",
      "::ffff:7f00:1": "loopback",
      "::ffff:10.0.0.1": "private",
      "::ffff:a9fe:a9fe": "link-local",
      "64:ff9b::a9fe:a9fe": "link-local",
      "2002:c0a8:0101::1": "private",
      "::127.0.0.1": "loopback",
      "fe80::1%eth0": "link-local",
      "93.184.216.34": null,
      "172.32.0.1": null,
      "8.8.8.8": null,
      "2606:4700::1111": null,
      "::ffff:8.8.8.8": null,
      "not-an-address": "reserved",
    };
    for (const [address, kind] of Object.entries(cases)) expect(addressKind(address), address).toBe(kind);
  });
});

describe("SERVICE_DOWNLOAD_HOSTS", () => {
  it("defaults to the service's own host, which may be loopback only when it is this machine", () => {
    const sandbox = parseEnv({ NODE_ENV: "development" });
    expect(serviceDownloadPolicy(sandbox.service)).toEqual({
      allowedHosts: ["localhost", "127.0.0.1", "::1"],
      localService: { port: "4010" },
    });
    const real = parseEnv({
      NODE_ENV: "development",
      SERVICE_BASE_URL: "https://api.service.example/api/v1.0.0",
      SERVICE_TEAM_ID: "t",
      SERVICE_CLIENT_ID: "c",
      SERVICE_CLIENT_SECRET: "s",
    });
    expect(serviceDownloadPolicy(real.service)).toEqual({ allowedHosts: ["api.service.example"], localService: null });
  });

  it("reads a comma-separated list and refuses anything that is not a host", () => {
    const configured = parseEnv({
      NODE_ENV: "development",
      SERVICE_DOWNLOAD_HOSTS: " API.service.example, *.files.example ,[::1]",
    });
    expect(configured.service.downloadHosts).toEqual(["api.service.example", "*.files.example", "[::1]"]);
    expect(() => parseEnv({ NODE_ENV: "development", SERVICE_DOWNLOAD_HOSTS: "https://files.example/x" })).toThrow(
      /SERVICE_DOWNLOAD_HOSTS/,
    );
  });
});
