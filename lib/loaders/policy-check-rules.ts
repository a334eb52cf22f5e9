import "server-only";
import type { ServiceConfig } from "@/lib/service/client";
import { getPolicyCheckSettings } from "@/lib/service/policy-check-api";
import { NOT_IN_PLAN, policyCheckFailure } from "@/lib/policy-check/runs";
import { settingsInput, settingsToForm, type PolicyCheckForm } from "@/lib/policy-check/rules";

// Admin › Policy check: the team's rules as the service holds them (they live there).

export type PolicyCheckRulesPage =
  { ok: true; form: PolicyCheckForm } | { ok: false; notInPlan: boolean; message: string };

export async function loadPolicyCheckRulesPage(service: ServiceConfig): Promise<PolicyCheckRulesPage> {
  try {
    const settings = await getPolicyCheckSettings(service);
    return { ok: true, form: settingsToForm(settingsInput(settings.value)) };
  } catch (error) {
    const { message } = policyCheckFailure(error);
    return { ok: false, notInPlan: message === NOT_IN_PLAN, message };
  }
}
