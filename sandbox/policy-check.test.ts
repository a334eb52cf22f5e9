import { describe, expect, it } from "vitest";
import type { SandboxPull } from "./data/pulls";
import { runPolicyChecks } from "./flows/policy-check";
import { applySettings, DEFAULT_POLICY_CHECK_SETTINGS, settingsBodySchema } from "./flows/policy-check-settings";

// The sandbox's policy-check rules on hand-made policies: what passes, what fails, what the
// data cannot settle (a review), and the settings' published misspelling.

const coverage = (friendly_name: string, fields: Record<string, unknown> = {}) => ({
  friendly_name,
  name: friendly_name,
  is_declined: false,
  ...fields,
});
const pull = (policies: unknown[]): SandboxPull => ({
  pull_id: "p",
  status: "SUCCESS",
  parent_pull_id: null,
  created_at: "2026-01-01T00:00:00Z",
  account_identifier: null,
  policies,
});
const auto = (vehicle: Record<string, unknown>, status = "ACTIVE") => ({
  policy_id: "auto",
  status,
  vehicles: [{ vehicle_id: "v", coverages: [], drivers: [], ...vehicle }],
  dwellings: [],
});
const home = (dwelling: Record<string, unknown>) => ({
  policy_id: "home",
  status: "ACTIVE",
  vehicles: [],
  dwellings: [{ dwelling_id: "d", coverages: [], ...dwelling }],
});
const settings = (body: unknown) => applySettings(DEFAULT_POLICY_CHECK_SETTINGS, settingsBodySchema.parse(body));

describe("policy checks", () => {
  it("checks no rule until one is set", () => {
    expect(runPolicyChecks(pull([auto({})]), DEFAULT_POLICY_CHECK_SETTINGS)).toEqual({ status: null, results: [] });
  });

  it("fails a financed vehicle whose lien holder is not required, and asks for review when none is named", () => {
    const rules = settings({ vehicle: { LIENHOLDER_NAME_MISMATCH: ["Ally Financial"] } });
    expect(
      runPolicyChecks(pull([auto({ ownership_type: "FINANCE", lien_holder: "ally financial" })]), rules).status,
    ).toBe("COMPLIANT");
    expect(runPolicyChecks(pull([auto({ ownership_type: "LEASE", lien_holder: "Chase Auto" })]), rules).status).toBe(
      "NOT_COMPLIANT",
    );
    expect(runPolicyChecks(pull([auto({ ownership_type: "FINANCE", lien_holder: null })]), rules).status).toBe(
      "REVIEW_REQUIRED",
    );
    expect(runPolicyChecks(pull([auto({ ownership_type: "OWN" })]), rules).results).toEqual([]);
  });

  it("compares limits and deductibles, a combined single limit counting per person and per accident", () => {
    const rules = settings({
      policy_check_settings: {
        vehicle: {
          MAX_COMPREEHENSIVE_DEDUCTIBLE_CENTS: 50_000,
          MIN_BODILY_INJURY_COVERAGE: { per_person_cents: 10_000_000, per_accident_cents: 30_000_000 },
        },
      },
    });
    expect(rules.vehicle.MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS).toBe(50_000);
    const split = auto({
      coverages: [
        coverage("Comprehensive", { deductible_cents: 100_000 }),
        coverage("Bodily Injury Liability", {
          per_person_limit_cents: 10_000_000,
          per_incident_limit_cents: 30_000_000,
        }),
      ],
    });
    const byCheck = Object.fromEntries(runPolicyChecks(pull([split]), rules).results.map((r) => [r.check, r.result]));
    expect(byCheck).toEqual({ MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS: "FAILED", MIN_BODILY_INJURY_COVERAGE: "PASSED" });
    const csl = auto({
      coverages: [
        coverage("Comprehensive", { deductible_cents: null }),
        { ...coverage("Combined Single Limit", { per_incident_limit_cents: 50_000_000 }), name: "CSL" },
      ],
    });
    expect(runPolicyChecks(pull([csl]), rules).results.map((r) => r.result)).toEqual(["REVIEW_REQUIRED", "PASSED"]);
    const declined = auto({ coverages: [coverage("Comprehensive", { is_declined: true })] });
    expect(runPolicyChecks(pull([declined]), rules).results.map((r) => r.result)).toEqual(["FAILED", "FAILED"]);
  });

  it("checks dwellings: inactive policy, loss settlement, replacement cost against the dwelling limit", () => {
    const rules = settings({
      dwelling: { LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST: true, REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT: true },
    });
    const covered = home({
      loss_settlement_type: "REPLACEMENT_COST",
      replacement_cost_cents: 30_000_000,
      coverages: [{ name: "DWELLING", per_incident_limit_cents: 35_000_000 }],
    });
    expect(runPolicyChecks(pull([covered]), rules).status).toBe("COMPLIANT");
    const short = home({
      loss_settlement_type: "ACTUAL_CASH_VALUE",
      replacement_cost_cents: 40_000_000,
      coverages: [{ name: "DWELLING", per_incident_limit_cents: 35_000_000 }],
    });
    expect(runPolicyChecks(pull([short]), rules).results.map((r) => [r.check, r.result, r.dwelling_id])).toEqual([
      ["LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST", "FAILED", "d"],
      ["REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT", "FAILED", "d"],
    ]);
    expect(() => settingsBodySchema.parse({ dwelling: { FLOOD_ZONE: true } })).toThrow();
  });
});
