"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { formAction, formText, formTextOrEmpty } from "@/lib/auth/action-guard";
import { decideFinding } from "@/lib/review/decisions";
import { toFormState } from "@/lib/workflow/form-state";

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
