import "server-only";
import { z } from "zod";
import type { Db } from "@/db/types";
import { can, canOnPull, viewScope } from "@/lib/auth/permissions";
import type { SessionUser } from "@/lib/auth/session";
import { getAccountHistory, type HistoryEntry } from "@/lib/monitoring/history";
import { listActiveUsers } from "@/lib/users/queries";
import type { AuditEventRow } from "@/db/schema";
import { listAuditEvents } from "@/lib/workflow/audit";
import { getOpenDealReturn, type CameBackRow } from "@/lib/workflow/came-back";
import { coverageReviewOf, readReviewInputs, type CoverageReview } from "@/lib/review/review-page";
import { getMonitoringOfPull, type PullMonitoring } from "./detail-queries";
import { getPullDetail, type PullDetail } from "./queries";

// Everything the pull page (app/(app)/pulls/[pullId]/page.tsx) shows, in one call: the page
// renders it, and the benchmark (bench/run.ts) times this very function beside its SQL.
//
// Two round trips instead of three: the pull, its monitoring, its audit trail, the people to
// assign to, and the coverage review's rules and the account's decisions need only the pull's
// id, so they are read together; only the account's history
// waits for the pull (it needs the account, and the viewer's right to see it). Whatever was
// read beside a pull the viewer may not see is dropped unread: a 404 tells nothing more.

export type PullPage = {
  detail: PullDetail;
  monitoring: PullMonitoring | null;
  people: Array<{ id: string; name: string; role: string }>;
  history: { rows: AuditEventRow[]; hasMore: boolean };
  timeline: HistoryEntry[];
  showProblems: boolean;
  canManageMonitoring: boolean;
  /** The deal came back on its own and is open (lib/workflow/came-back.ts): the page's banner. */
  dealReturn: CameBackRow | null;
  /** The coverage review's findings with the account's decisions (lib/review). */
  review: CoverageReview;
};

const pullIdSchema = z.uuid();

/** The page, or null when there is no such pull or the user may not see it (a 404 either way). */
export async function loadPullPage(db: Db, user: SessionUser, pullId: string): Promise<PullPage | null> {
  if (!pullIdSchema.safeParse(pullId).success) return null;
  const [detail, monitoring, people, history, dealReturn, reviewInputs] = await Promise.all([
    getPullDetail(db, pullId),
    getMonitoringOfPull(db, pullId),
    can(user, "pulls:assign") ? listActiveUsers(db) : [],
    listAuditEvents(db, { pullId }),
    getOpenDealReturn(db, pullId),
    readReviewInputs(db, pullId),
  ]);
  if (!detail || !canOnPull(user, "pulls:view", detail.workflow)) return null;
  const timeline = await getAccountHistory(db, viewScope(user), detail.pull.account_identifier);
  return {
    detail,
    monitoring,
    people,
    history,
    timeline,
    showProblems: can(user, "pulls:view-problems"),
    canManageMonitoring: can(user, "monitoring:manage"),
    dealReturn,
    review: coverageReviewOf(detail.pull, detail.workflow, user, reviewInputs),
  };
}
