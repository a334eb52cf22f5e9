import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { backoffDelay, buildUrl, serviceRequest, type ServiceConfig } from "./client";
import { ServiceError } from "./errors";

let server: Server | undefined;

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1.0.0`;
}

afterEach(async () => {
  const running = server;
  server = undefined;
  if (!running) return;
  running.closeAllConnections();
  await new Promise((resolve) => running.close(resolve));
});

const config = (baseUrl: string, extra: Partial<ServiceConfig> = {}): ServiceConfig => ({
  baseUrl,
  teamId: "team-1",
  clientId: "client-id",
  clientSecret: "super-secret",
  timeoutMs: 2_000,
  retryBaseMs: 1,
  ...extra,
});

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

describe("service client", () => {
  it("sends HTTP Basic credentials to the team-scoped route", async () => {
    let seen: { url?: string; auth?: string } = {};
    const base = await serve((req, res) => {
      seen = { url: req.url, auth: req.headers.authorization };
      json(res, 200, { success: true });
    });
    await serviceRequest(config(base), { method: "GET", path: "/pulls/p-1", teamScoped: true, idempotent: true });
    expect(seen.url).toBe("/api/v1.0.0/teams/team-1/pulls/p-1");
    expect(seen.auth).toBe(`Basic ${Buffer.from("client-id:super-secret").toString("base64")}`);
  });

  it("uses bare routes when no team is configured", () => {
    expect(
      buildUrl(
        { baseUrl: "http://s/api/v1.0.0", teamId: null },
        { path: "/pulls", teamScoped: true, query: { limit: 5, offset: undefined } },
      ),
    ).toBe("http://s/api/v1.0.0/pulls?limit=5");
  });

  it("retries an idempotent call after 5xx and 429, then succeeds", async () => {
    let calls = 0;
    const base = await serve((_req, res) => {
      calls++;
      if (calls === 1) return json(res, 500, { error: "INTERNAL_ERROR" });
      if (calls === 2) return json(res, 429, { error: "RATE_LIMITED" });
      json(res, 200, { ok: true });
    });
    const response = await serviceRequest(config(base), {
      method: "GET",
      path: "/x",
      teamScoped: false,
      idempotent: true,
    });
    expect(response.body).toEqual({ ok: true });
    expect(calls).toBe(3);
  });

  it("never retries a non-idempotent call", async () => {
    let calls = 0;
    const base = await serve((_req, res) => {
      calls++;
      json(res, 503, { error: "UNAVAILABLE" });
    });
    await expect(
      serviceRequest(config(base), { method: "POST", path: "/x", teamScoped: false, idempotent: false, body: {} }),
    ).rejects.toMatchObject({ status: 503, code: "UNAVAILABLE" });
    expect(calls).toBe(1);
  });

  it("does not retry a 4xx and carries the service's error code", async () => {
    let calls = 0;
    const base = await serve((_req, res) => {
      calls++;
      json(res, 400, { error: "NOT_FOUND" });
    });
    const failure = await serviceRequest(config(base), {
      method: "GET",
      path: "/pulls/x",
      teamScoped: true,
      idempotent: true,
    }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ServiceError);
    expect(failure).toMatchObject({ status: 400, code: "NOT_FOUND", retryable: false, isNotFound: true });
    expect(calls).toBe(1);
  });

  it("times out a call that gets no answer, and says so without leaking the secret", async () => {
    const base = await serve(() => {
      /* never answers */
    });
    const failure = (await serviceRequest(config(base, { timeoutMs: 150, maxAttempts: 2 }), {
      method: "GET",
      path: "/pulls/x",
      teamScoped: true,
      idempotent: true,
    }).catch((e: unknown) => e)) as ServiceError;
    expect(failure.code).toBe("TIMEOUT");
    expect(failure.status).toBe(0);
    expect(failure.message).not.toContain("super-secret");
  });

  it("stops reading an answer past its size limit, chunked or announced, and reads one under it whole", async () => {
    let streamed = 0;
    const base = await serve((req, res) => {
      if (req.url?.endsWith("/announced")) {
        res.writeHead(200, { "content-type": "application/json", "content-length": String(10_000) });
        res.end("x".repeat(10_000));
        return;
      }
      if (req.url?.endsWith("/small")) return json(res, 200, { success: true, pad: "y".repeat(500) });
      // Chunked, without end: a hostile upstream.
      res.writeHead(200, { "content-type": "application/json" });
      const timer = setInterval(() => {
        streamed += 1024;
        res.write("z".repeat(1024));
      }, 1);
      res.on("close", () => clearInterval(timer));
    });
    const capped = config(base, { maxAnswerBytes: 4_096, maxAttempts: 3 });
    const get = (path: string) =>
      serviceRequest(capped, { method: "GET", path, teamScoped: false, idempotent: true }).catch((e: unknown) => e);

    for (const path of ["/endless", "/announced"]) {
      const failure = await get(path);
      expect(failure).toBeInstanceOf(ServiceError);
      expect(failure).toMatchObject({ code: "ANSWER_TOO_LARGE", retryable: false });
      expect((failure as Error).message).toMatch(/larger than/);
    }
    // The endless answer was abandoned soon after the limit, not read to exhaustion.
    expect(streamed).toBeLessThan(64 * 1024);
    expect(await get("/small")).toMatchObject({ status: 200, body: { success: true } });
  });

  it("reports a service that cannot be reached as a retryable network error", async () => {
    const failure = (await serviceRequest(config("http://127.0.0.1:1/api/v1.0.0", { maxAttempts: 1 }), {
      method: "GET",
      path: "/x",
      teamScoped: false,
      idempotent: true,
    }).catch((e: unknown) => e)) as ServiceError;
    expect(failure).toMatchObject({ code: "NETWORK_ERROR", retryable: true, status: 0 });
  });

  it("spreads retries with full jitter inside an exponential window", () => {
    expect(backoffDelay(0, 100, () => 0)).toBe(0);
    expect(backoffDelay(0, 100, () => 0.5)).toBe(50);
    expect(backoffDelay(0, 100, () => 1)).toBe(100);
    expect(backoffDelay(3, 100, () => 1)).toBe(800);
    expect(backoffDelay(20, 100, () => 1)).toBe(30_000);
  });
});
