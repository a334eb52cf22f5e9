import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createServer as createTlsServer, type Server as TlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TLSSocket } from "node:tls";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { PRODUCTION_ENV } from "@/test/production-env";
import {
  addressKind,
  checkDownloadUrl,
  DownloadBlockedError,
  fetchDownload,
  serviceDownloadPolicy,
  type DownloadPolicy,
  type Lookup,
} from "./download-guard";

// Relayed documents come from whatever host the service's signed link names, so every hop is
// checked before it is requested: https on public addresses in production; http and this
// machine's loopback too in development and test (the sandbox's storage server). The request
// then connects to the address that was checked, never asking DNS again. Real HTTP and TLS
// servers on 127.0.0.1 play the storage host; names the tests resolve themselves play the rest.

type Stub = { server: Server; origin: string; port: number; hits: string[] };

async function stub(
  handler: (path: string, origin: string) => { status: number; location?: string; body?: string },
): Promise<Stub> {
  const hits: string[] = [];
  const result: Stub = { server: createServer(), origin: "", port: 0, hits };
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
  result.port = (result.server.address() as AddressInfo).port;
  result.origin = `http://127.0.0.1:${result.port}`;
  return result;
}

let files: Stub;

/** Names the tests resolve themselves: public, private, and one public name that also resolves to loopback. */
const TABLE: Record<string, string[]> = {
  "cdn.files.test": ["93.184.216.34"],
  "intranet.files.test": ["10.0.0.12"],
  "metadata.files.test": ["169.254.169.254"],
  "rebind.files.test": ["93.184.216.34", "127.0.0.1"],
  "v6.files.test": ["2606:2800:220:1:248:1893:25c8:1946", "fd00::7"],
  "storage.files.test": ["127.0.0.1"],
  "other.files.test": ["127.0.0.1"],
};
const lookup: Lookup = async (hostname) => {
  const addresses = TABLE[hostname];
  if (!addresses) throw new Error("ENOTFOUND");
  return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

/** Development and test, as lib/env.ts gives them: loopback and http allowed. */
const local = (extra: Partial<DownloadPolicy> = {}): DownloadPolicy => ({
  ...serviceDownloadPolicy(parseEnv({ NODE_ENV: "test" })),
  maxRedirects: 3,
  lookup,
  ...extra,
});
/** Production, as lib/env.ts gives it, with no SERVICE_DOWNLOAD_HOSTS. */
const production = (): DownloadPolicy => ({ ...serviceDownloadPolicy(parseEnv(PRODUCTION_ENV)), lookup });

const refusal = async (address: string, policy: DownloadPolicy) => {
  const error = await fetchDownload(address, policy).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DownloadBlockedError);
  return (error as Error).message;
};

beforeAll(async () => {
  files = await stub((path, origin) => {
    if (path === "/file.pdf") return { status: 200, body: "%PDF-1.4 the document" };
    const hop = /^\/hop\/(\d+)$/.exec(path);
    if (hop) {
      const left = Number(hop[1]);
      return { status: 302, location: left > 1 ? `/hop/${left - 1}` : `${origin}/file.pdf` };
    }
    const targets: Record<string, string> = {
      "/to-cdn": "https://cdn.files.test/file.pdf",
      "/to-metadata": "http://169.254.169.254/latest/meta-data/iam",
      "/to-metadata-name": "http://metadata.files.test/latest/meta-data/iam",
      "/to-intranet": "http://intranet.files.test/admin",
      "/to-mapped-private": "http://[::ffff:10.0.0.1]/admin",
      "/to-file-scheme": "file:///etc/passwd",
    };
    const location = targets[path];
    return location ? { status: 307, location } : { status: 404 };
  });
});
afterAll(async () => {
  await new Promise((resolve) => files?.server.close(resolve));
});
beforeEach(() => {
  files.hits.length = 0;
});

describe("which hosts a download may come from, with no setting", () => {
  it("in production: any https host on public addresses, and nothing else", async () => {
    expect(await checkDownloadUrl(new URL("https://cdn.files.test/signed?sig=x"), production())).toEqual([
      { address: "93.184.216.34", family: 4 },
    ]);
    expect(await refusal(`${files.origin}/file.pdf`, production())).toMatch(/plain http is not downloaded/);
    expect(await refusal(`https://127.0.0.1:${files.port}/file.pdf`, production())).toMatch(/loopback/);
    expect(await refusal("https://localhost/file.pdf", { ...production(), lookup: undefined })).toMatch(/loopback/);
    expect(await refusal("https://intranet.files.test/file.pdf", production())).toMatch(/private/);
    expect(await refusal("https://metadata.files.test/file.pdf", production())).toMatch(/link-local/);
    expect(await refusal("https://rebind.files.test/file.pdf", production())).toMatch(/loopback/);
    expect(await refusal("https://v6.files.test/file.pdf", production())).toMatch(/private/);
    expect(await refusal("https://unknown.files.test/file.pdf", production())).toMatch(/does not resolve/);
    expect(files.hits).toEqual([]);
  });

  it("in development and test: this machine's storage server over http too, on any port", async () => {
    const response = await fetchDownload(`http://localhost:${files.port}/file.pdf`, { ...local(), lookup: undefined });
    expect(await response.text()).toBe("%PDF-1.4 the document");
    expect(await refusal("http://intranet.files.test/admin", local())).toMatch(/private/);
  });

  it("SERVICE_DOWNLOAD_HOSTS narrows the hosts when it is set", async () => {
    const narrowed = { ...production(), allowedHosts: ["*.storage.example"] };
    expect(await refusal("https://cdn.files.test/file.pdf", narrowed)).toMatch(
      /cdn\.files\.test is not on the download allow-list/,
    );
  });
});

describe("following a download's redirects", () => {
  it("fetches the file through several hops", async () => {
    const response = await fetchDownload(`${files.origin}/hop/3`, local());
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("%PDF-1.4 the document");
    expect(files.hits).toEqual(["/hop/3", "/hop/2", "/hop/1", "/file.pdf"]);
  });

  it("stops after the hop limit", async () => {
    expect(await refusal(`${files.origin}/hop/4`, local())).toMatch(/more than 3 redirects/);
    expect(files.hits).not.toContain("/file.pdf");
  });

  it("checks every hop before asking it: link-local, private and non-http addresses are refused", async () => {
    expect(await refusal(`${files.origin}/to-metadata`, local())).toMatch(/link-local/);
    expect(await refusal(`${files.origin}/to-metadata-name`, local())).toMatch(/link-local/);
    expect(await refusal(`${files.origin}/to-intranet`, local())).toMatch(/private/);
    expect(await refusal(`${files.origin}/to-mapped-private`, local())).toMatch(/private/);
    expect(await refusal(`${files.origin}/to-file-scheme`, local())).toMatch(/scheme file:/);
    expect(await refusal(`${files.origin}/to-cdn`, { ...local(), allowedHosts: ["127.0.0.1"] })).toMatch(
      /not on the download allow-list/,
    );
  });
});

describe("the address that was checked is the address connected to", () => {
  it("resolves a host once per hop and connects there, whatever DNS would answer next", async () => {
    const asked: string[] = [];
    // The first answer is the storage server; any later one would be an address with nothing on this port.
    const rebinding: Lookup = async (hostname) => {
      asked.push(hostname);
      return [{ address: asked.length === 1 ? "127.0.0.1" : "::1", family: asked.length === 1 ? 4 : 6 }];
    };
    const response = await fetchDownload(`http://rebinding.files.test:${files.port}/file.pdf`, {
      ...local(),
      lookup: rebinding,
    });
    expect(await response.text()).toBe("%PDF-1.4 the document");
    expect(asked).toEqual(["rebinding.files.test"]);
    expect(files.hits).toEqual(["/file.pdf"]);
  });

  describe("over TLS", () => {
    let folder: string;
    let tls: TlsServer;
    let ca: string;
    const servernames: Array<string | false | null> = [];

    beforeAll(async () => {
      folder = mkdtempSync(path.join(tmpdir(), "download-guard-"));
      const [key, cert] = [path.join(folder, "key.pem"), path.join(folder, "cert.pem")];
      // A certificate for storage.files.test only, made here so no key is kept in the repository.
      execFileSync(
        "openssl",
        [
          ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
          ...["-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=storage.files.test"],
          ...["-addext", "subjectAltName=DNS:storage.files.test"],
        ],
        { stdio: "ignore" },
      );
      ca = readFileSync(cert, "utf8");
      tls = createTlsServer({ key: readFileSync(key), cert: ca }, (request, response) => {
        servernames.push((request.socket as TLSSocket).servername);
        response.writeHead(200, { "content-type": "application/pdf" }).end("%PDF-1.4 over TLS");
      });
      await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
    });
    afterAll(async () => {
      await new Promise((resolve) => tls?.close(resolve));
      rmSync(folder, { recursive: true, force: true });
    });

    it("sends the host's name for SNI and checks the certificate against it", async () => {
      const port = (tls.address() as AddressInfo).port;
      const response = await fetchDownload(`https://storage.files.test:${port}/signed`, local({ ca }));
      expect(await response.text()).toBe("%PDF-1.4 over TLS");
      expect(servernames).toEqual(["storage.files.test"]);
      // Another name on the same checked address: the certificate does not name it.
      await expect(fetchDownload(`https://other.files.test:${port}/signed`, local({ ca }))).rejects.toMatchObject({
        code: "ERR_TLS_CERT_ALTNAME_INVALID",
      });
      await expect(fetchDownload(`https://storage.files.test:${port}/signed`, local())).rejects.toThrow();
    });
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
  it("is unset by default: any host that passes the checks, this machine's only outside production", () => {
    expect(serviceDownloadPolicy(parseEnv({ NODE_ENV: "development" }))).toEqual({
      allowLocal: true,
      allowedHosts: null,
    });
    expect(serviceDownloadPolicy(parseEnv(PRODUCTION_ENV))).toEqual({ allowLocal: false, allowedHosts: null });
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
