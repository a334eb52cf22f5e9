import "server-only";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/types";
import { lostDecisions, pulls } from "@/db/schema";

// The history of LOST decisions (db/schema/workflow.ts lost_decisions), which the lost-reasons
// report and the close ratio count. Only the stage command (./funnel.ts) writes it, in its
// transaction, the pull locked:
// - a pull marked LOST by hand adds a loss, the pull's assignee's, at that moment;
// - a stage set by hand while the pull's own loss stands (it shows LOST, not carried) undoes
//   that loss: a mistake taken back, or corrected by the new decision.
// A deal that comes back at its X-date (./deal-returns.ts) leaves the loss standing: it was
// lost then, for that reason, and lost again later is a second loss in its own period.

export type Loss = {
  pullId: string;
  at: Date;
  ownerId: string | null;
  lostCategory: string | null;
  lostToCarrier: string | null;
  lostToPremiumCents: number | null;
  lostReason: string | null;
};

export async function recordLoss(tx: Db, loss: Loss): Promise<void> {
  const { at, ...row } = loss;
  // The pull's lines and link, beside the loss: the reports filter by them from the history alone.
  const [pull] = await tx
    .select({ policyTypes: pulls.policyTypes, publicAlias: pulls.publicAlias })
    .from(pulls)
    .where(eq(pulls.pullId, loss.pullId));
  await tx.insert(lostDecisions).values({ ...row, ...pull, lostAt: at });
}

/** The pull's latest standing loss no longer counts, from `at`. */
export async function undoStandingLoss(tx: Db, pullId: string, at: Date): Promise<void> {
  const [standing] = await tx
    .select({ id: lostDecisions.id })
    .from(lostDecisions)
    .where(and(eq(lostDecisions.pullId, pullId), isNull(lostDecisions.undoneAt)))
    .orderBy(desc(lostDecisions.lostAt), desc(lostDecisions.id))
    .limit(1);
  if (standing) await tx.update(lostDecisions).set({ undoneAt: at }).where(eq(lostDecisions.id, standing.id));
}
