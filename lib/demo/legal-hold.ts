import "server-only";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/types";
import { legalHolds, pulls } from "@/db/schema";
import type { Actor } from "@/lib/core/actor";
import { placeLegalHold } from "@/lib/privacy/legal-holds";

// The demo's legal hold: a lost deal whose former prospect complained to the state, so the
// admin keeps the whole account out of disposal until the complaint closes. The retention page
// lists it, and the pull's page shows it. Through the real command; run again, it finds a hold
// already there and places none.

const REASON = "Complaint to the state insurance department (file DOI-2026-0142): keep everything until it closes.";

export async function placeDemoLegalHold(db: Db, admin: Actor): Promise<boolean> {
  const [already] = await db.select({ id: legalHolds.id }).from(legalHolds).limit(1);
  if (already) return false;
  const [lost] = await db
    .select({ pullId: pulls.pullId })
    .from(pulls)
    .where(and(eq(pulls.stage, "LOST"), eq(pulls.status, "SUCCESS"), isNull(pulls.parentPullId)))
    .orderBy(desc(pulls.stageChangedAt), pulls.pullId)
    .limit(1);
  const [any] = lost
    ? [lost]
    : await db
        .select({ pullId: pulls.pullId })
        .from(pulls)
        .where(and(eq(pulls.status, "SUCCESS"), isNull(pulls.parentPullId)))
        .orderBy(pulls.serviceCreatedAt, pulls.pullId)
        .limit(1);
  if (!any) return false;
  const result = await placeLegalHold(db, admin, { pullId: any.pullId, scope: "ACCOUNT", reason: REASON });
  return result.ok;
}
