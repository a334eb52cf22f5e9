import "server-only";
import { eq, sql } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import { pulls } from "@/db/schema";
import type { Db } from "@/db/types";
import { canOnPull } from "@/lib/auth/permissions";
import type { SessionUser } from "@/lib/auth/session";
import { accountHeld } from "./visibility";

// A fingerprint of what the pull page shows (data, login state, pipeline, monitoring, history),
// polled by an open page so it refreshes itself when any of it changes.

/** The fingerprint, or null when the user may not see the pull (or it does not exist). */
export async function getPullPageVersion(db: Db, user: SessionUser, pullId: string): Promise<string | null> {
  const [pull] = await db
    .select({ assigneeId: pulls.assigneeId, accountHeld })
    .from(pulls)
    .where(eq(pulls.pullId, pullId));
  if (!pull || !canOnPull(user, "pulls:view", pull)) return null;
  const [row] = await queryRows<{ version: string }>(
    db,
    sql`select md5(concat_ws('|', p.updated_at, p.fetched_at, p.stage, p.assignee_id, p.stage_changed_at,
                 (select max(a.updated_at) from pull_auth_states a where a.pull_id = p.pull_id),
                 (select max(m.updated_at) from monitorings m where m.initial_pull_id = p.pull_id or m.latest_pull_id = p.pull_id
                    or (p.account_identifier is not null and m.account_identifier = p.account_identifier)),
                 (select max(x.at) from audit_events x where x.pull_id = p.pull_id))) as version
        from pulls p where p.pull_id = ${pullId}`,
  );
  return row?.version ?? "";
}
