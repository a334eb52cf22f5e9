import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Sandbox } from "@/sandbox/server";
import { controlSandbox, startServiceSandbox } from "@/test/service-sandbox";
import { parseRetryAfter, serviceRequest, type ServiceConfig } from "./client";
import { RATE_LIMITED, rateLimitedMessage, ServiceError } from "./errors";
import { rateLimitedUntil, resetServiceHealth } from "./health";
import { fetchPullPayload } from "./pulls-api";

// The service limits requests with 429 and a Retry-After (in seconds or as an HTTP-date). The
// client must send nothing before that time has passed, back off with jitter where no time is
// given, and give up (saying when to try again) rather than keep a person waiting for minutes.
// Against the sandbox over HTTP: it counts every request that came before its Retry-After.

const TEAM = "3c0a4f5e-8b1d-4e2a-9c6f-7d8e9fa0b1c2";

let sandbox: Sandbox;
let service: ServiceConfig;
let pullId: string;

beforeAll(async () => {
  ({ sandbox, service } = await startServiceSandbox("rate-limit", { teamId: TEAM, seed: 7 }));
  pullId = [...sandbox.state.pulls.values()].find((p) => !p.parent_pull_id)?.pull_id ?? "";
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(() => resetServiceHealth());
afterEach(async () => {
  await controlSandbox(sandbox, "reset", {});
});

const counters = () => sandbox.state.rateLimit;

/** Waits until the sandbox has refused `n` requests, then lifts the limit: the client's retry may then get through. */
async function liftAfterRefusals(n: number): Promise<void> {
  while (counters().refused < n) await new Promise((r) => setTimeout(r, 5));
  await controlSandbox(sandbox, "rate-limit", { off: true });
}

describe("the client under the service's rate limit", () => {
  it("waits as a Retry-After in seconds says, then gets its answer", async () => {
    await controlSandbox(sandbox, "rate-limit", { retryAfterSeconds: 1 });
    const call = fetchPullPayload({ ...service, maxWaitMs: 5_000 }, pullId);
    await liftAfterRefusals(1);
    expect(await call).toMatchObject({ pull: { pull_id: pullId } });
    expect(counters()).toMatchObject({ refused: 1, early: 0 });
  });

  it("counts a request that comes before Retry-After, so the tests above can trust it", async () => {
    await controlSandbox(sandbox, "rate-limit", { retryAfterSeconds: 30 });
    const impatient = { ...service, maxAttempts: 2, maxWaitMs: 60_000, retryBaseMs: 1 };
    // A client that ignores Retry-After: the health record is cleared, so nothing holds its retry back.
    const first = await fetchPullPayload({ ...impatient, maxAttempts: 1 }, pullId).catch((e: unknown) => e);
    expect(first).toMatchObject({ code: RATE_LIMITED, retryAfterMs: 30_000 });
    resetServiceHealth();
    await fetchPullPayload({ ...impatient, maxAttempts: 1 }, pullId).catch(() => null);
    expect(counters()).toMatchObject({ refused: 2, early: 1 });
  });

  it("waits until the HTTP-date a Retry-After gives", async () => {
    await controlSandbox(sandbox, "rate-limit", { retryAfterSeconds: 1, retryAfterForm: "date" });
    const call = fetchPullPayload({ ...service, maxWaitMs: 5_000 }, pullId);
    await liftAfterRefusals(1);
    expect(await call).toMatchObject({ pull: { pull_id: pullId } });
    expect(counters().early).toBe(0);
  });

  it("backs off on its own when the 429 gives no time, and says so", async () => {
    await controlSandbox(sandbox, "rate-limit", { retryAfterSeconds: 1, retryAfterForm: "none" });
    const failure = await fetchPullPayload({ ...service, maxAttempts: 3, retryBaseMs: 20 }, pullId).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(ServiceError);
    expect(failure).toMatchObject({ status: 429, code: RATE_LIMITED, retryAfterMs: null, retryable: true });
    expect(counters().refused).toBe(3);
    expect(rateLimitedMessage(failure)).toBe("The service is limiting requests; try again in a minute.");
  });

  it("gives up past its ceiling with when to try again, and sends nothing more until then", async () => {
    await controlSandbox(sandbox, "rate-limit", { retryAfterSeconds: 40 });
    const page = { ...service, maxWaitMs: 2_000 };
    const failure = (await fetchPullPayload(page, pullId).catch((e: unknown) => e)) as ServiceError;
    expect(failure).toMatchObject({ status: 429, code: RATE_LIMITED, retryAfterMs: 40_000 });
    expect(rateLimitedMessage(failure)).toBe("The service is limiting requests; try again in 40 s.");
    expect(rateLimitedUntil()).not.toBeNull();

    // Another call in the same process: refused at once without a request, with the time that is left.
    const again = (await fetchPullPayload(page, pullId).catch((e: unknown) => e)) as ServiceError;
    expect(again.code).toBe(RATE_LIMITED);
    expect(again.retryAfterMs).toBeGreaterThan(30_000);
    expect(again.retryAfterMs).toBeLessThanOrEqual(40_000);
    expect(counters()).toMatchObject({ refused: 1, early: 0 });
  });

  it("stops waiting when the caller gives up on the call", async () => {
    await controlSandbox(sandbox, "rate-limit", { retryAfterSeconds: 30 });
    const controller = new AbortController();
    const call = fetchPullPayload({ ...service, maxWaitMs: 60_000 }, pullId, controller.signal).catch(
      (e: unknown) => e,
    );
    while (counters().refused < 1) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error("the browser went away"));
    expect(await call).toMatchObject({ message: "the browser went away" });
    expect(counters()).toMatchObject({ refused: 1, early: 0 });
  });

  it("refuses a write it was not allowed to send without retrying it", async () => {
    await controlSandbox(sandbox, "rate-limit", { retryAfterSeconds: 5 });
    const failure = await serviceRequest(service, {
      method: "PATCH",
      path: `/pulls/${pullId}`,
      teamScoped: true,
      idempotent: false,
      body: { is_archived: true },
    }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: RATE_LIMITED, retryAfterMs: 5_000 });
    expect(counters().refused).toBe(1);
  });
});

describe("Retry-After", () => {
  it("reads delta-seconds and HTTP-dates, and ignores what it cannot read", () => {
    const now = Date.parse("2026-03-01T10:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Sun, 01 Mar 2026 10:00:40 GMT", now)).toBe(40_000);
    expect(parseRetryAfter("Sun, 01 Mar 2026 09:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter("-5", now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  it("is honoured on a 503 too", async () => {
    const seen: number[] = [];
    const server: Server = createServer((_req, res) => {
      seen.push(Date.now());
      if (seen.length === 1) {
        res.writeHead(503, { "content-type": "application/json", "retry-after": "1" });
        res.end(JSON.stringify({ error: "UNAVAILABLE" }));
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end("{}");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1.0.0`;
      await serviceRequest(
        { ...service, baseUrl: base, maxWaitMs: 5_000 },
        {
          method: "GET",
          path: "/x",
          teamScoped: false,
          idempotent: true,
        },
      );
      expect(seen).toHaveLength(2);
      // Correctness, not speed: the retry came no sooner than the service asked.
      expect((seen[1] ?? 0) - (seen[0] ?? 0)).toBeGreaterThanOrEqual(1_000);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
