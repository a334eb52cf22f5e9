import "server-only";
import type { ServiceConfig } from "@/lib/service/client";
import { savePolicyCheckSettings, type PolicyCheckSettingsInput } from "@/lib/service/policy-check-api";

// The demo agency's policy-check rules, saved at the (sandbox) service before its accounts
// arrive, so that the service checks each one as it links and the pull pages show the results
// on first run. An agency's usual floor: 100/300/100 liability, uninsured motorist at the same,
// deductibles up to $1,000, and homes insured to their replacement cost.

export const DEMO_POLICY_CHECK_RULES: PolicyCheckSettingsInput = {
  vehicle: {
    POLICY_NOT_ACTIVE: true,
    NO_COLLISION_COVERAGE: true,
    NO_COMPREHENSIVE_COVERAGE: true,
    MAX_COLLISION_DEDUCTIBLE_CENTS: 100_000,
    MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS: 100_000,
    MIN_PROPERTY_DAMAGE_COVERAGE_CENTS: 10_000_000,
    MIN_BODILY_INJURY_COVERAGE: { per_person_cents: 10_000_000, per_accident_cents: 30_000_000 },
    MIN_UNINSURED_MOTORIST_BODILY_INJURY_COVERAGE: { per_person_cents: 10_000_000, per_accident_cents: 30_000_000 },
  },
  dwelling: {
    DWELLING_POLICY_NOT_ACTIVE: true,
    LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST: true,
    REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT: true,
  },
};

/** Saves the rules; a plan without the policy check (or an outage) leaves the demo without them, said in the log. */
export async function saveDemoPolicyCheckRules(service: ServiceConfig, log: (line: string) => void): Promise<void> {
  try {
    await savePolicyCheckSettings(service, DEMO_POLICY_CHECK_RULES);
    log("policy-check rules saved at the service");
  } catch (error) {
    log(`policy-check rules not saved: ${error instanceof Error ? error.message : String(error)}`);
  }
}
