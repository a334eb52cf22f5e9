"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import { getSessionUser } from "@/lib/auth/session";
import { assignPulls } from "@/lib/workflow/assignment";
import { field, toFormState, type FormState } from "@/lib/workflow/form-state";
import { setPullStage } from "@/lib/workflow/funnel";

// Assignment and funnel actions of the pull pages. Each resolves the user from the session
// and hands the raw form to a command, which validates it and checks the permission table on
// the pull itself; nothing here trusts what the page showed.

const SIGNED_OUT: FormState = { status: "error", message: "Your session has ended. Sign in again." };

/** `assigneeId` empty means "unassign"; `expectedAssigneeId` is what the form showed. */
export async function assignPullAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const user = await getSessionUser();
  if (!user) return SIGNED_OUT;
  const pullId = field(formData, "pullId") ?? "";
  const assigneeId = field(formData, "assigneeId") || null;
  const expected = field(formData, "expectedAssigneeId");
  const result = await assignPulls(await getDb(), user, { pullIds: [pullId], assigneeId, expectedAssigneeId: expected === undefined ? undefined : expected || null });
  if (result.ok) revalidatePath(`/pulls/${pullId}`);
  return toFormState(result, assigneeId ? "Assigned." : "Back in the queue.");
}

export async function claimPullAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const user = await getSessionUser();
  if (!user) return SIGNED_OUT;
  const pullId = field(formData, "pullId") ?? "";
  const result = await assignPulls(await getDb(), user, { pullIds: [pullId], assigneeId: user.id, expectedAssigneeId: null });
  if (result.ok) revalidatePath(`/pulls/${pullId}`);
  return toFormState(result, "It is yours now.");
}

export async function bulkAssignAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const user = await getSessionUser();
  if (!user) return SIGNED_OUT;
  const pullIds = formData.getAll("pullIds").filter((v): v is string => typeof v === "string");
  const assigneeId = field(formData, "assigneeId") || null;
  const result = await assignPulls(await getDb(), user, { pullIds, assigneeId });
  if (result.ok) revalidatePath("/pulls");
  return result.ok ? { status: "done", message: `${result.changed} ${result.changed === 1 ? "pull" : "pulls"} ${assigneeId ? "assigned" : "returned to the queue"}.` } : toFormState(result, "");
}

export async function setStageAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const user = await getSessionUser();
  if (!user) return SIGNED_OUT;
  const pullId = field(formData, "pullId") ?? "";
  const stage = field(formData, "stage");
  const result = await setPullStage(await getDb(), user, {
    pullId,
    stage,
    premium: field(formData, "premium"),
    lostReason: field(formData, "lostReason"),
    expectedStage: field(formData, "expectedStage") || undefined,
  });
  if (result.ok) revalidatePath(`/pulls/${pullId}`);
  return toFormState(result, stage === "WON" ? "Marked won." : stage === "LOST" ? "Marked lost." : "Back to working.");
}
