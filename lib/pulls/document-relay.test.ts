import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ServiceError } from "@/lib/service/errors";
import { serviceDownloadPolicy } from "@/lib/security/download-guard";
import { MAX_DOWNLOAD_BYTES, relayDownload } from "./document-relay";

// The relay between the service's signed link and the browser: headers, the size cap, and
// errors that answer 502 without naming the link or any credential.

const SIGNED = "https://files.example.com/f/abc?signature=SECRET-SIGNATURE";
const pdfBytes = new TextEncoder().encode("%PDF-1.4\n%%EOF\n");

function upstream(body: BodyInit | null, init: ResponseInit): void {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => new Response(body, init)),
  );
}

/** The signed link's host is allowed and public (a fixed answer instead of asking DNS). */
const policy = { allowedHosts: ["files.example.com"], lookup: async () => [{ address: "93.184.216.34", family: 4 }] };

async function relay(signedUrl: () => Promise<string> = async () => SIGNED) {
  return relayDownload({
    signedUrl,
    title: `Declarations <b>2026</b>`,
    fallbackName: "document",
    label: "test",
    policy,
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("relayDownload", () => {
  it("streams the file with its type, inline, under a safe name", async () => {
    upstream(pdfBytes, {
      status: 200,
      headers: { "content-type": "application/pdf", "content-length": String(pdfBytes.length) },
    });
    const response = await relay();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe('inline; filename="Declarations 2026.pdf"');
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(new TextDecoder().decode(await response.arrayBuffer())).toBe("%PDF-1.4\n%%EOF\n");
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

  it("answers 502 when the signed link fails or the file is over the cap", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    upstream("gone", { status: 403 });
    expect((await relay()).status).toBe(502);
    upstream(pdfBytes, {
      status: 200,
      headers: { "content-type": "application/pdf", "content-length": String(MAX_DOWNLOAD_BYTES + 1) },
    });
    const tooLarge = await relay();
    expect(tooLarge.status).toBe(502);
    expect(JSON.stringify(await tooLarge.json())).not.toContain("SECRET");
  });

  it("cuts a stream that goes past the cap even without a declared length", async () => {
    const chunk = new Uint8Array(MAX_DOWNLOAD_BYTES / 2 + 1);
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(chunk);
      },
    });
    upstream(endless, { status: 200, headers: { "content-type": "application/pdf" } });
    const response = await relay();
    expect(response.status).toBe(200);
    await expect(response.arrayBuffer()).rejects.toThrow();
  });

  it("never serves other types inline", async () => {
    upstream("<script>alert(1)</script>", { status: 200, headers: { "content-type": "text/html" } });
    const response = await relay();
    expect(response.headers.get("content-type")).toBe("application/octet-stream");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="Declarations 2026"');
  });
});

describe("relayDownload over real HTTP", () => {
  /** A file host on this machine: /signed answers the file, /bounce redirects to `target`. */
  async function fileHost(target: (port: number) => string): Promise<{ server: Server; port: number; hits: string[] }> {
    const hits: string[] = [];
    const server = createServer((request, response) => {
      hits.push(request.url ?? "");
      if (request.url === "/bounce") response.writeHead(302, { location: target(port) }).end();
      else response.writeHead(200, { "content-type": "application/pdf" }).end("%PDF-1.4\n%%EOF\n");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    return { server, port, hits };
  }
  const close = (server: Server) => new Promise((resolve) => server.close(resolve));

  it("relays the local sandbox's own signed link, on the service's port, with the default settings", async () => {
    const host = await fileHost(() => "");
    try {
      // The sandbox as configured service (SERVICE_BASE_URL on this machine), signing with 127.0.0.1.
      const policy = serviceDownloadPolicy({
        baseUrl: `http://localhost:${host.port}/api/v1.0.0`,
        downloadHosts: null,
      });
      const response = await relayDownload({
        signedUrl: async () => `http://127.0.0.1:${host.port}/signed`,
        title: "Declarations",
        fallbackName: "document",
        label: "test",
        policy,
      });
      expect(response.status).toBe(200);
      expect(new TextDecoder().decode(await response.arrayBuffer())).toBe("%PDF-1.4\n%%EOF\n");
    } finally {
      await close(host.server);
    }
  });

  it("answers 502 for a link that redirects elsewhere on this machine, which is never asked", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const internal = await fileHost(() => "");
    const host = await fileHost(() => `http://127.0.0.1:${internal.port}/admin`);
    try {
      const policy = serviceDownloadPolicy({
        baseUrl: `http://localhost:${host.port}/api/v1.0.0`,
        downloadHosts: null,
      });
      const response = await relayDownload({
        signedUrl: async () => `http://localhost:${host.port}/bounce`,
        title: "Declarations",
        fallbackName: "document",
        label: "test",
        policy,
      });
      expect(response.status).toBe(502);
      expect(JSON.stringify(await response.json())).not.toContain("bounce");
      expect(host.hits).toEqual(["/bounce"]);
      expect(internal.hits).toEqual([]);
    } finally {
      await Promise.all([close(host.server), close(internal.server)]);
    }
  });
});
