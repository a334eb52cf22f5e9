import "server-only";
import type { Db } from "@/db/types";
import { scopingOffice } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { getWonAndCloseRatio } from "@/lib/reports/queries";
import { listCameBack } from "@/lib/workflow/came-back";
import { getAgentHome } from "@/lib/workflow/my-pulls";

/** "My pulls": the user's pulls by stage, what needs their attention, and their own figures only. */
export async function loadMyPage(db: Db, user: Actor) {
  const monthStart = new Date().toISOString().slice(0, 8) + "01";
  // The figures are always narrowed to the user here: won premium and the close ratio, by the reports' rules.
  const [home, month, allTime, cameBack] = await Promise.all([
    getAgentHome(db, user.id, undefined, scopingOffice(user)),
    getWonAndCloseRatio(db, { agent: user.id, from: monthStart }),
    getWonAndCloseRatio(db, { agent: user.id }),
    // Deals that came back (./came-back.ts): the user's own and the queue's, or all for managers.
    listCameBack(db, user),
  ]);
  const total = Object.values(home.stages).reduce((a, b) => a + b, 0);
  return { home, month, allTime, total, cameBack };
}
