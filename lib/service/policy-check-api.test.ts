import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Sandbox } from "@/sandbox/server";
import { controlSandbox, startServiceSandbox } from "@/test/service-sandbox";
import type { ServiceConfig } from "./client";
import {
  getPolicyCheckReport,
  getPolicyCheckSettings,
  runPolicyCheck,
  savePolicyCheckSettings,
} from "./policy-check-api";
import { getPull, iteratePulls } from "./pulls-api";
import type { PolicyCheckResult } from "./schemas";

// Policy check against the sandbox over real HTTP: the team's rules (with the published
// misspelling and without the wrapper), a run on demand that puts status and results on the
// pull, the PDF report, the checks run on every new submission, and the plan gate.

const TEAM = "8c3f4a5b-6e7d-4c8b-aa99-887766554433";
let sandbox: Sandbox;
let service: ServiceConfig;

beforeAll(async () => {
  ({ sandbox, service } = await startServiceSandbox("pc", { teamId: TEAM, seed: 41, pullCount: 24 }));
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(async () => {
  await control("reset", {});
});

const control = (path: string, body: unknown) => controlSandbox(sandbox, path, body);
const basic = `Basic ${Buffer.from("pc:pc-secret").toString("base64")}`;
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

/** A seeded top-level pull with an auto policy and a homeowners policy. */
async function homeAndAuto(): Promise<string> {
  for await (const pull of iteratePulls(service)) {
    const types = pull.policies.map((p) => p.policy_type);
    if (!pull.parent_pull_id && pull.status === "SUCCESS" && types.includes("AUTO") && types.includes("HOMEOWNERS"))
      return pull.pull_id;
  }
  throw new Error("no seeded home and auto pull");
}

describe("policy check contract", () => {
  it("holds the team's rules, reading the misspelled key and the bare form", async () => {
    const initial = await getPolicyCheckSettings(service);
    expect(initial.problems).toEqual([]);
    expect(initial.value.vehicle).toMatchObject({
      POLICY_NOT_ACTIVE: false,
      LIENHOLDER_NAME_MISMATCH: [],
      MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS: null,
    });
    const saved = await savePolicyCheckSettings(service, {
      vehicle: { NO_COLLISION_COVERAGE: true, MIN_BODILY_INJURY_COVERAGE: { per_person_cents: 10_000_000 } },
    });
    expect(saved.value.vehicle).toMatchObject({
      NO_COLLISION_COVERAGE: true,
      MIN_BODILY_INJURY_COVERAGE: { per_person_cents: 10_000_000, per_accident_cents: null },
    });

    // The published example's form: no wrapper, and MAX_COMPREEHENSIVE_….
    const response = await fetch(`${sandbox.baseUrl}/teams/${TEAM}/policyChecks/settings`, {
      method: "POST",
      headers: { authorization: basic, "content-type": "application/json" },
      body: JSON.stringify({
        vehicle: { MAX_COMPREEHENSIVE_DEDUCTIBLE_CENTS: 50_000 },
        dwelling: { DWELLING_POLICY_NOT_ACTIVE: true },
      }),
    });
    expect(response.status).toBe(200);
    const read = await getPolicyCheckSettings(service);
    expect(read.value.vehicle).toMatchObject({
      NO_COLLISION_COVERAGE: true,
      MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS: 50_000,
    });
    expect(read.value.dwelling).toMatchObject({
      DWELLING_POLICY_NOT_ACTIVE: true,
      LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST: false,
    });

    const bad = await fetch(`${sandbox.baseUrl}/teams/${TEAM}/policyChecks/settings`, {
      method: "POST",
      headers: { authorization: basic, "content-type": "application/json" },
      body: JSON.stringify({ policy_check_settings: { vehicle: { NO_SUCH_RULE: true } } }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "INVALID_INPUT" });
  });

  it("runs rules on a pull on demand: a status and one result per rule and vehicle or dwelling", async () => {
    const pullId = await homeAndAuto();
    const passing = await runPolicyCheck(service, pullId, {
      policy_check_settings: { vehicle: { MIN_PROPERTY_DAMAGE_COVERAGE_CENTS: 1 }, dwelling: {} },
    });
    expect(passing.problems).toEqual([]);
    expect(passing.value.policy_check_status).toBe("COMPLIANT");
    const passed = passing.value.policy_check_results as PolicyCheckResult[];
    expect(passed.length).toBeGreaterThan(0);
    expect(
      passed.every(
        (r) => r.check === "MIN_PROPERTY_DAMAGE_COVERAGE_CENTS" && r.result === "PASSED" && r.vehicle_id !== null,
      ),
    ).toBe(true);

    const failing = await runPolicyCheck(service, pullId, {
      policy_check_settings: {
        vehicle: {
          MAX_COLLISION_DEDUCTIBLE_CENTS: 0,
          MIN_BODILY_INJURY_COVERAGE: { per_accident_cents: 10_000_000_000 },
        },
        dwelling: { LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST: true },
      },
      filters: {},
    });
    expect(failing.value.policy_check_status).toBe("NOT_COMPLIANT");
    const results = failing.value.policy_check_results as PolicyCheckResult[];
    expect(new Set(results.map((r) => r.check))).toEqual(
      new Set([
        "MAX_COLLISION_DEDUCTIBLE_CENTS",
        "MIN_BODILY_INJURY_COVERAGE",
        "LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST",
      ]),
    );
    expect(results.find((r) => r.check === "MIN_BODILY_INJURY_COVERAGE")?.result).toBe("FAILED");
    expect(results.some((r) => r.dwelling_id !== null)).toBe(true);
    // The results stay on the pull.
    const stored = await getPull(service, pullId);
    expect(stored.problems).toEqual([]);
    expect(stored.value.policy_check_results).toEqual(results);

    const report = await getPolicyCheckReport(service, pullId);
    const text = report.toString("latin1");
    expect(text.startsWith("%PDF-1.4")).toBe(true);
    expect(text.endsWith("%%EOF")).toBe(true);
    expect(text).toContain("(Status: NOT_COMPLIANT)");
    expect(text).toContain("MIN_BODILY_INJURY_COVERAGE");

    expect(await failure(runPolicyCheck(service, crypto.randomUUID(), { policy_check_settings: {} }))).toMatchObject({
      status: 404,
      code: "NOT_FOUND",
    });
    expect(await failure(getPolicyCheckReport(service, crypto.randomUUID()))).toMatchObject({
      status: 400,
      code: "NOT_FOUND",
    });
  });

  it("checks every new submission once the team has set rules", async () => {
    await savePolicyCheckSettings(service, { vehicle: { NO_COMPREHENSIVE_COVERAGE: true } });
    const link = await control("links", { username: "user_good" });
    const pullId = String(link.pull_id);
    for (let i = 0; i < 300 && (await getPull(service, pullId)).value.status !== "SUCCESS"; i++)
      await new Promise((r) => setTimeout(r, 10));
    const { value } = await getPull(service, pullId);
    expect(["COMPLIANT", "NOT_COMPLIANT"]).toContain(value.policy_check_status);
    expect((value.policy_check_results as PolicyCheckResult[]).map((r) => r.check)).toContain(
      "NO_COMPREHENSIVE_COVERAGE",
    );
  });

  it("answers 403 FORBIDDEN on every policy-check route when the plan lacks it", async () => {
    const pullId = await homeAndAuto();
    expect(await control("plan", { policyCheck: false })).toMatchObject({ plan: { policyCheck: false } });
    const calls = [
      () => getPolicyCheckSettings(service),
      () => savePolicyCheckSettings(service, {}),
      () => runPolicyCheck(service, pullId, { policy_check_settings: {} }),
      () => getPolicyCheckReport(service, pullId),
    ];
    for (const call of calls)
      expect(await failure(call())).toMatchObject({ status: 403, code: "FORBIDDEN", retryable: false });
    await control("plan", { policyCheck: true });
    expect((await getPolicyCheckSettings(service)).value.vehicle).not.toBeNull();
  });
});
