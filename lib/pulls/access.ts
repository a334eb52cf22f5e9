import "server-only";
import type { Db } from "@/db/types";
import { canOnPull, type Action } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { getPullDetail, type PullDetail } from "./queries";

// The one place that decides whether a user may see (or act on) a pull. Pages, downloads and
// actions all ask here, and a pull the user may not see is reported exactly like one that does
// not exist: a 404, never a 403 that would confirm it exists. `user` is whoever acts: a
// session's user, or a command's actor.

export async function getViewablePull(
  db: Db,
  user: Pick<Actor, "id" | "role">,
  pullId: string,
  action: Action = "pulls:view",
): Promise<PullDetail | null> {
  const detail = await getPullDetail(db, pullId);
  if (!detail || !canOnPull(user, "pulls:view", detail.workflow)) return null;
  if (action !== "pulls:view" && !canOnPull(user, action, detail.workflow)) return null;
  return detail;
}
