import "server-only";
import { z } from "zod";
import { serviceRequest, type ServiceConfig } from "./client";
import { readAnswer } from "./read-answer";
import { pullSessionResponseSchema, type PullSessionResponse } from "./schemas";

// Credential-less policy search (service-notes, "Policy search"): the consumer's consent plus
// what identifies the policy (a policy number and ZIP code, a VIN, an address) instead of a
// login. The pull it makes completes like a link and is announced by the same webhooks. Never
// retried: each call starts a (billed) search.

export const POLICY_SEARCH_CARRIERS = [
  "allstate",
  "amfam",
  "autoowners",
  "farmers",
  "nationwide",
  "progressive",
  "usaa",
] as const;
export const POLICY_SEARCH_TYPES = ["AUTO_ID_CARD", "AUTO_POLICY", "HOME_POLICY"] as const;

export const policySearchSchema = z.object({
  device_identifier: z.string().trim().min(1).max(200),
  /** The integer version of GET /tos that the consumer was shown. */
  terms_version: z.number().int().positive(),
  consent_language: z.string().trim().min(1).max(1024),
  public_alias: z.string().trim().min(1).max(200),
  insurerName: z.enum(POLICY_SEARCH_CARRIERS),
  searchType: z.enum(POLICY_SEARCH_TYPES),
  /** Carrier-specific keys (policyNumber, zipCode, vin, …); the service says which it needs. */
  searchData: z
    .record(z.string().min(1).max(100), z.string().trim().min(1).max(500))
    .refine((data) => Object.keys(data).length > 0, "searchData is empty."),
  meta_data: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(),
});
export type PolicySearchInput = z.input<typeof policySearchSchema>;

export async function searchPolicy(config: ServiceConfig, input: PolicySearchInput): Promise<PullSessionResponse> {
  const body = policySearchSchema.parse(input);
  const response = await serviceRequest(config, {
    method: "POST",
    path: "/policySearch",
    teamScoped: true,
    idempotent: false,
    body,
  });
  return readAnswer(pullSessionResponseSchema, response, "POST /policySearch").value;
}
