import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseRateLimitSetting } from "./rate-limit";
import { startSandbox, type Sandbox } from "./server";

// The sandbox rate-limits on demand, as the real service does when called too often: team
// routes answer 429 {"error":"RATE_LIMITED"} with a Retry-After, and it counts the requests
// that came before that time, so tests can check that a client waited.

const TEAM = "6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d";
const AUTH = `Basic ${Buffer.from("limit-client:limit-secret").toString("base64")}`;

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    clientId: "limit-client",
    clientSecret: "limit-secret",
    teamId: TEAM,
    webhookUrl: null,
    webhookSecret: null,
    seed: 3,
    pullCount: 4,
    speed: 0.001,
    deliverOnStart: false,
  });
});
afterAll(async () => {
  await sandbox?.close();
});
afterEach(async () => {
  await control("reset", {});
});

async function control(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${sandbox.url}/_sandbox/${path}`, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const listPulls = () => fetch(`${sandbox.baseUrl}/teams/${TEAM}/pulls?limit=1`, { headers: { authorization: AUTH } });

describe("the sandbox's rate limit", () => {
  it("refuses every team request with 429 and Retry-After while a storm is on, and counts who came early", async () => {
    expect((await control("rate-limit", { retryAfterSeconds: 30 })).status).toBe(200);
    const refused = await listPulls();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(await refused.json()).toEqual({ error: "RATE_LIMITED" });
    // The reference routes are not the team's budget.
    expect((await fetch(`${sandbox.baseUrl}/health`)).status).toBe(200);

    await listPulls();
    const state = (await (await fetch(`${sandbox.url}/_sandbox/state`)).json()) as { rateLimit: unknown };
    expect(state.rateLimit).toMatchObject({ refused: 2, early: 1 });

    // Lifted: answers again, but one sent before the Retry-After still counts as early.
    await control("rate-limit", { off: true });
    expect((await listPulls()).status).toBe(200);
    expect(sandbox.state.rateLimit).toMatchObject({ refused: 2, early: 2 });
  });

  it("lets a number of requests a minute through, then says how long is left of the minute", async () => {
    await control("rate-limit", { requestsPerMinute: 2 });
    expect((await listPulls()).status).toBe(200);
    expect((await listPulls()).status).toBe(200);
    const refused = await listPulls();
    expect(refused.status).toBe(429);
    const seconds = Number(refused.headers.get("retry-after"));
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
  });

  it("writes Retry-After as an HTTP-date, or leaves it out, when told to", async () => {
    await control("rate-limit", { retryAfterSeconds: 5, retryAfterForm: "date" });
    const dated = await listPulls();
    const at = Date.parse(dated.headers.get("retry-after") ?? "");
    expect(at - Date.now()).toBeGreaterThan(3_000);
    expect(at - Date.now()).toBeLessThanOrEqual(6_000);

    await control("rate-limit", { retryAfterForm: "none" });
    const bare = await listPulls();
    expect(bare.status).toBe(429);
    expect(bare.headers.get("retry-after")).toBeNull();
  });

  it("answers 400 to a switch it cannot read", async () => {
    for (const body of [
      {},
      { requestsPerMinute: 0 },
      { requestsPerMinute: 1.5 },
      { retryAfterSeconds: -1 },
      { retryAfterSeconds: "1" },
      { retryAfterForm: "minutes" },
      { off: false },
      { off: true, requestsPerMinute: 5 },
      { retryAfter: 1 },
    ]) {
      const answer = await control("rate-limit", body);
      expect(answer, JSON.stringify(body)).toMatchObject({ status: 400, body: { error: "INVALID_INPUT" } });
    }
    expect((await control("rate-limit", "{not json")).status).toBe(400);
    expect((await listPulls()).status).toBe(200);
  });

  it("reads SANDBOX_RATE_LIMIT", () => {
    expect(parseRateLimitSetting("60/min")).toEqual({
      requestsPerMinute: 60,
      retryAfterSeconds: null,
      retryAfterForm: "seconds",
    });
    expect(parseRateLimitSetting("off")).toBeNull();
    expect(parseRateLimitSetting("")).toBeNull();
    for (const bad of ["60", "0/min", "-1/min", "fast", "60/hour"]) expect(parseRateLimitSetting(bad)).toBe("invalid");
  });
});
