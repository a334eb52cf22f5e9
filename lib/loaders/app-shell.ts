import "server-only";
import type { Db } from "@/db/types";
import type { Actor } from "@/lib/core/actor";
import { getDemoHistoryProgress, type DemoHistoryProgress } from "@/lib/demo/progress";
import { isServiceUnreachable } from "@/lib/service/health";
import { failedSignInsSincePreviousSignIn, type FailedSignIn } from "@/lib/audit/audit-log";
import { countNewAssignments } from "@/lib/workflow/my-pulls";
import { countOpenAlerts } from "@/lib/alerts/inbox";
import { can } from "@/lib/auth/permissions";

export type AppShell = {
  /** Pulls assigned to the user that they have not opened yet (the menu's badge). */
  newAssignments: number;
  /** Alerts open now that are the user's or the queue's (the inbox's badge). */
  openAlerts: number;
  /** Failed sign-ins on their account since their previous sign-in. */
  failedSignIns: { total: number; recent: FailedSignIn[] };
  /** The service did not answer this server's last call: pages show stored data. */
  serviceUnreachable: boolean;
  /** The demo agency's history is being built in the background (development only). */
  demoHistory: DemoHistoryProgress | null;
};

/** What the signed-in layout shows around every page. */
export async function loadAppShell(db: Db, user: Actor): Promise<AppShell> {
  const [newAssignments, failedSignIns, openAlerts] = await Promise.all([
    countNewAssignments(db, user.id),
    failedSignInsSincePreviousSignIn(db, user.id),
    can(user, "alerts:view") ? countOpenAlerts(db, user) : 0,
  ]);
  return {
    newAssignments,
    openAlerts,
    failedSignIns,
    serviceUnreachable: isServiceUnreachable(),
    demoHistory: getDemoHistoryProgress(),
  };
}
