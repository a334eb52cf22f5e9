import "server-only";
import type { Db } from "@/db/types";
import { can } from "@/lib/auth/permissions";
import type { ServiceConfig } from "@/lib/service/client";
import { savePolicyCheckSettings } from "@/lib/service/policy-check-api";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { forbidden, invalid, type CommandResult } from "@/lib/core/result";
import { policyCheckFailure } from "./runs";
import { formToSettings, settingsInput } from "./rules";

// The team's policy-check rules on Admin › Policy check: read from the service and saved to it
// (they live there: every submission is checked against them), each save in the audit trail.

export async function savePolicyCheckRules(
  db: Db,
  service: ServiceConfig,
  actor: Actor,
  form: Record<string, string | undefined>,
): Promise<CommandResult> {
  if (!can(actor, "rules:manage")) return forbidden("Only admins can change the policy-check rules.");
  const parsed = formToSettings(form);
  if (!parsed.ok) return invalid(parsed.message, parsed.field);
  let saved;
  try {
    saved = settingsInput((await savePolicyCheckSettings(service, parsed.settings)).value);
  } catch (error) {
    return policyCheckFailure(error);
  }
  await recordAudit(db, actor, "POLICY_CHECK_RULES_CHANGED", { details: { rules: saved } });
  return { ok: true };
}
