import { z } from "zod";
import type { SandboxContext } from "../context";
import type { Carrier } from "../data/policies";
import { announceData, setStatus } from "./link";
import { checkSubmission } from "./policy-check";
import { linkedPull, startedPull, type LinkDetails } from "./outcome";
import { flowState, pause } from "./state";
import { widgetByAlias } from "./team-state";
import { issuePullJwt } from "./tokens";

// Credential-less policy search (service-notes, "Policy search"): the consumer gives a policy
// number, a VIN or an address instead of a login; the service finds the one policy and the
// pull (type POLICY_LOOKUP) completes like a link, with the same webhooks but no AUTH_STATUS
// (there is no login), going STARTED → QUEUED → PROCESSING → SUCCESS.

export const SEARCH_CARRIERS: Readonly<Record<string, string>> = {
  allstate: "Allstate",
  amfam: "American Family",
  autoowners: "Auto-Owners",
  farmers: "Farmers",
  nationwide: "Nationwide",
  progressive: "Progressive",
  usaa: "USAA",
};
export const SEARCH_TYPES = ["AUTO_ID_CARD", "AUTO_POLICY", "HOME_POLICY"] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/**
 * The searchData forms accepted, per search type (the service's are carrier-specific; these
 * follow its published examples). Anything else, missing or extra keys alike, is
 * INVALID_POLICY_LOOKUP_DATA.
 */
const FORMS: Record<SearchType, string[][]> = {
  AUTO_ID_CARD: [
    ["policyNumber", "zipCode"],
    ["firstName", "lastName", "zipCode", "dateOfBirth"],
  ],
  AUTO_POLICY: [["vin"], ["policyNumber", "zipCode"]],
  HOME_POLICY: [
    ["streetAddress", "zipCode", "policyNumber"],
    ["streetAddress", "zipCode", "lastName"],
  ],
};
/** Says which form of a carrier's that uses several is meant (Farmers); never required. */
const OPTIONAL_KEYS = ["policyNumberOrInfo"];
/** Sandbox trigger: this ZIP code makes the search fail inside the service (500 INTERNAL_ERROR). */
export const INTERNAL_ERROR_ZIP = "00000";

export const policySearchSchema = z.object({
  device_identifier: z.string().trim().min(1).max(500),
  terms_version: z.number().int().min(1),
  consent_language: z.string().trim().min(1).max(1024),
  public_alias: z.string().trim().min(1).max(200),
  insurerName: z.enum(Object.keys(SEARCH_CARRIERS) as [string, ...string[]]),
  searchType: z.enum(SEARCH_TYPES),
  searchData: z.record(z.string(), z.unknown()),
  meta_data: z.union([z.string().max(20_000), z.record(z.string(), z.unknown()), z.null()]).optional(),
});
export type PolicySearch = z.output<typeof policySearchSchema>;

export function lookupDataFits(type: SearchType, data: Record<string, unknown>): boolean {
  const keys = Object.keys(data).filter((k) => !OPTIONAL_KEYS.includes(k));
  const filled = keys.every((k) => typeof data[k] === "string" && (data[k] as string).trim() !== "");
  return filled && FORMS[type].some((form) => form.length === keys.length && form.every((k) => keys.includes(k)));
}

type Failure = { ok: false; status: number; code: string; message?: string };

export function submitPolicySearch(
  ctx: SandboxContext,
  search: PolicySearch,
  metaData: unknown,
): { ok: true; answer: { pull_id: string; pull_jwt: string } } | Failure {
  const widget = widgetByAlias(ctx, search.public_alias);
  if (!widget)
    return {
      ok: false,
      status: 400,
      code: "INVALID_PUBLIC_ALIAS",
      message: `No link with the alias ${JSON.stringify(search.public_alias)}.`,
    };
  if (!lookupDataFits(search.searchType, search.searchData))
    return {
      ok: false,
      status: 400,
      code: "INVALID_POLICY_LOOKUP_DATA",
      message: `searchData: use one of ${FORMS[search.searchType].map((f) => f.join("+")).join(" or ")}`,
    };
  if (search.searchData.zipCode === INTERNAL_ERROR_ZIP) return { ok: false, status: 500, code: "INTERNAL_ERROR" };

  const state = flowState(ctx);
  const carrier: Carrier = [search.insurerName, SEARCH_CARRIERS[search.insurerName] ?? search.insurerName];
  const details: LinkDetails = {
    carrier,
    username: `search:${JSON.stringify(search.searchData)}`,
    publicAlias: widget.public_alias,
    metaData,
    widgetId: widget.widget_id,
    teamId: ctx.options.teamId,
  };
  const pull = { ...startedPull(state.random, ctx.clock.now(), details), type: "POLICY_LOOKUP" };
  ctx.state.pulls.set(pull.pull_id, pull);
  const line = search.searchType === "HOME_POLICY" ? "home" : "auto";

  const alive = () => flowState(ctx) === state && ctx.state.pulls.has(pull.pull_id) && !ctx.deliveries.isClosed;
  const run = async () => {
    for (const status of ["QUEUED", "PROCESSING"]) {
      await pause(ctx);
      if (!alive()) return;
      setStatus(ctx, pull.pull_id, status);
    }
    await pause(ctx, 2);
    const started = ctx.state.pulls.get(pull.pull_id);
    if (!alive() || !started) return;
    const found = linkedPull(
      state.random,
      ctx.clock.now(),
      started,
      { kind: "success", line, variant: { type: "POLICY_LOOKUP" } },
      details,
    );
    // Found by its policy, not by a login: no account identifier, as on every POLICY_LOOKUP pull.
    ctx.state.pulls.set(pull.pull_id, { ...found, status: "SUCCESS", account_identifier: null });
    checkSubmission(ctx, pull.pull_id);
    announceData(ctx, pull.pull_id);
  };
  run().catch((error: unknown) =>
    ctx.log(`policy search ${pull.pull_id} failed: ${error instanceof Error ? error.message : String(error)}`),
  );
  return { ok: true, answer: { pull_id: pull.pull_id, pull_jwt: issuePullJwt(ctx, pull.pull_id) } };
}
