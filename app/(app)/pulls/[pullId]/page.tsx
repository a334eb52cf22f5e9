import { LINK_CLASS } from "@/components/ui/link-class";
import { cn } from "@/components/ui/class-names";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { after } from "next/server";
import { DealReturnBanner } from "@/components/pulls/detail/deal-return-banner";
import { LiveRefresh } from "@/components/pulls/detail/live-refresh";
import { PullDetailView } from "@/components/pulls/detail/pull-detail-view";
import { HandoffPanel } from "@/components/pulls/detail/handoff-panel";
import { AgencyzoomPanel } from "@/components/pulls/detail/agencyzoom-panel";
import { AccountHistory } from "@/components/monitoring/account-history";
import { CoverageReview } from "@/components/review/coverage-review";
import { EnrichmentPanel } from "@/components/review/enrichment-panel";
import { PolicyCheckCard } from "@/components/review/policy-check-card";
import { MonitoringPanel } from "@/components/monitoring/monitoring-panel";
import { HouseholdCrossSell } from "@/components/review/household-cross-sell";
import { ServicingPanel } from "@/components/servicing/servicing-panel";
import { LegalHoldPanel } from "@/components/privacy/legal-hold-panel";
import { PullHistory } from "@/components/workflow/pull-history";
import { WorkflowPanel } from "@/components/workflow/workflow-panel";
import { getDb } from "@/lib/database";
import { requirePermission } from "@/lib/auth/session";
import { loadPullPage } from "@/lib/loaders/pull-page";
import { env } from "@/lib/env";
import { markPullSeen } from "@/lib/workflow/seen";
import { recordPullViewed } from "@/lib/audit/audit-log";
import {
  decideFindingAction,
  liftLegalHoldAction,
  placeLegalHoldAction,
  requestEnrichmentAction,
  requestServicingAction,
  revokeServicingLinkAction,
  rerunPolicyCheckAction,
  sendToAgencyzoomAction,
} from "./actions";

export const metadata: Metadata = { title: "Linked account" };

// GET /pulls/[pullId] — everything the service told us about one linked account.
export default async function PullDetailPage({ params }: { params: Promise<{ pullId: string }> }) {
  const [user, { pullId }, db] = await Promise.all([requirePermission("pulls:view"), params, getDb()]);
  const data = await loadPullPage(db, env().service, user, pullId, env().agencyzoom !== null);
  if (!data) notFound();
  const { detail, monitoring, people, history, timeline } = data;
  // Opening an assigned pull is what stops it counting as new for its assignee. Written after the
  // response (a GET does not write while it renders): the page shows the pull as it was loaded.
  if (detail.workflow.assigneeId === user.id) after(() => markPullSeen(db, user.id, pullId));
  // Who saw this consumer, from where: on the audit trail for the incident-scope report.
  after(() => recordPullViewed(db, user, pullId));

  return (
    <div className="space-y-6">
      <Link href="/pulls" className={cn(LINK_CLASS, "text-sm")}>
        ← All linked accounts
      </Link>
      <LiveRefresh pullId={pullId} />
      {data.dealReturn ? <DealReturnBanner dealReturn={data.dealReturn} /> : null}
      <PullDetailView
        detail={detail}
        monitoring={monitoring}
        showProblems={data.showProblems}
        servicedPullId={data.servicedPullId}
        pipeline={
          <>
            <HouseholdCrossSell pull={detail.pull} today={new Date().toISOString().slice(0, 10)} />
            <WorkflowPanel
              user={user}
              pullId={pullId}
              workflow={detail.workflow}
              people={people}
              archive={data.archive}
            />
            {data.canManageMonitoring ? <MonitoringPanel pullId={pullId} monitoring={monitoring} /> : null}
            <LegalHoldPanel
              pullId={pullId}
              panel={data.legalHolds}
              place={placeLegalHoldAction}
              lift={liftLegalHoldAction}
            />
            {data.servicing ? (
              <ServicingPanel
                pullId={pullId}
                panel={data.servicing}
                clientEmail={detail.pull.email ?? null}
                request={requestServicingAction}
                revokeLink={revokeServicingLinkAction}
              />
            ) : null}
          </>
        }
        review={
          <div className="space-y-6">
            <CoverageReview pullId={pullId} review={data.review} decide={decideFindingAction} />
            <EnrichmentPanel panel={data.enrichment} request={requestEnrichmentAction} />
          </div>
        }
        policyCheck={
          <PolicyCheckCard
            pull={detail.pull}
            view={data.policyCheck}
            canRun={data.canRunPolicyCheck}
            canDownload={data.canDownloadDocuments}
            rerun={rerunPolicyCheckAction}
          />
        }
        handoff={
          data.handoff.length > 0 || data.agencyzoom ? (
            <>
              {data.handoff.length > 0 ? <HandoffPanel files={data.handoff} /> : null}
              {data.agencyzoom ? (
                <AgencyzoomPanel pullId={pullId} panel={data.agencyzoom} send={sendToAgencyzoomAction} />
              ) : null}
            </>
          ) : undefined
        }
        policyCheckStatus={data.policyCheck.status}
        history={<PullHistory entries={history.rows} />}
        timeline={timeline.length > 0 ? <AccountHistory entries={timeline} currentPullId={pullId} /> : undefined}
      />
    </div>
  );
}
