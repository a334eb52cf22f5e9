import "server-only";
import { z } from "zod";
import { serviceRequest, type ServiceConfig } from "./client";
import { ServiceError } from "./errors";
import { readAnswer, type Answer } from "./read-answer";
import { parsePullResponse, policyCheckSettingsResponseSchema, type PolicyCheckSettings, type Pull } from "./schemas";

// Policy check (service-notes, "Policy check"): the team's rules, running them on one pull on
// demand, and the pull's report as a PDF. All are plan-gated (403 FORBIDDEN without it). We
// always write the correct key MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS, in the wrapper.

const cents = z.number().int().min(0).nullable();
const minimum = z.strictObject({ per_person_cents: cents.optional(), per_accident_cents: cents.optional() });

export const vehicleRulesSchema = z.strictObject({
  POLICY_NOT_ACTIVE: z.boolean().optional(),
  /** Lien holders a financed vehicle must name; empty turns the check off. */
  LIENHOLDER_NAME_MISMATCH: z.array(z.string().trim().min(1).max(200)).max(50).optional(),
  DRIVER_REMOVED: z.boolean().optional(),
  VEHICLE_REMOVED: z.boolean().optional(),
  NO_COLLISION_COVERAGE: z.boolean().optional(),
  NO_COMPREHENSIVE_COVERAGE: z.boolean().optional(),
  MAX_COLLISION_DEDUCTIBLE_CENTS: cents.optional(),
  MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS: cents.optional(),
  MIN_PROPERTY_DAMAGE_COVERAGE_CENTS: cents.optional(),
  MIN_BODILY_INJURY_COVERAGE: minimum.optional(),
  MIN_UNINSURED_MOTORIST_BODILY_INJURY_COVERAGE: minimum.optional(),
});
export const dwellingRulesSchema = z.strictObject({
  DWELLING_POLICY_NOT_ACTIVE: z.boolean().optional(),
  LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST: z.boolean().optional(),
  REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT: z.boolean().optional(),
});
export const policyCheckSettingsInputSchema = z.strictObject({
  vehicle: vehicleRulesSchema.optional(),
  dwelling: dwellingRulesSchema.optional(),
});
export type PolicyCheckSettingsInput = z.input<typeof policyCheckSettingsInputSchema>;

export const runPolicyCheckSchema = z.strictObject({
  policy_check_settings: policyCheckSettingsInputSchema,
  /** Passed on as given: the service does not publish their shape. */
  filters: z.record(z.string(), z.unknown()).optional(),
});

const pullPath = (pullId: string, rest: string) =>
  `/pulls/${encodeURIComponent(z.uuid().parse(pullId))}/policyCheck${rest}`;

export async function getPolicyCheckSettings(config: ServiceConfig): Promise<Answer<PolicyCheckSettings>> {
  const response = await serviceRequest(config, {
    method: "GET",
    path: "/policyChecks/settings",
    teamScoped: true,
    idempotent: true,
  });
  return readAnswer(policyCheckSettingsResponseSchema, response, "GET /policyChecks/settings");
}

/** Sets the rules named (the others stay as they are); answers the settings now held. */
export async function savePolicyCheckSettings(
  config: ServiceConfig,
  settings: PolicyCheckSettingsInput,
): Promise<Answer<PolicyCheckSettings>> {
  const body = { policy_check_settings: policyCheckSettingsInputSchema.parse(settings) };
  const response = await serviceRequest(config, {
    method: "POST",
    path: "/policyChecks/settings",
    teamScoped: true,
    idempotent: false,
    body,
  });
  return readAnswer(policyCheckSettingsResponseSchema, response, "POST /policyChecks/settings");
}

/** Runs the given rules on the pull now; answers the pull with its policy_check_status and results. */
export async function runPolicyCheck(
  config: ServiceConfig,
  pullId: string,
  input: z.input<typeof runPolicyCheckSchema>,
): Promise<Answer<Pull>> {
  const body = runPolicyCheckSchema.parse(input);
  const path = pullPath(pullId, "");
  const response = await serviceRequest(config, { method: "POST", path, teamScoped: true, idempotent: false, body });
  const parsed = parsePullResponse(response.body);
  if (!parsed.ok)
    throw new ServiceError({
      status: response.status,
      code: "INVALID_RESPONSE",
      message: `POST ${path}: ${parsed.error}`,
      retryable: false,
    });
  return { value: parsed.pull, problems: parsed.problems };
}

/** The pull's policy-check report: the bytes of a PDF. */
export async function getPolicyCheckReport(config: ServiceConfig, pullId: string): Promise<Buffer> {
  const path = pullPath(pullId, "/pdf");
  const response = await serviceRequest(config, {
    method: "GET",
    path,
    teamScoped: true,
    idempotent: true,
    binary: true,
  });
  const body = response.body;
  if (!Buffer.isBuffer(body) || body.subarray(0, 5).toString("latin1") !== "%PDF-") {
    throw new ServiceError({
      status: response.status,
      code: "INVALID_RESPONSE",
      message: `GET ${path}: the answer is not a PDF`,
      retryable: false,
    });
  }
  return body;
}
