import type { PolicyCheckResult } from "@/lib/service/schemas";

// The service's policy check in words (service-notes, "Policy check"): what each rule asks, and
// each result of a pull as a row the page and the tests read. The service publishes the rules'
// names but not the form of its results; a rule or outcome it adds later shows as sent.

export const VEHICLE_RULE_WORDS = {
  POLICY_NOT_ACTIVE: "The auto policy is active",
  LIENHOLDER_NAME_MISMATCH: "A financed or leased vehicle names a required lien holder",
  DRIVER_REMOVED: "No driver was removed from the vehicle",
  VEHICLE_REMOVED: "The vehicle is still on the policy",
  NO_COLLISION_COVERAGE: "The vehicle has collision coverage",
  NO_COMPREHENSIVE_COVERAGE: "The vehicle has comprehensive coverage",
  MAX_COLLISION_DEDUCTIBLE_CENTS: "Collision deductible at most the maximum",
  MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS: "Comprehensive deductible at most the maximum",
  MIN_PROPERTY_DAMAGE_COVERAGE_CENTS: "Property damage limit at least the minimum",
  MIN_BODILY_INJURY_COVERAGE: "Bodily injury limits at least the minimum",
  MIN_UNINSURED_MOTORIST_BODILY_INJURY_COVERAGE: "Uninsured motorist bodily injury limits at least the minimum",
} as const;

export const DWELLING_RULE_WORDS = {
  DWELLING_POLICY_NOT_ACTIVE: "The home policy is active",
  LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST: "Losses are settled at replacement cost",
  REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT: "The dwelling limit covers the replacement cost",
} as const;

const RULE_WORDS: Record<string, string> = { ...VEHICLE_RULE_WORDS, ...DWELLING_RULE_WORDS };

/** "MIN_BODILY_INJURY_COVERAGE" → its words; a rule we do not know → "Some new rule" from its name. */
export function ruleWords(check: string | null): string {
  if (!check) return "A rule the service did not name";
  const known = RULE_WORDS[check];
  if (known) return known;
  const words = check.replace(/_/g, " ").toLowerCase().trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : "A rule the service did not name";
}

export type CheckOutcome = "PASS" | "FAIL" | "REVIEW" | "OTHER";

/** PASSED / FAILED / REVIEW_REQUIRED as our sandbox sends; other spellings read the same way. */
export function outcomeOf(result: string | null): CheckOutcome {
  const value = (result ?? "").toUpperCase();
  if (["PASSED", "PASS", "COMPLIANT", "TRUE"].includes(value)) return "PASS";
  if (["FAILED", "FAIL", "NOT_COMPLIANT", "FALSE"].includes(value)) return "FAIL";
  if (value.startsWith("REVIEW")) return "REVIEW";
  return "OTHER";
}

export const OUTCOME_WORDS: Record<CheckOutcome, string> = {
  PASS: "Pass",
  FAIL: "Fail",
  REVIEW: "Review",
  OTHER: "Not stated",
};

export const STATUS_WORDS: Record<string, string> = {
  COMPLIANT: "Compliant: every rule passed",
  NOT_COMPLIANT: "Not compliant: at least one rule failed",
  REVIEW_REQUIRED: "Review required: the data could not settle every rule",
};

/** What a pull's policy_check_status says, in words; unknown values (the service's NONE…) as sent. */
export function statusWords(status: string | null): string {
  if (!status || status === "NONE") return "Not checked";
  return STATUS_WORDS[status] ?? status;
}

/** What a result is about, named from the pull: the vehicle, the dwelling or the policy. */
export type SubjectNames = {
  vehicle: (id: string) => string | null;
  dwelling: (id: string) => string | null;
  policy: (id: string) => string | null;
  /** What the carrier has on file for the result's rule and subject (./policy-check-values.ts). */
  onFile?: (result: PolicyCheckResult) => string | null;
};

export type CheckRow = {
  rule: string;
  ruleWords: string;
  outcome: CheckOutcome;
  /** The outcome as the service spelled it, shown where we do not know it. */
  outcomeText: string;
  subject: string;
  /** The service's message: the values behind the outcome. */
  message: string;
  /** The carrier's figure for the rule, from the pull; null when the pull cannot tell. */
  onFile: string | null;
};

export function checkRows(results: PolicyCheckResult[], names: SubjectNames): CheckRow[] {
  const rows = results.map((r) => {
    const subject =
      (r.vehicle_id && (names.vehicle(r.vehicle_id) ?? "A vehicle not on this pull")) ||
      (r.dwelling_id && (names.dwelling(r.dwelling_id) ?? "A dwelling not on this pull")) ||
      (r.policy_id && (names.policy(r.policy_id) ?? "A policy not on this pull")) ||
      "The account";
    const outcome = outcomeOf(r.result);
    return {
      rule: r.check ?? "",
      ruleWords: ruleWords(r.check),
      outcome,
      outcomeText: outcome === "OTHER" ? (r.result ?? "Not stated") : OUTCOME_WORDS[outcome],
      subject,
      message: r.message ?? "",
      onFile: names.onFile?.(r) ?? null,
    };
  });
  // Failures first, then reviews, then passes: what an agent must act on leads.
  const order: Record<CheckOutcome, number> = { FAIL: 0, REVIEW: 1, OTHER: 2, PASS: 3 };
  return rows.sort((a, b) => order[a.outcome] - order[b.outcome]);
}
