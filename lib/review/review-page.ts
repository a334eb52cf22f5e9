import "server-only";
import type { Db } from "@/db/types";
import type { FindingDecisionRow } from "@/db/schema";
import { canOnPull, type PullAccess } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import type { Pull } from "@/lib/service/schemas";
import { reviewHousehold, type Finding, type ReviewSettings } from "./coverage";
import { dayOfInstant, isFindingDecision, getDecisions, type FindingDecision } from "./decisions";
import { getReviewSettings } from "./review-rules";

// The pull page's "Coverage review" section: the findings of today's review with the account's
// current decision on each. Read in two parts so the pull page's loader (lib/loaders/pull-page.ts)
// reads the rules and decisions beside the pull, in its first round trip, and only computes the
// review once it has the pull.

export type ReviewInputs = { settings: ReviewSettings; decisions: Map<string, FindingDecisionRow> };

export type DecisionView = {
  decision: FindingDecision;
  note: string;
  decidedByName: string;
  decidedAt: Date;
};

export type CoverageReview = {
  findings: Array<Finding & { decision: DecisionView | null }>;
  /** Whether the viewer may record decisions on this account. */
  canDecide: boolean;
  /** The day the review was made for ("today"), ISO. */
  day: string;
};

export async function getReviewInputs(db: Db, pullId: string): Promise<ReviewInputs> {
  const [settings, decisions] = await Promise.all([getReviewSettings(db), getDecisions(db, pullId)]);
  return { settings, decisions };
}

const decisionOf = (row: FindingDecisionRow | undefined): DecisionView | null =>
  row && isFindingDecision(row.decision)
    ? {
        decision: row.decision,
        note: row.note,
        decidedByName: row.decidedByName ?? "Someone",
        decidedAt: row.decidedAt,
      }
    : null;

export function coverageReviewOf(
  pull: Pull,
  access: PullAccess,
  user: Pick<Actor, "id" | "role">,
  inputs: ReviewInputs,
  now: Date = new Date(),
): CoverageReview {
  const day = dayOfInstant(now);
  const findings = reviewHousehold(pull, inputs.settings, day).map((finding) => ({
    ...finding,
    decision: decisionOf(inputs.decisions.get(finding.key)),
  }));
  return { findings, canDecide: canOnPull(user, "findings:decide", access), day };
}
