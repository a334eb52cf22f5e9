import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { serviceRequest, type ServiceConfig } from "./client";
import {
  isServiceUnreachable,
  rateLimitedUntil,
  readServiceHealth,
  recordServiceRateLimited,
  resetServiceHealth,
  UNREACHABLE_NOTICE_MS,
} from "./health";

// The service-health record as the client writes it: over real HTTP, from a server that
// answers, fails with a 5xx, or is not there at all.

let server: Server | undefined;
let answer: (res: ServerResponse) => void = (res) => res.end("{}");

async function start(): Promise<string> {
  server = createServer((_req, res) => answer(res));
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1.0.0`;
}

const config = (baseUrl: string): ServiceConfig => ({
  baseUrl,
  teamId: "team-1",
  clientId: "id",
  clientSecret: "secret",
  timeoutMs: 1_000,
  retryBaseMs: 1,
  maxAttempts: 2,
});
const get = (baseUrl: string) =>
  serviceRequest(config(baseUrl), { method: "GET", path: "/pulls/x", teamScoped: true, idempotent: true });

beforeEach(() => resetServiceHealth());
afterEach(async () => {
  const running = server;
  server = undefined;
  if (running) await new Promise((resolve) => running.close(resolve));
});

describe("service health", () => {
  it("knows nothing before the first call", () => {
    expect(readServiceHealth().lastOutcome).toBeNull();
    expect(isServiceUnreachable()).toBe(false);
  });

  it("marks the service unreachable on 5xx answers, and answering again on the next success", async () => {
    const baseUrl = await start();
    answer = (res) => {
      res.statusCode = 503;
      res.end('{"error":"UNAVAILABLE"}');
    };
    await expect(get(baseUrl)).rejects.toThrow();
    expect(isServiceUnreachable()).toBe(true);
    expect(readServiceHealth()).toMatchObject({ lastOutcome: "unreachable", failuresInARow: 2 });
    expect(readServiceHealth().lastFailure).toContain("GET /pulls/x: 503");
    expect(readServiceHealth().lastFailure).not.toContain("secret");

    answer = (res) => res.end('{"success":true}');
    await get(baseUrl);
    expect(isServiceUnreachable()).toBe(false);
    expect(readServiceHealth()).toMatchObject({ lastOutcome: "answered", failuresInARow: 0 });
  });

  it("counts a refusal below 500 (e.g. not found) as the service answering", async () => {
    const baseUrl = await start();
    answer = (res) => {
      res.statusCode = 404;
      res.end('{"error":"NOT_FOUND"}');
    };
    await expect(get(baseUrl)).rejects.toThrow();
    expect(readServiceHealth().lastOutcome).toBe("answered");
  });

  it("marks the service unreachable when nothing listens", async () => {
    const baseUrl = await start();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
    await expect(get(baseUrl)).rejects.toThrow();
    expect(readServiceHealth().lastFailure).toContain("could not be reached");
    expect(isServiceUnreachable()).toBe(true);
  });

  it("stops saying so once the last failure is older than the notice period", async () => {
    const baseUrl = await start();
    answer = (res) => {
      res.statusCode = 500;
      res.end();
    };
    await expect(get(baseUrl)).rejects.toThrow();
    const failedAt = readServiceHealth().lastFailureAt?.getTime() ?? 0;
    expect(isServiceUnreachable(readServiceHealth(), failedAt + UNREACHABLE_NOTICE_MS)).toBe(true);
    expect(isServiceUnreachable(readServiceHealth(), failedAt + UNREACHABLE_NOTICE_MS + 1)).toBe(false);
  });

  it("keeps until when the service limits requests: the later limit wins, and a past one is no limit", async () => {
    const now = Date.now();
    expect(rateLimitedUntil()).toBeNull();
    recordServiceRateLimited(new Date(now + 60_000));
    recordServiceRateLimited(new Date(now + 5_000));
    expect(rateLimitedUntil()?.getTime()).toBe(now + 60_000);
    expect(rateLimitedUntil(readServiceHealth(), now + 60_001)).toBeNull();

    // A 429 is an answer: the service is up, and limiting.
    answer = (res) => {
      res.writeHead(429, { "retry-after": "120" });
      res.end("{}");
    };
    resetServiceHealth();
    const base = await start();
    await expect(get(base)).rejects.toMatchObject({ code: "RATE_LIMITED", retryAfterMs: 120_000 });
    expect(isServiceUnreachable()).toBe(false);
    expect(rateLimitedUntil()?.getTime()).toBeGreaterThan(Date.now() + 100_000);
  });
});
