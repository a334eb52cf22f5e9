"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { formAction, formText, formTextOrEmpty, formTextOrUndefined } from "@/lib/auth/action-guard";
import { decideFinding } from "@/lib/review/decisions";
import { requestEnrichment } from "@/lib/enrichment/request";
import { rerunPolicyCheck } from "@/lib/policy-check/runs";
import { env } from "@/lib/env";
import { toFormState } from "@/lib/core/form-state";
import { requestServicingChange } from "@/lib/servicing/request";

// The coverage review's decisions on a pull's page (the E&O record). The guard resolves the user
// and asks the permission table; decideFinding checks the pull itself (may they see it, work it?),
// validates the decision and note, and that the finding is in the account's current review.

const decisionInput = z.object({
  pullId: formTextOrEmpty(),
  findingKey: formTextOrEmpty(),
  decision: formTextOrEmpty(),
  note: formText(),
});

export const decideFindingAction = formAction("findings:decide", decisionInput, async ({ user, input, db }) => {
  const result = await decideFinding(db, user, input);
  if (result.ok) revalidatePath(`/pulls/${input.pullId}`);
  return toFormState(result, "Decision saved.");
});

const rerunInput = z.object({ pullId: formTextOrEmpty() });

// "Run the check again" on the service's policy check; rerunPolicyCheck checks the pull itself.
export const rerunPolicyCheckAction = formAction("policy-check:run", rerunInput, async ({ user, input, db }) => {
  const result = await rerunPolicyCheck(db, env().service, user, input.pullId);
  if (result.ok) revalidatePath(`/pulls/${input.pullId}`);
  return toFormState(result, "The service checked the pull again.");
});

const servicingInput = z.object({
  pullId: formTextOrEmpty(),
  actionType: formTextOrEmpty(),
  policy: formText(),
  mortgagee: formText(),
  name: formText(),
  address: formText(),
  loanNumber: formText(),
  position: formText(),
  vin: formText(),
  year: formText(),
  make: formText(),
  model: formText(),
});

// A servicing request for a WON client (lib/servicing/request.ts checks the pull, the stage, the
// carrier's supported changes and every field, and keeps the request even when the service refuses).
export const requestServicingAction = formAction("servicing:request", servicingInput, async ({ user, input, db }) => {
  const result = await requestServicingChange(db, env().service, user, input);
  revalidatePath(`/pulls/${input.pullId}`);
  return toFormState(result, "Sent to the service. Send the client their confirm link from the list below.");
});

const enrichmentInput = z.object({
  pullId: formTextOrEmpty(),
  kind: formTextOrEmpty(),
  subjectKey: formTextOrEmpty(),
  purpose: formTextOrUndefined(),
  dateOfBirth: formTextOrUndefined(),
  confirm: formTextOrUndefined(),
});

// A paid enrichment look-up (lib/enrichment/request.ts checks the pull, the confirm field, the
// DPPA purpose for drivers, and pays once per question whoever asks).
export const requestEnrichmentAction = formAction(
  "enrichment:request",
  enrichmentInput,
  async ({ user, input, db }) => {
    const result = await requestEnrichment(db, env().service, user, input);
    // An answer, or a failure now kept on the page; a refused form changed nothing.
    if (result.ok || result.code === "CONFLICT") revalidatePath(`/pulls/${input.pullId}`);
    return result.ok ? { status: "done" as const, message: result.message } : toFormState(result, "");
  },
);
