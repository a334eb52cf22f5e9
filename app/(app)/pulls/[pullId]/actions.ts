"use server";

import { revalidatePath } from "next/cache";
import { formAction, pullIdInput } from "@/lib/auth/action-guard";
import { decideFinding, decideFindingInputSchema } from "@/lib/review/decisions";
import { requestEnrichment, requestEnrichmentInputSchema } from "@/lib/enrichment/request";
import { rerunPolicyCheck } from "@/lib/policy-check/runs";
import { env } from "@/lib/env";
import { sendPullToAgencyzoom } from "@/lib/handoff/agencyzoom-send";
import { toFormState, type FormState } from "@/lib/core/form-state";
import { requestServicingChange, requestServicingInputSchema } from "@/lib/servicing/request";
import { revokeServicingLink, revokeServicingLinkInputSchema } from "@/lib/servicing/revoke-link";
import {
  liftLegalHold,
  liftLegalHoldInputSchema,
  placeLegalHold,
  placeLegalHoldInputSchema,
} from "@/lib/privacy/legal-holds";

// The actions of a pull's page. The guard resolves the user, asks the permission table and reads
// each form into its command's schema; the command checks the pull itself (may they see it, work
// it?) and validates again.

// The coverage review's decisions (the E&O record): decideFinding also checks that the finding
// is in the account's current review.
export const decideFindingAction = formAction(
  "findings:decide",
  decideFindingInputSchema,
  async ({ user, input, db }) => {
    const result = await decideFinding(db, user, input);
    if (result.ok) revalidatePath(`/pulls/${input.pullId}`);
    return toFormState(result, "Decision saved.");
  },
);

// "Run the check again" on the service's policy check; rerunPolicyCheck checks the pull itself.
export const rerunPolicyCheckAction = formAction("policy-check:run", pullIdInput, async ({ user, input, db }) => {
  const result = await rerunPolicyCheck(db, env().service, user, input.pullId);
  if (result.ok) revalidatePath(`/pulls/${input.pullId}`);
  return toFormState(result, "The service checked the pull again.");
});

// A servicing request for a WON client (lib/servicing/request.ts checks the pull, the stage, the
// carrier's supported changes and every field, and keeps the request even when the service refuses).
export const requestServicingAction = formAction(
  "servicing:request",
  requestServicingInputSchema,
  async ({ user, input, db }) => {
    const result = await requestServicingChange(db, env().service, user, input);
    revalidatePath(`/pulls/${input.pullId}`);
    return toFormState(result, "Sent to the service. Send the client their confirm link from the list below.");
  },
);

// Withdraws a client's confirm link (revokeServicingLink checks the pull and that it is not answered).
export const revokeServicingLinkAction = formAction(
  "servicing:request",
  revokeServicingLinkInputSchema,
  async ({ user, input, db }) => {
    const result = await revokeServicingLink(db, user, input);
    revalidatePath(`/pulls/${input.pullId}`);
    return toFormState(result, "The link no longer works; the client's page says it was withdrawn.");
  },
);

// A paid enrichment look-up (lib/enrichment/request.ts checks the pull, the confirm field, the
// DPPA purpose for drivers, and pays once per question whoever asks).
export const requestEnrichmentAction = formAction(
  "enrichment:request",
  requestEnrichmentInputSchema,
  async ({ user, input, db }) => {
    const result = await requestEnrichment(db, env().service, user, input);
    // An answer, or a failure now kept on the page; a refused form changed nothing.
    if (result.ok || result.code === "CONFLICT") revalidatePath(`/pulls/${input.pullId}`);
    return result.ok ? { status: "done" as const, message: result.message } : toFormState(result, "");
  },
);

// Legal holds (admins): on this pull, or on its whole account; lifted with a reason. The
// commands find the pull and its account, and refuse a second hold on the same thing.
export const placeLegalHoldAction = formAction(
  "retention:manage",
  placeLegalHoldInputSchema,
  async ({ user, input, db }) => {
    const result = await placeLegalHold(db, user, input);
    if (result.ok) revalidatePath(`/pulls/${input.pullId}`);
    return toFormState(
      result,
      input.scope === "ACCOUNT"
        ? "The account is on legal hold: none of its pulls will be disposed of."
        : "The pull is on legal hold: it (and its account) will not be disposed of.",
    );
  },
);

export const liftLegalHoldAction = formAction(
  "retention:manage",
  liftLegalHoldInputSchema,
  async ({ user, input, db }) => {
    const result = await liftLegalHold(db, user, input);
    if (result.ok) revalidatePath(`/pulls/${input.pullId}`);
    return toFormState(result, "Hold lifted. The retention schedule applies again.");
  },
);

// "Send to AgencyZoom" (lib/handoff/agencyzoom-send.ts checks the pull, creates the lead or
// updates the kept one, and records the send on the audit trail and in the redisclosure log).
export const sendToAgencyzoomAction = formAction(
  "handoffs:send",
  pullIdInput,
  async ({ user, input, db }): Promise<FormState> => {
    const result = await sendPullToAgencyzoom(db, env().agencyzoom, user, input.pullId);
    revalidatePath(`/pulls/${input.pullId}`);
    // As the pages' other commands name their refusals: a missing or refused value is INVALID, an
    // AgencyZoom that failed or is not configured a CONFLICT with the world, a pull not theirs NOT_FOUND.
    if (!result.ok)
      return {
        status: "error",
        message: result.message,
        field: result.field,
        code: result.code === "REFUSED" ? "INVALID" : result.code === "NOT_FOUND" ? "NOT_FOUND" : "CONFLICT",
      };
    const words =
      result.action === "updated"
        ? `Updated lead ${result.externalId} in AgencyZoom.`
        : result.recreated
          ? `The earlier lead was gone from AgencyZoom, so a new one was created: lead ${result.externalId}.`
          : `Created lead ${result.externalId} in AgencyZoom.`;
    return { status: "done", message: words };
  },
);
