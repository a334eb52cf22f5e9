import "server-only";
import { and, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { pulls, servicingRequests } from "@/db/schema";
import type { Db } from "@/db/types";
import { actionStatusFromPull, statusesBelow } from "./status";

// A servicing request's progress, written from wherever it is learnt: the webhooks (through the
// ingestion's worker, which has just stored the SERVICING pull), GET /servicings/{id}, and the
// consumer's answer. Every write is one conditional UPDATE that only moves the status forward
// (./status.ts), so redelivered, reordered or racing news can never move it back.

export type ServicingNews = {
  status: string;
  validationErrorType?: string | null;
  confirmationData?: Record<string, unknown> | null;
};

type Which = { id: string } | { servicingActionId: string } | { servicingPullId: string };

const whichOf = (which: Which): SQL | undefined =>
  "id" in which
    ? eq(servicingRequests.id, which.id)
    : "servicingActionId" in which
      ? eq(servicingRequests.servicingActionId, which.servicingActionId)
      : eq(servicingRequests.servicingPullId, which.servicingPullId);

/** Moves the request(s) to `news.status` when that is further on; true when a row moved. */
export async function advanceServicing(db: Db, which: Which, news: ServicingNews): Promise<boolean> {
  const below = statusesBelow(news.status);
  const moved = await db
    .update(servicingRequests)
    .set({
      status: news.status,
      ...(news.validationErrorType ? { validationErrorType: news.validationErrorType } : {}),
      ...(news.confirmationData ? { confirmationData: news.confirmationData } : {}),
      updatedAt: new Date(),
    })
    .where(
      and(
        whichOf(which),
        // Only a request the service has answered (its action id known) follows the service.
        sql`${servicingRequests.servicingActionId} is not null`,
        below.length > 0
          ? or(isNull(servicingRequests.status), inArray(servicingRequests.status, below))
          : isNull(servicingRequests.status),
      ),
    )
    .returning({ id: servicingRequests.id });
  // What the consumer is asked to confirm may come later than the status it belongs to.
  if (news.confirmationData)
    await db
      .update(servicingRequests)
      .set({ confirmationData: news.confirmationData })
      .where(and(whichOf(which), isNull(servicingRequests.confirmationData)));
  return moved.length > 0;
}

/**
 * What an event about `pullId` tells the requests whose SERVICING pull it is: the pull's status
 * (just stored by the worker) read as the action's, and the action named by
 * SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION. Called by the ingestion for every event; a pull
 * that is no servicing pull matches no row.
 */
export async function recordServicingEvent(
  db: Db,
  pullId: string,
  event: { eventType: string; servicingActionId?: string | null },
): Promise<void> {
  if (event.eventType === "SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION" && event.servicingActionId)
    await advanceServicing(
      db,
      { servicingActionId: event.servicingActionId },
      { status: "WAITING_FOR_CONSUMER_CONFIRMATION" },
    );
  await followServicingPull(db, pullId);
}

/** Reads the stored SERVICING pull's status into its requests (forward only). */
export async function followServicingPull(db: Db, servicingPullId: string): Promise<void> {
  const rows = await db
    .select({ id: servicingRequests.id, consumerAnswer: servicingRequests.consumerAnswer, pullStatus: pulls.status })
    .from(servicingRequests)
    .innerJoin(pulls, eq(pulls.pullId, servicingRequests.servicingPullId))
    .where(eq(servicingRequests.servicingPullId, servicingPullId));
  for (const row of rows) {
    const status = actionStatusFromPull(row.pullStatus, row.consumerAnswer);
    if (status) await advanceServicing(db, { id: row.id }, { status });
  }
}
