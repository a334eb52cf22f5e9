import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { setFaults } from "@/test/sandbox-faults";
import type { ServiceConfig } from "./client";
import { ServiceError } from "./errors";
import { getPull, iteratePulls, listPulls } from "./pulls-api";

// The pull endpoints against the sandbox over real HTTP, including its fault injection.

const TEAM = "0d7c1d2e-3f4a-4b5c-8d6e-7f8091a2b3c4";
let sandbox: Sandbox;
let service: ServiceConfig;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    clientId: "api-client",
    clientSecret: "api-secret",
    teamId: TEAM,
    webhookUrl: null,
    webhookSecret: null,
    seed: 11,
    pullCount: 36,
    speed: 0.001,
    deliverOnStart: false,
  });
  service = {
    baseUrl: sandbox.baseUrl,
    teamId: TEAM,
    clientId: "api-client",
    clientSecret: "api-secret",
    timeoutMs: 1_000,
    retryBaseMs: 1,
    maxAttempts: 3,
  };
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(async () => {
  await setFaults(sandbox, { errorRate: 0, timeoutRate: 0, latencyMs: 0 });
});

describe("pull endpoints", () => {
  it("reads a pull out of its envelope, with its policies", async () => {
    const page = await listPulls(service, { limit: 5 });
    const first = page.value.pulls.find((p) => p.policies.length > 0);
    expect(first).toBeDefined();
    const pull = await getPull(service, first?.pull_id ?? "");
    expect(pull.value.pull_id).toBe(first?.pull_id);
    expect(pull.value.policies.map((p) => p.policy_id)).toEqual(first?.policies.map((p) => p.policy_id));
  });

  it("walks every page once, whatever the page size", async () => {
    const seen: string[] = [];
    for await (const pull of iteratePulls(service, { pageSize: 7 })) seen.push(pull.pull_id);
    expect(seen).toHaveLength(sandbox.state.pulls.size);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("refuses a page size the service would refuse, before calling it", async () => {
    await expect(listPulls(service, { limit: 0 })).rejects.toThrow();
    await expect(listPulls(service, { limit: 101 })).rejects.toThrow();
    await expect(listPulls(service, { since: "yesterday" })).rejects.toThrow();
  });

  it("maps an unknown pull to a not-found error, without retrying", async () => {
    const failure = await getPull(service, "00000000-0000-4000-8000-000000000000").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ServiceError);
    expect(failure).toMatchObject({ status: 400, code: "NOT_FOUND", isNotFound: true, retryable: false });
  });

  it("maps wrong credentials and another team to the service's codes", async () => {
    await expect(listPulls({ ...service, clientSecret: "wrong" }, {})).rejects.toMatchObject({
      status: 401,
      code: "UNAUTHORIZED",
    });
    await expect(listPulls({ ...service, teamId: "another-team" }, {})).rejects.toMatchObject({
      status: 403,
      code: "FORBIDDEN",
    });
  });

  it("gives up on a failing service after its retries, with a retryable error", async () => {
    await setFaults(sandbox, { errorRate: 1 });
    await expect(listPulls(service, {})).rejects.toMatchObject({
      status: 500,
      code: "INTERNAL_ERROR",
      retryable: true,
    });
  });

  it("times out a service that does not answer", async () => {
    await setFaults(sandbox, { timeoutRate: 1 });
    await expect(listPulls({ ...service, timeoutMs: 100, maxAttempts: 2 }, {})).rejects.toMatchObject({
      status: 0,
      code: "TIMEOUT",
    });
  });
});
