import "server-only";
import type { SessionUser } from "@/lib/auth/session";
import type { Db } from "@/db/types";
import { can } from "@/lib/auth/permissions";
import { getPullDetail, type PullDetail } from "./queries";

// The one place that decides whether a user may see a pull. Pages, downloads and actions all
// ask here, and a pull the user may not see is reported exactly like one that does not exist.
// (Today every role sees every pull; the assignment rules narrow it for agents.)

export async function findViewablePull(db: Db, user: SessionUser, pullId: string): Promise<PullDetail | null> {
  if (!can(user, "pulls:view")) return null;
  return getPullDetail(db, pullId);
}
