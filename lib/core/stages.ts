// The stage vocabulary: the list (db/schema/pull-stage-values.ts, from which the database type is
// made) and what each stage means to the funnel, carry-over and the reports. Renaming a stage is
// the list and a migration; adding one (say QUOTED) is the list, a migration, and its place in
// DECISIONS below. No imports but the plain list, so a client component may read it.
import { PULL_STAGES, type PullStage } from "@/db/schema/pull-stage-values";

export { PULL_STAGES, type PullStage };

/** Where every pull starts, and what a decision undone returns to: still being worked. */
export const OPEN_STAGE = "WORKING" satisfies PullStage;

/** A win: credited, with its premium, to the pull's assignee when it is decided. */
export const WIN_STAGE = "WON" satisfies PullStage;

/** A loss: recorded with why, for the close ratio and the loss reasons. */
export const LOSS_STAGE = "LOST" satisfies PullStage;

/**
 * The stages that are a decision made on a pull: a refresh of the account carries it, and the
 * reports count it once, on the pull where it was made.
 */
export const DECISIONS = [WIN_STAGE, LOSS_STAGE] as const satisfies readonly PullStage[];

export function isWin(stage: PullStage): boolean {
  return stage === WIN_STAGE;
}

export function isDecision(stage: PullStage): boolean {
  return (DECISIONS as readonly PullStage[]).includes(stage);
}
