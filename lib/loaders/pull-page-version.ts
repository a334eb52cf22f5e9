import "server-only";
import { eq, sql } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import { auditEvents, monitorings, pullAuthStates, pulls, servicingRequests } from "@/db/schema";
import type { Db } from "@/db/types";
import { canOnPull } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { accountHeld } from "@/lib/pulls/visibility";

// A fingerprint of what the pull page shows (data, login state, pipeline, monitoring, history),
// polled by an open page so it refreshes itself when any of it changes.

/** The fingerprint, or null when the user may not see the pull (or it does not exist). */
export async function getPullPageVersion(db: Db, user: Actor, pullId: string): Promise<string | null> {
  const [pull] = await db
    .select({ assigneeId: pulls.assigneeId, accountHeld })
    .from(pulls)
    .where(eq(pulls.pullId, pullId));
  if (!pull || !canOnPull(user, "pulls:view", pull)) return null;
  const [row] = await queryRows<{ version: string }>(
    db,
    sql`select md5(concat_ws('|', ${pulls.updatedAt}, ${pulls.fetchedAt}, ${pulls.stage}, ${pulls.assigneeId}, ${pulls.stageChangedAt},
                 (select max(${pullAuthStates.updatedAt}) from ${pullAuthStates} where ${pullAuthStates.pullId} = ${pulls.pullId}),
                 (select max(${monitorings.updatedAt}) from ${monitorings}
                  where ${monitorings.initialPullId} = ${pulls.pullId} or ${monitorings.latestPullId} = ${pulls.pullId}
                    or (${pulls.accountIdentifier} is not null and ${monitorings.accountIdentifier} = ${pulls.accountIdentifier})),
                 (select max(${auditEvents.at}) from ${auditEvents} where ${auditEvents.pullId} = ${pulls.pullId}),
                 (select max(${servicingRequests.updatedAt}) from ${servicingRequests} where ${servicingRequests.pullId} = ${pulls.pullId}))) as version
        from ${pulls} where ${pulls.pullId} = ${pullId}`,
  );
  return row?.version ?? "";
}
