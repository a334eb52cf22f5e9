import "server-only";
import { enqueueEvent } from "@/lib/webhooks/events";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { PULL_STAGES, pulls, type PullStage } from "@/db/schema";
import { canOnPull } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { markDealReturnWon } from "./deal-return-won";
import { firstTouch } from "./first-touch";
import { lockPull } from "./lock-pull";
import { recordLoss, undoStandingLoss } from "./lost-decisions";
import { LOST_CATEGORIES } from "./lost-reasons";
import { parseDollarsToCents } from "./money";
import { invalid, notFound, stale, type CommandResult } from "@/lib/core/result";
import { isWin } from "@/lib/core/stages";

// The agency's funnel: WORKING, WON (with the won premium) or LOST (why, from a short list, with
// the agent's words and the carrier that won it at what premium, when known).
// The service's own funnel is read-only through its API, so these changes are the source of
// truth; each one is kept in the audit trail with who, when, from and to.

export const setStageInputSchema = z.object({
  pullId: z.uuid(),
  stage: z.enum(PULL_STAGES, { message: "Choose Working, Won or Lost." }),
  /** Dollars and cents as typed; required for WON. */
  premium: z.string().max(40).optional(),
  lostReason: z.string().trim().max(500, "Keep the reason under 500 characters.").optional(),
  /** LOST: why, from the short list the reports count. */
  lostCategory: z.enum(LOST_CATEGORIES, { message: "Choose why it was lost." }).optional(),
  /** LOST: the carrier that won it, when known. */
  lostToCarrier: z.string().trim().max(100, "Keep the carrier's name under 100 characters.").optional(),
  /** LOST: the premium it was won at elsewhere, dollars and cents as typed, when known. */
  lostToPremium: z.string().max(40).optional(),
  /** The stage the form showed: if it changed meanwhile, the change is refused as stale. */
  expectedStage: z.enum(PULL_STAGES).optional(),
});
export type SetStageInput = z.input<typeof setStageInputSchema>;

export async function setPullStage(
  db: Db,
  actor: Actor,
  input: SetStageInput | Record<string, unknown>,
  /** When the change is made; now, except for a history built after the fact (lib/demo). */
  now: Date = new Date(),
): Promise<CommandResult<{ stage: PullStage; wonPremiumCents: number | null }>> {
  const parsed = setStageInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return invalid(issue?.message ?? "Check the form.", issue?.path.join("."));
  }
  const { pullId, stage, premium, lostReason, lostCategory, lostToCarrier, lostToPremium, expectedStage } = parsed.data;
  let wonPremiumCents: number | null = null;
  if (isWin(stage)) {
    const cents = parseDollarsToCents(premium ?? "");
    if (!cents.ok) return invalid(cents.message, "premium");
    wonPremiumCents = cents.cents;
  }
  let lostToPremiumCents: number | null = null;
  if (stage === "LOST" && lostToPremium && lostToPremium.trim() !== "") {
    const cents = parseDollarsToCents(lostToPremium);
    if (!cents.ok) return invalid(cents.message, "lostToPremium");
    lostToPremiumCents = cents.cents;
  }
  const lost =
    stage === "LOST"
      ? { lostCategory: lostCategory ?? null, lostToCarrier: lostToCarrier || null, lostToPremiumCents }
      : { lostCategory: null, lostToCarrier: null, lostToPremiumCents: null };

  return db.transaction(async (tx) => {
    const pull = await lockPull(tx, pullId);
    if (!pull || !canOnPull(actor, "pulls:view", pull)) return notFound();
    if (!canOnPull(actor, "pulls:set-stage", pull))
      return {
        ok: false as const,
        code: "FORBIDDEN" as const,
        message: "Only the assigned agent, a manager or an admin can change this pull's stage.",
      };
    if (expectedStage && expectedStage !== pull.stage)
      return stale(`Someone moved this pull to ${pull.stage.toLowerCase()} meanwhile. Reload to see the change.`);
    const reason = stage === "LOST" ? lostReason || null : null;
    // The reports credit a win to the pull's assignee at this moment (see wonCreditedTo); an
    // API key is no one to credit.
    const wonCreditedTo = isWin(stage) ? (pull.assigneeId ?? (actor.apiKey ? null : actor.id)) : null;
    await tx
      .update(pulls)
      // A stage set by hand is this pull's own decision, no longer one carried from an earlier pull.
      .set({
        stage,
        wonPremiumCents,
        wonCreditedTo,
        lostReason: reason,
        ...lost,
        stageChangedAt: now,
        decisionCarried: false,
        firstTouchedAt: firstTouch(now),
      })
      .where(eq(pulls.pullId, pullId));
    // The reports count losses from their history (./lost-decisions.ts): the pull's own loss,
    // changed by hand, is undone; a new one is recorded as its assignee's.
    if (pull.stage === "LOST" && !pull.decisionCarried) await undoStandingLoss(tx, pullId, now);
    if (stage === "LOST")
      await recordLoss(tx, { pullId, at: now, ownerId: pull.assigneeId, lostReason: reason, ...lost });
    await recordAudit(tx, actor, "STAGE_CHANGED", {
      pullId,
      at: now,
      details: {
        from: pull.stage,
        to: stage,
        wonPremiumCents,
        previousWonPremiumCents: pull.wonPremiumCents,
        lostReason: reason,
        ...(stage === "LOST" ? lost : {}),
        creditedTo: wonCreditedTo,
      },
    });
    if (pull.stage !== stage)
      await enqueueEvent(
        tx,
        "pull.stage_changed",
        { pull_id: pullId, from_stage: pull.stage, to_stage: stage, won_premium_cents: wonPremiumCents },
        now,
      );
    // A deal that came back (./deal-returns.ts) and is won again counts as a recycled win.
    if (isWin(stage))
      await markDealReturnWon(tx, { pullId, at: now, premiumCents: wonPremiumCents, wasWon: isWin(pull.stage) });
    return { ok: true as const, stage, wonPremiumCents };
  });
}
