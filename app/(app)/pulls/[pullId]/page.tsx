import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { LiveRefresh } from "@/components/pulls/detail/live-refresh";
import { PullDetailView } from "@/components/pulls/detail/pull-detail-view";
import { AccountHistory } from "@/components/monitoring/account-history";
import { MonitoringPanel } from "@/components/monitoring/monitoring-panel";
import { PullHistory } from "@/components/workflow/pull-history";
import { WorkflowPanel } from "@/components/workflow/workflow-panel";
import { getDb } from "@/lib/database";
import { can, viewScope } from "@/lib/auth/permissions";
import { getAccountHistory } from "@/lib/monitoring/history";
import { requirePermission } from "@/lib/auth/session";
import { findViewablePull } from "@/lib/pulls/access";
import { getPullMonitoring } from "@/lib/pulls/detail-queries";
import { listActiveUsers } from "@/lib/users/queries";
import { listAuditEvents } from "@/lib/workflow/audit";
import { markPullSeen } from "@/lib/workflow/seen";

export const metadata: Metadata = { title: "Linked account" };

// GET /pulls/[pullId] — everything the service told us about one linked account.
export default async function PullDetailPage({ params }: { params: Promise<{ pullId: string }> }) {
  const user = await requirePermission("pulls:view");
  const pullId = z.uuid().safeParse((await params).pullId);
  if (!pullId.success) notFound();
  const db = await getDb();
  const detail = await findViewablePull(db, user, pullId.data);
  if (!detail) notFound();
  const [monitoring, people, history, timeline] = await Promise.all([
    getPullMonitoring(db, { pullId: detail.pull.pull_id, accountIdentifier: detail.pull.account_identifier }),
    can(user, "pulls:assign") ? listActiveUsers(db) : [],
    listAuditEvents(db, { pullId: pullId.data }),
    getAccountHistory(db, viewScope(user), detail.pull.account_identifier),
  ]);
  // Opening an assigned pull is what stops it counting as new for its assignee.
  if (detail.workflow.assigneeId === user.id) await markPullSeen(db, user.id, pullId.data);

  return (
    <div className="space-y-6">
      <Link href="/pulls" className="text-sm text-brand-700 hover:underline">← All linked accounts</Link>
      <LiveRefresh pullId={pullId.data} />
      <PullDetailView
        detail={detail}
        monitoring={monitoring}
        showProblems={can(user, "pulls:view-problems")}
        pipeline={
          <>
            <WorkflowPanel user={user} pullId={pullId.data} workflow={detail.workflow} people={people} />
            {can(user, "monitoring:manage") ? <MonitoringPanel pullId={pullId.data} monitoring={monitoring} /> : null}
          </>
        }
        history={<PullHistory entries={history.rows} />}
        timeline={timeline.length > 0 ? <AccountHistory entries={timeline} currentPullId={pullId.data} /> : undefined}
      />
    </div>
  );
}
