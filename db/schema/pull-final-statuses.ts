// The pull statuses after which the service changes a pull no more (service-notes, "Pull
// status"): a successful link, a partial one, the carrier's refusal and a rejected servicing
// request. Every other status is a step on the way, or a stop the pull can still leave:
// NOT_AUTHENTICATED and the identity-verification steps wait for the consumer (connect can
// resume them), and an INTERNAL_ERROR pull may still complete later. The sync re-reads pulls
// that are not final (lib/ingest/pull-recheck.ts). A plain list, like pull-stage-values.ts.
export const FINAL_PULL_STATUSES = ["SUCCESS", "INCOMPLETE", "PROVIDER_ERROR", "VALIDATION_ERROR"] as const;

/**
 * The list as SQL text, written out in the index of the pulls that are not final and in the
 * query that reads it: a planner uses a partial index only for a predicate it can match.
 */
export const FINAL_PULL_STATUSES_SQL = FINAL_PULL_STATUSES.map((s) => `'${s}'`).join(", ");
