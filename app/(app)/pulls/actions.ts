"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/database";
import { getSessionUser } from "@/lib/auth/session";
import { assignPulls } from "@/lib/workflow/assignment";
import { field, toFormState, type FormState } from "@/lib/workflow/form-state";
import { setPullStage } from "@/lib/workflow/funnel";
import { env } from "@/lib/env";
import { bulkMonitoring } from "@/lib/monitoring/bulk";
import { changePullMonitoring, enablePullMonitoring, refreshPullNow, stopPullMonitoring } from "@/lib/monitoring/commands";

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

/** The list's selection bar: `intent` says what its pressed button asks (assign, monitor, unmonitor). */
export async function bulkAssignAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const user = await getSessionUser();
  if (!user) return SIGNED_OUT;
  const pullIds = formData.getAll("pullIds").filter((v): v is string => typeof v === "string");
  const intent = field(formData, "intent");
  if (intent === "monitor" || intent === "unmonitor") {
    const result = await bulkMonitoring(await getDb(), env().service, user, { pullIds, turnOn: intent === "monitor", every: field(formData, "every"), unit: field(formData, "unit") });
    if (!result.ok) return toFormState(result, "");
    revalidatePath("/pulls");
    const verb = intent === "monitor" ? "now monitored" : "no longer monitored";
    const refused = result.refused > 0 ? ` ${result.refused} refused: ${result.reasons.join(" ")}` : "";
    return result.done > 0 || result.refused === 0 ? { status: "done", message: `${result.done} ${verb}.${refused}` } : { status: "error", message: `None changed.${refused}`, code: "CONFLICT" };
  }
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

// Monitoring (managers and admins): each call goes to the service; see lib/monitoring.

function monitoringInput(formData: FormData) {
  return { pullId: field(formData, "pullId") ?? "", monitoringId: field(formData, "monitoringId") ?? "", every: field(formData, "every"), unit: field(formData, "unit"), stopAfter: field(formData, "stopAfter") };
}

export async function enableMonitoringAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const user = await getSessionUser();
  if (!user) return SIGNED_OUT;
  const input = monitoringInput(formData);
  const result = await enablePullMonitoring(await getDb(), env().service, user, input);
  if (result.ok) revalidatePath(`/pulls/${input.pullId}`);
  return toFormState(result, "Monitoring is on.");
}

export async function changeMonitoringAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const user = await getSessionUser();
  if (!user) return SIGNED_OUT;
  const input = monitoringInput(formData);
  const result = await changePullMonitoring(await getDb(), env().service, user, input);
  if (result.ok) revalidatePath(`/pulls/${input.pullId}`);
  return toFormState(result, "Interval changed.");
}

export async function stopMonitoringAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const user = await getSessionUser();
  if (!user) return SIGNED_OUT;
  const input = monitoringInput(formData);
  const result = await stopPullMonitoring(await getDb(), env().service, user, input);
  if (result.ok) revalidatePath(`/pulls/${input.pullId}`);
  return toFormState(result, "Monitoring is off.");
}

export async function refreshMonitoringAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const user = await getSessionUser();
  if (!user) return SIGNED_OUT;
  const input = monitoringInput(formData);
  const result = await refreshPullNow(await getDb(), env().service, user, input);
  if (result.ok) revalidatePath(`/pulls/${input.pullId}`);
  return toFormState(result, "Refresh started; the new pull arrives by webhook when it is done.");
}
