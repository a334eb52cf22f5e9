import type { ServicingStatus } from "@/lib/service/schemas";

// Where a servicing action stands, as an order: progress arrives by webhook (in any order, and
// more than once), from GET /servicings/{id}, and from the consumer's own answer, and a status may
// only ever move forward. Pure, so the ingestion, the pages and the tests share one rule.

/** Higher is further on. The outcomes share the top rank: none replaces another. */
const RANK: Record<ServicingStatus, number> = {
  QUEUED: 1,
  IN_PROGRESS: 2,
  WAITING_FOR_CONSUMER_CONFIRMATION: 3,
  SUBMITTING_CONFIRMATION: 4,
  // A failure at the service or the carrier's site: a later step (the service recovering) still wins.
  INTERNAL_ERROR: 5,
  PROVIDER_ERROR: 5,
  VALIDATION_ERROR: 6,
  UNCONFIRMED: 6,
  SUCCESS: 6,
  // Checked on the policy after the change: the last word.
  VERIFIED: 7,
  VERIFICATION_FAILED: 7,
};

export const KNOWN_SERVICING_STATUSES = Object.keys(RANK) as ServicingStatus[];

const isKnown = (status: string): status is ServicingStatus => Object.hasOwn(RANK, status);

/** The rank of a status; a status the service added since (not in our list) counts as just begun. */
export function servicingRank(status: string | null | undefined): number {
  if (!status) return 0;
  return isKnown(status) ? RANK[status] : 1;
}

/** The known statuses a row may be in for `next` to replace it (null included by the caller). */
export function statusesBelow(next: string): string[] {
  const rank = servicingRank(next);
  return KNOWN_SERVICING_STATUSES.filter((s) => RANK[s] < rank);
}

/** Whether moving from `current` to `next` goes forward. */
export function movesForward(current: string | null | undefined, next: string): boolean {
  return servicingRank(next) > servicingRank(current);
}

/** Nothing more will happen to the action at the carrier. */
export function isSettled(status: string | null | undefined): boolean {
  return servicingRank(status) >= 6;
}

/**
 * The action's status read from its SERVICING pull's status (one action per pull: Coverdesk asks
 * for one change at a time). The service's documented path is SERVICING → WAITING_FOR_CONSUMER_
 * CONFIRMATION → SUBMITTING_CONFIRMATION → SUCCESS or VALIDATION_ERROR. A pull that ended says
 * little about a declined action (the pull may end in SUCCESS all the same), so an ended pull is
 * read with the consumer's answer we hold; without one, null: GET /servicings/{id} tells.
 */
export function actionStatusFromPull(pullStatus: string | null, consumerAnswer: string | null): ServicingStatus | null {
  switch (pullStatus) {
    case "SERVICING":
      return "IN_PROGRESS";
    case "WAITING_FOR_CONSUMER_CONFIRMATION":
      return "WAITING_FOR_CONSUMER_CONFIRMATION";
    case "SUBMITTING_CONFIRMATION":
      return "SUBMITTING_CONFIRMATION";
    case "VALIDATION_ERROR":
      return "VALIDATION_ERROR";
    case "PROVIDER_ERROR":
      return "PROVIDER_ERROR";
    case "INTERNAL_ERROR":
      return "INTERNAL_ERROR";
    case "SUCCESS":
      return consumerAnswer === "CONFIRMED" ? "SUCCESS" : consumerAnswer === "DECLINED" ? "UNCONFIRMED" : null;
    default:
      return null;
  }
}
