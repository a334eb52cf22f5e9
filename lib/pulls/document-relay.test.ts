import { createServer, type ServerResponse, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ServiceError } from "@/lib/service/errors";
import { ForeignDownloadUrlError } from "@/lib/service/downloads-api";
import type { DownloadPolicy } from "@/lib/security/download-guard";
import { MAX_DOWNLOAD_BYTES, relayDownload } from "./document-relay";

// The relay between the service's signed link and the browser, against a file host over real
// HTTP on this machine: headers, the size cap, and errors that answer 502 without naming the
// link or any credential.

const pdfBytes = "%PDF-1.4\n%%EOF\n";

/** What the file host answers on each path. */
const ROUTES: Record<string, (response: ServerResponse) => void> = {
  "/pdf": (response) =>
    response.writeHead(200, { "content-type": "application/pdf", "content-length": pdfBytes.length }).end(pdfBytes),
  "/gone": (response) => response.writeHead(403, { "content-type": "text/plain" }).end("gone"),
  "/huge": (response) =>
    response
      .writeHead(200, { "content-type": "application/pdf", "content-length": String(MAX_DOWNLOAD_BYTES + 1) })
      .end(),
  "/endless": (response) => {
    response.writeHead(200, { "content-type": "application/pdf" });
    const chunk = Buffer.alloc(1024 * 1024);
    const write = () => {
      while (!response.destroyed && response.write(chunk));
      if (!response.destroyed) response.once("drain", write);
    };
    write();
  },
  "/html": (response) => response.writeHead(200, { "content-type": "text/html" }).end("<script>alert(1)</script>"),
  "/to-intranet": (response) => response.writeHead(302, { location: "http://10.0.0.12/admin" }).end(),
};

let host: { server: Server; port: number; hits: string[] };
const SIGNATURE = "SECRET-SIGNATURE";
const signed = (path: string) => `http://127.0.0.1:${host.port}${path}?signature=${SIGNATURE}`;
/** Development's policy (this machine's storage server is allowed). */
const policy: DownloadPolicy = { allowLocal: true, allowedHosts: null };

beforeAll(async () => {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    hits.push(path);
    (ROUTES[path] ?? ((r: ServerResponse) => r.writeHead(404).end()))(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  host = { server, port: (server.address() as AddressInfo).port, hits };
});
afterAll(async () => {
  host.server.closeAllConnections();
  await new Promise((resolve) => host?.server.close(resolve));
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function relay(signedUrl: () => Promise<string>) {
  return relayDownload({
    signedUrl,
    title: `Declarations <b>2026</b>`,
    fallbackName: "document",
    label: "test",
    policy,
  });
}

describe("relayDownload", () => {
  it("streams the file with its type, inline, under a safe name", async () => {
    const response = await relay(async () => signed("/pdf"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe('inline; filename="Declarations 2026.pdf"');
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(new TextDecoder().decode(await response.arrayBuffer())).toBe(pdfBytes);
  });

  it("answers 502 when the service refuses, without the link or the error's detail", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await relay(async () => {
      throw new ServiceError({
        status: 500,
        code: "INTERNAL_ERROR",
        message: "GET /pulls/x/documents/y: 500",
        retryable: true,
      });
    });
    expect(response.status).toBe(502);
    const body = (await response.json()) as { error: string; message: string };
    expect(body.error).toBe("SERVICE_ERROR");
    expect(JSON.stringify(body)).not.toMatch(/SECRET|INTERNAL_ERROR|\/pulls\//);
  });

  it("answers 502 naming the refusal when the file's download_url is not on the service", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await relay(async () => {
      throw new ForeignDownloadUrlError("https://collector.example.net");
    });
    expect(response.status).toBe(502);
    expect(((await response.json()) as { message: string }).message).toMatch(/outside the service/);
    expect(log.mock.calls.join(" ")).toContain("collector.example.net");
  });

  it("answers 502 when the signed link fails, leads to a private address, or the file is over the cap", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect((await relay(async () => signed("/gone"))).status).toBe(502);
    const intranet = await relay(async () => signed("/to-intranet"));
    expect(intranet.status).toBe(502);
    expect(((await intranet.json()) as { message: string }).message).toMatch(/does not download from/);
    const tooLarge = await relay(async () => signed("/huge"));
    expect(tooLarge.status).toBe(502);
    expect(JSON.stringify(await tooLarge.json())).not.toContain(SIGNATURE);
  });

  it("cuts a stream that goes past the cap even without a declared length", async () => {
    const response = await relay(async () => signed("/endless"));
    expect(response.status).toBe(200);
    await expect(response.arrayBuffer()).rejects.toThrow();
  });

  it("never serves other types inline", async () => {
    const response = await relay(async () => signed("/html"));
    expect(response.headers.get("content-type")).toBe("application/octet-stream");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="Declarations 2026"');
  });
});
