import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/types";
import { pulls } from "@/db/schema";
import { firstTouch } from "./first-touch";

/** The assignee opened the pull: it no longer counts as new for them, and it has had its first touch. */
export async function markPullSeen(db: Db, userId: string, pullId: string, now: Date = new Date()): Promise<void> {
  await db
    .update(pulls)
    .set({ assigneeSeenAt: now, firstTouchedAt: firstTouch(now) })
    .where(and(eq(pulls.pullId, pullId), eq(pulls.assigneeId, userId), isNull(pulls.assigneeSeenAt)));
}
