import "server-only";
import { enqueueEvent } from "@/lib/webhooks/events";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { pulls, users } from "@/db/schema";
import { can, canOnPull, scopingOffice } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { firstTouch } from "./first-touch";
import { lockPull } from "./lock-pull";
import { forbidden, invalid, notFound, stale, type CommandResult } from "@/lib/core/result";

// Assigning pulls: admins assign to anyone, managers to anyone (of their office, when they have
// one), reassign and unassign, one pull or a selection; anyone may take an unassigned pull for themselves. A selection changes all of
// its pulls or none of them.

export const MAX_BULK = 500;

export const assignInputSchema = z.object({
  pullIds: z
    .array(z.uuid())
    .min(1, "Select at least one pull.")
    .max(MAX_BULK, `Assign at most ${MAX_BULK} pulls at once.`),
  /** Null unassigns: the pulls go back to the queue. */
  assigneeId: z.uuid("Choose someone from the list.").nullable(),
  /** For a single pull: whom the form showed as assignee, to catch a change made meanwhile. */
  expectedAssigneeId: z.uuid().nullable().optional(),
});
export type AssignInput = z.input<typeof assignInputSchema>;

/** One pull's assign form: the selection of one, by the pull's id. */
export const assignPullInputSchema = assignInputSchema
  .omit({ pullIds: true })
  .extend({ pullId: assignInputSchema.shape.pullIds.element });

export async function assignPulls(
  db: Db,
  actor: Actor,
  input: AssignInput,
  /** When the assignment is made; now, except for a history built after the fact (lib/demo). */
  now: Date = new Date(),
): Promise<CommandResult<{ changed: number }>> {
  const parsed = assignInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return invalid(issue?.message ?? "Check the form.", issue?.path[0]?.toString());
  }
  const { pullIds, assigneeId, expectedAssigneeId } = parsed.data;
  const unique = [...new Set(pullIds)];

  return db.transaction(async (tx) => {
    let assigneeName: string | null = null;
    if (assigneeId) {
      const [target] = await tx
        .select({ name: users.name, officeId: users.officeId })
        .from(users)
        .where(and(eq(users.id, assigneeId), eq(users.isActive, true)));
      if (!target) return invalid("That person does not exist or is no longer active.", "assigneeId");
      // A manager of an office assigns within it: the pull would otherwise leave their sight.
      const office = scopingOffice(actor);
      if (office && target.officeId !== office) return forbidden("Assign pulls to people of your office.");
      assigneeName = target.name;
    }
    // First lock and check every pull (in id order, so two bulk assignments never deadlock),
    // then write: a refusal of any one pull leaves all of them unchanged.
    const locked = [];
    for (const pullId of unique.sort()) {
      const pull = await lockPull(tx, pullId);
      if (!pull || !canOnPull(actor, "pulls:view", pull))
        return notFound(unique.length > 1 ? "One of the selected pulls" : undefined);
      const claimingForSelf = assigneeId === actor.id && canOnPull(actor, "pulls:claim", pull);
      if (!can(actor, "pulls:assign") && !claimingForSelf) {
        return forbidden(
          pull.assigneeId
            ? "This pull is assigned to someone else; ask a manager to reassign it."
            : "Only managers and admins can assign pulls to others.",
        );
      }
      if (expectedAssigneeId !== undefined && unique.length === 1 && pull.assigneeId !== expectedAssigneeId) {
        return stale("This pull was reassigned while you had it open. Reload to see who has it now.");
      }
      locked.push(pull);
    }
    let changed = 0;
    for (const pull of locked) {
      if (pull.assigneeId === assigneeId) continue;
      await tx
        .update(pulls)
        .set({
          assigneeId,
          assignedAt: assigneeId ? now : null,
          assigneeSeenAt: assigneeId === actor.id ? now : null,
          // A person chose its owner: the pull has been worked (lib/workflow/first-touch.ts).
          firstTouchedAt: firstTouch(now),
        })
        .where(eq(pulls.pullId, pull.pullId));
      await recordAudit(tx, actor, assigneeId ? "PULL_ASSIGNED" : "PULL_UNASSIGNED", {
        pullId: pull.pullId,
        at: now,
        subjectUserId: assigneeId ?? pull.assigneeId,
        details: { from: pull.assigneeId, to: assigneeId, toName: assigneeName },
      });
      await enqueueEvent(
        tx,
        "pull.assigned",
        { pull_id: pull.pullId, from_assignee_id: pull.assigneeId, to_assignee_id: assigneeId },
        now,
      );
      changed++;
    }
    return { ok: true as const, changed };
  });
}
