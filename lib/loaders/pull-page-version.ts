import "server-only";
import { eq, sql } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import { pulls } from "@/db/schema";
import type { Db } from "@/db/types";
import { canOnPull } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { accountHeld } from "@/lib/pulls/visibility";
import { pullPageVersionOf } from "./pull-page-inputs";

// A fingerprint of what the pull page shows, polled by an open page so it refreshes itself when
// any of it changes: a hash of the change markers of every read of the page's loader
// (lib/loaders/pull-page-inputs.ts), so it follows the loader rather than a list of its own.

/** The fingerprint, or null when the user may not see the pull (or it does not exist). */
export async function getPullPageVersion(db: Db, user: Actor, pullId: string): Promise<string | null> {
  const [pull] = await db
    .select({ assigneeId: pulls.assigneeId, officeId: pulls.officeId, accountHeld })
    .from(pulls)
    .where(eq(pulls.pullId, pullId));
  if (!pull || !canOnPull(user, "pulls:view", pull)) return null;
  const [row] = await queryRows<{ version: string }>(
    db,
    sql`select ${pullPageVersionOf} as version from ${pulls} p where p.pull_id = ${pullId}`,
  );
  return row?.version ?? "";
}
