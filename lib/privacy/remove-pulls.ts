import "server-only";
import { inArray } from "drizzle-orm";
import type { Db } from "@/db/types";
import { pulls } from "@/db/schema";

// The removal of a set of pulls and what hangs on them: one definition for the retention
// schedule's disposal and a consumer's erasure. The rows that reference a pull by a foreign key
// (policies, versions, X-dates, gaps, servicing requests, policy-check runs, archive writes)
// cascade from the pull's own row.

export type RemovalReason = { kind: "ERASURE" | "DISPOSAL"; requestId?: string | null };

/** How many records of each kind went. */
export type RemovedCounts = Record<string, number>;

export async function removePulls(tx: Db, pullIds: string[], reason: RemovalReason): Promise<RemovedCounts> {
  void reason;
  if (pullIds.length === 0) return { pulls: 0 };
  const removed = await tx.delete(pulls).where(inArray(pulls.pullId, pullIds)).returning({ pullId: pulls.pullId });
  return { pulls: removed.length };
}
