import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/types";
import { pulls } from "@/db/schema";
import { accountHeld } from "@/lib/pulls/visibility";

/** A top-level pull's workflow fields, locked for the rest of the transaction. */
export async function lockPull(tx: Db, pullId: string) {
  const rows = await tx
    .select({
      pullId: pulls.pullId,
      assigneeId: pulls.assigneeId,
      officeId: pulls.officeId,
      stage: pulls.stage,
      decisionCarried: pulls.decisionCarried,
      wonPremiumCents: pulls.wonPremiumCents,
      parentPullId: pulls.parentPullId,
      accountHeld,
    })
    .from(pulls)
    .where(eq(pulls.pullId, pullId))
    .for("update");
  const row = rows[0];
  return row && row.parentPullId === null ? row : null;
}
