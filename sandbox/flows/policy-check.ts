import type { SandboxContext } from "../context";
import type { SandboxPull } from "../data/pulls";
import type { DwellingRules, Minimum, PolicyCheckSettings, VehicleRules } from "./policy-check-settings";
import { teamState } from "./team-state";

// Running the team's policy checks on a pull (service-notes, "Policy check"): each configured
// rule is checked on every vehicle and every dwelling, and the pull gets a status (spec 2.1
// policy_check_status) and the list of results behind it (`policy_check_results`). A rule the
// data cannot settle (a missing limit, no lien holder named) asks for a review, never passes.

export type CheckOutcome = "PASSED" | "FAILED" | "REVIEW_REQUIRED";

export type PolicyCheckResult = {
  check: string;
  result: CheckOutcome;
  policy_id: string | null;
  vehicle_id: string | null;
  dwelling_id: string | null;
  message: string;
};

type Row = Record<string, unknown>;
const rows = (value: unknown): Row[] =>
  Array.isArray(value) ? value.filter((v): v is Row => typeof v === "object" && v !== null) : [];
const num = (value: unknown): number | null => (typeof value === "number" ? value : null);
const str = (value: unknown): string | null => (typeof value === "string" ? value : null);
const dollars = (cents: number) => `$${(cents / 100).toLocaleString("en-US")}`;

/** The insured's (not declined) coverage among these friendly names. */
function coverage(vehicle: Row, names: readonly string[]): Row | null {
  return rows(vehicle.coverages).find((c) => names.includes(String(c.friendly_name)) && c.is_declined !== true) ?? null;
}

const COLLISION = ["Collision"];
const COMPREHENSIVE = ["Comprehensive"];
const PROPERTY_DAMAGE = ["Property Damage Liability", "Combined Single Limit", "Single Limit Liability"];
const BODILY_INJURY = ["Bodily Injury Liability", "Combined Single Limit", "Single Limit Liability"];
const UNINSURED_BI = [
  "Uninsured Motorist Bodily Injury Liability",
  "Uninsured / Underinsured Motorist Bodily Injury Liability",
  "Uninsured Motorists",
  "Uninsured / Underinsured Motorists",
  "Uninsured Motorist Bodily Injury & Property Damage Liability",
];

type Verdict = [CheckOutcome, string];

function maxDeductible(vehicle: Row, names: readonly string[], max: number, label: string): Verdict {
  const found = coverage(vehicle, names);
  const deductible = num(found?.deductible_cents);
  if (!found) return ["FAILED", `No ${label} coverage.`];
  if (deductible === null) return ["REVIEW_REQUIRED", `The ${label} deductible is not known.`];
  return deductible <= max
    ? ["PASSED", `${label} deductible ${dollars(deductible)}.`]
    : ["FAILED", `${label} deductible ${dollars(deductible)} is above ${dollars(max)}.`];
}

/** A split limit against a minimum per person and per accident (a combined single limit counts for both). */
function minimumLimits(vehicle: Row, names: readonly string[], min: Minimum, label: string): Verdict {
  const found = coverage(vehicle, names);
  if (!found) return ["FAILED", `No ${label} coverage.`];
  const combined = num(found.per_incident_limit_cents);
  const perPerson =
    found.per_person_unlimited === true
      ? Infinity
      : (num(found.per_person_limit_cents) ?? (found.name === "CSL" ? combined : null));
  const perAccident = found.per_incident_unlimited === true ? Infinity : combined;
  const short: string[] = [];
  for (const [wanted, actual, what] of [
    [min.per_person_cents, perPerson, "per person"],
    [min.per_accident_cents, perAccident, "per accident"],
  ] as const) {
    if (wanted === null) continue;
    if (actual === null) return ["REVIEW_REQUIRED", `The ${label} limit ${what} is not known.`];
    if (actual < wanted) short.push(`${what} below ${dollars(wanted)}`);
  }
  return short.length ? ["FAILED", `${label}: ${short.join(", ")}.`] : ["PASSED", `${label} limits meet the minimum.`];
}

function vehicleVerdicts(policy: Row, vehicle: Row, rules: VehicleRules): Array<[string, Verdict]> {
  const out: Array<[string, Verdict]> = [];
  if (rules.POLICY_NOT_ACTIVE)
    out.push([
      "POLICY_NOT_ACTIVE",
      policy.status === "ACTIVE"
        ? ["PASSED", "The policy is active."]
        : ["FAILED", `The policy is ${str(policy.status) ?? "of unknown status"}.`],
    ]);
  if (
    rules.LIENHOLDER_NAME_MISMATCH.length > 0 &&
    (vehicle.ownership_type === "FINANCE" || vehicle.ownership_type === "LEASE")
  ) {
    const holder = str(vehicle.lien_holder);
    const wanted = rules.LIENHOLDER_NAME_MISMATCH.map((n) => n.toLowerCase());
    out.push([
      "LIENHOLDER_NAME_MISMATCH",
      holder === null
        ? ["REVIEW_REQUIRED", "The vehicle is financed but no lien holder is named."]
        : wanted.includes(holder.toLowerCase())
          ? ["PASSED", `Lien holder ${holder}.`]
          : ["FAILED", `Lien holder ${holder} is not one of the required names.`],
    ]);
  }
  // Without the previous pull of a monitoring, a removal shows as a vehicle or driver the policy excludes.
  if (rules.VEHICLE_REMOVED)
    out.push([
      "VEHICLE_REMOVED",
      vehicle.is_removed === true
        ? ["FAILED", "The vehicle was removed from the policy."]
        : ["PASSED", "The vehicle is on the policy."],
    ]);
  if (rules.DRIVER_REMOVED) {
    const excluded = rows(vehicle.drivers).filter((d) => d.is_excluded === true).length;
    out.push([
      "DRIVER_REMOVED",
      excluded > 0
        ? ["FAILED", `${excluded} driver(s) excluded from the vehicle.`]
        : ["PASSED", "No driver was removed."],
    ]);
  }
  if (rules.NO_COLLISION_COVERAGE)
    out.push([
      "NO_COLLISION_COVERAGE",
      coverage(vehicle, COLLISION) ? ["PASSED", "Collision coverage included."] : ["FAILED", "No collision coverage."],
    ]);
  if (rules.NO_COMPREHENSIVE_COVERAGE)
    out.push([
      "NO_COMPREHENSIVE_COVERAGE",
      coverage(vehicle, COMPREHENSIVE)
        ? ["PASSED", "Comprehensive coverage included."]
        : ["FAILED", "No comprehensive coverage."],
    ]);
  if (rules.MAX_COLLISION_DEDUCTIBLE_CENTS !== null)
    out.push([
      "MAX_COLLISION_DEDUCTIBLE_CENTS",
      maxDeductible(vehicle, COLLISION, rules.MAX_COLLISION_DEDUCTIBLE_CENTS, "Collision"),
    ]);
  if (rules.MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS !== null)
    out.push([
      "MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS",
      maxDeductible(vehicle, COMPREHENSIVE, rules.MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS, "Comprehensive"),
    ]);
  if (rules.MIN_PROPERTY_DAMAGE_COVERAGE_CENTS !== null)
    out.push([
      "MIN_PROPERTY_DAMAGE_COVERAGE_CENTS",
      minimumLimits(
        vehicle,
        PROPERTY_DAMAGE,
        { per_person_cents: null, per_accident_cents: rules.MIN_PROPERTY_DAMAGE_COVERAGE_CENTS },
        "Property damage",
      ),
    ]);
  const bi = rules.MIN_BODILY_INJURY_COVERAGE;
  if (bi.per_person_cents !== null || bi.per_accident_cents !== null)
    out.push(["MIN_BODILY_INJURY_COVERAGE", minimumLimits(vehicle, BODILY_INJURY, bi, "Bodily injury")]);
  const um = rules.MIN_UNINSURED_MOTORIST_BODILY_INJURY_COVERAGE;
  if (um.per_person_cents !== null || um.per_accident_cents !== null)
    out.push([
      "MIN_UNINSURED_MOTORIST_BODILY_INJURY_COVERAGE",
      minimumLimits(vehicle, UNINSURED_BI, um, "Uninsured motorist bodily injury"),
    ]);
  return out;
}

function dwellingVerdicts(policy: Row, dwelling: Row, rules: DwellingRules): Array<[string, Verdict]> {
  const out: Array<[string, Verdict]> = [];
  if (rules.DWELLING_POLICY_NOT_ACTIVE)
    out.push([
      "DWELLING_POLICY_NOT_ACTIVE",
      policy.status === "ACTIVE"
        ? ["PASSED", "The policy is active."]
        : ["FAILED", `The policy is ${str(policy.status) ?? "of unknown status"}.`],
    ]);
  if (rules.LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST) {
    const type = str(dwelling.loss_settlement_type);
    out.push([
      "LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST",
      type === null
        ? ["REVIEW_REQUIRED", "The loss settlement type is not known."]
        : type === "REPLACEMENT_COST"
          ? ["PASSED", "Losses are settled at replacement cost."]
          : ["FAILED", `Losses are settled at ${type}.`],
    ]);
  }
  if (rules.REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT) {
    const cost = num(dwelling.replacement_cost_cents);
    const limit = num(rows(dwelling.coverages).find((c) => c.name === "DWELLING")?.per_incident_limit_cents);
    out.push([
      "REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT",
      cost === null || limit === null
        ? ["REVIEW_REQUIRED", "The replacement cost or the dwelling limit is not known."]
        : cost > limit
          ? ["FAILED", `Replacement cost ${dollars(cost)} exceeds the dwelling limit ${dollars(limit)}.`]
          : ["PASSED", `The dwelling limit ${dollars(limit)} covers the replacement cost.`],
    ]);
  }
  return out;
}

export function runPolicyChecks(
  pull: SandboxPull,
  settings: PolicyCheckSettings,
): { status: string | null; results: PolicyCheckResult[] } {
  const results: PolicyCheckResult[] = [];
  for (const policy of rows(pull.policies)) {
    const policyId = str(policy.policy_id);
    for (const vehicle of rows(policy.vehicles)) {
      for (const [check, [result, message]] of vehicleVerdicts(policy, vehicle, settings.vehicle))
        results.push({
          check,
          result,
          policy_id: policyId,
          vehicle_id: str(vehicle.vehicle_id),
          dwelling_id: null,
          message,
        });
    }
    for (const dwelling of rows(policy.dwellings)) {
      for (const [check, [result, message]] of dwellingVerdicts(policy, dwelling, settings.dwelling))
        results.push({
          check,
          result,
          policy_id: policyId,
          vehicle_id: null,
          dwelling_id: str(dwelling.dwelling_id),
          message,
        });
    }
  }
  // Nothing to check (no rule set, or nothing it applies to): no status, as on an unchecked pull.
  if (results.length === 0) return { status: null, results };
  const status = results.some((r) => r.result === "FAILED")
    ? "NOT_COMPLIANT"
    : results.some((r) => r.result === "REVIEW_REQUIRED")
      ? "REVIEW_REQUIRED"
      : "COMPLIANT";
  return { status, results };
}

/** Runs `settings` on the stored pull and keeps the outcome on it; null when the pull is gone. */
export function checkPull(ctx: SandboxContext, pullId: string, settings: PolicyCheckSettings): SandboxPull | null {
  const pull = ctx.state.pulls.get(pullId);
  if (!pull) return null;
  const { status, results } = runPolicyChecks(pull, settings);
  const checked: SandboxPull = { ...pull, policy_check_status: status, policy_check_results: results };
  ctx.state.pulls.set(pullId, checked);
  return checked;
}

/** "All configured checks run on every submission": a new pull is checked when the plan has it and a rule is set. */
export function checkSubmission(ctx: SandboxContext, pullId: string): void {
  const team = teamState(ctx);
  if (!team.plan.policyCheck) return;
  const pull = ctx.state.pulls.get(pullId);
  if (pull && runPolicyChecks(pull, team.policyCheckSettings).results.length > 0)
    checkPull(ctx, pullId, team.policyCheckSettings);
}
