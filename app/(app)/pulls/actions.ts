"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { formAction, pullIdInput } from "@/lib/auth/action-guard";
import { env } from "@/lib/env";
import { bulkMonitoring } from "@/lib/monitoring/bulk";
import {
  changeMonitoringInputSchema,
  changePullMonitoring,
  enableMonitoringInputSchema,
  enablePullMonitoring,
  intervalFields,
  monitoringInputSchema,
  refreshPullNow,
  stopPullMonitoring,
} from "@/lib/monitoring/commands";
import { archivePull, archivePullInputSchema } from "@/lib/ingest/archive";
import { assignInputSchema, assignPullInputSchema, assignPulls } from "@/lib/workflow/assignment";
import { toFormState } from "@/lib/core/form-state";
import { setPullStage, setStageInputSchema } from "@/lib/workflow/funnel";

// Assignment, funnel and monitoring actions of the pull pages. The guard (lib/auth/action-guard.ts)
// resolves the user, asks the permission table and reads each form into its command's schema;
// each command then validates the input again and checks the table on the pull itself: nothing
// here trusts what the page showed.

// Assigning to oneself is a claim, which agents may do: the command tells the two apart.
// `assigneeId` empty means "unassign"; `expectedAssigneeId` is whom the form showed (empty: nobody).
export const assignPullAction = formAction("pulls:view", assignPullInputSchema, async ({ user, input, db }) => {
  const { pullId, assigneeId, expectedAssigneeId } = input;
  const result = await assignPulls(db, user, { pullIds: [pullId], assigneeId, expectedAssigneeId });
  if (result.ok) revalidatePath(`/pulls/${pullId}`);
  return toFormState(result, assigneeId ? "Assigned." : "Back in the queue.");
});

export const claimPullAction = formAction("pulls:claim", pullIdInput, async ({ user, input, db }) => {
  const result = await assignPulls(db, user, {
    pullIds: [input.pullId],
    assigneeId: user.id,
    expectedAssigneeId: null,
  });
  if (result.ok) revalidatePath(`/pulls/${input.pullId}`);
  return toFormState(result, "It is yours now.");
});

/** The selection bar's form: the selected pulls, and the assignee or the interval (as its two commands read them). */
const bulkInput = assignInputSchema.pick({ pullIds: true, assigneeId: true }).extend({
  /** The pressed button; none (Enter in a field) assigns. */
  intent: z.enum(["assign", "monitor", "unmonitor"]).optional(),
  every: intervalFields.every.optional(),
  unit: intervalFields.unit.optional(),
});

/** The list's selection bar: `intent` says what its pressed button asks (assign, monitor, unmonitor). */
export const bulkAssignAction = formAction("pulls:view", bulkInput, async ({ user, input, db }) => {
  const { pullIds, intent, assigneeId } = input;
  if (intent === "monitor" || intent === "unmonitor") {
    const result = await bulkMonitoring(db, env().service, user, {
      pullIds,
      turnOn: intent === "monitor",
      every: input.every,
      unit: input.unit,
    });
    if (!result.ok) return toFormState(result, "");
    revalidatePath("/pulls");
    const verb = intent === "monitor" ? "now monitored" : "no longer monitored";
    const refused = result.refused > 0 ? ` ${result.refused} refused: ${result.reasons.join(" ")}` : "";
    return result.done > 0 || result.refused === 0
      ? { status: "done", message: `${result.done} ${verb}.${refused}` }
      : { status: "error", message: `None changed.${refused}`, code: "CONFLICT" };
  }
  const result = await assignPulls(db, user, { pullIds, assigneeId });
  if (result.ok) revalidatePath("/pulls");
  return result.ok
    ? {
        status: "done",
        message: `${result.changed} ${result.changed === 1 ? "pull" : "pulls"} ${assigneeId ? "assigned" : "returned to the queue"}.`,
      }
    : toFormState(result, "");
});

export const setStageAction = formAction("pulls:set-stage", setStageInputSchema, async ({ user, input, db }) => {
  const result = await setPullStage(db, user, input);
  if (result.ok) revalidatePath(`/pulls/${input.pullId}`);
  return toFormState(
    result,
    input.stage === "WON" ? "Marked won." : input.stage === "LOST" ? "Marked lost." : "Back to working.",
  );
});

// Monitoring (managers and admins): each call goes to the service; see lib/monitoring.

export const enableMonitoringAction = formAction(
  "monitoring:manage",
  enableMonitoringInputSchema,
  async ({ user, input, db }) => {
    const result = await enablePullMonitoring(db, env().service, user, input);
    if (result.ok) revalidatePath(`/pulls/${input.pullId}`);
    return toFormState(result, "Monitoring is on.");
  },
);

export const changeMonitoringAction = formAction(
  "monitoring:manage",
  changeMonitoringInputSchema,
  async ({ user, input, db }) => {
    const result = await changePullMonitoring(db, env().service, user, input);
    if (result.ok) revalidatePath(`/pulls/${input.pullId}`);
    return toFormState(result, "Interval changed.");
  },
);

export const stopMonitoringAction = formAction(
  "monitoring:manage",
  monitoringInputSchema,
  async ({ user, input, db }) => {
    const result = await stopPullMonitoring(db, env().service, user, input);
    if (result.ok) revalidatePath(`/pulls/${input.pullId}`);
    return toFormState(result, "Monitoring is off.");
  },
);

export const refreshMonitoringAction = formAction(
  "monitoring:manage",
  monitoringInputSchema,
  async ({ user, input, db }) => {
    const result = await refreshPullNow(db, env().service, user, input);
    if (result.ok) revalidatePath(`/pulls/${input.pullId}`);
    return toFormState(result, "Refresh started; the new pull arrives by webhook when it is done.");
  },
);

// Archive or restore (managers and admins): kept here at once, and written back to the service
// (lib/ingest/archive.ts tells it now, or with the next sync when it cannot be reached).
export const archivePullAction = formAction("pulls:archive", archivePullInputSchema, async ({ user, input, db }) => {
  const result = await archivePull(db, env().service, user, input);
  if (!result.ok) return toFormState(result, "");
  revalidatePath(`/pulls/${input.pullId}`);
  return { status: "done" as const, message: result.message };
});
