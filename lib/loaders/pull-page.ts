import "server-only";
import { z } from "zod";
import type { Db } from "@/db/types";
import { can, canOnPull, scopingOffice, viewScope } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { getAccountHistory, type HistoryEntry } from "@/lib/monitoring/history";
import { listActiveUsers } from "@/lib/users/queries";
import type { AuditEventRow } from "@/db/schema";
import type { ServiceConfig } from "@/lib/service/client";
import { listAuditEvents } from "@/lib/audit/audit-log";
import { pendingArchiveWrite } from "@/lib/ingest/archive";
import { getOpenDealReturn, type CameBackRow } from "@/lib/workflow/came-back";
import { coverageReviewOf, getReviewInputs, type CoverageReview } from "@/lib/review/review-page";
import { latestPolicyCheckRun, policyCheckView, type PolicyCheckView } from "@/lib/policy-check/runs";
import { getServicingPanel, type ServicingPanel } from "@/lib/servicing/panel";
import { getServicedPull, listServicingRequests } from "@/lib/servicing/queries";
import { completeEnrichmentRows, enrichmentPanelOf, type EnrichmentPanel } from "@/lib/enrichment/panel";
import { getAccountEnrichment } from "@/lib/enrichment/store";
import { getMonitoringOfPull, type PullMonitoring } from "@/lib/monitoring/pull-monitoring";
import { getPullDetail, type PullDetail } from "@/lib/pulls/queries";
import { listLegalHoldsOfPull, type LegalHold } from "@/lib/privacy/legal-holds";
import { listHandoffFiles, type HandoffFile } from "@/lib/handoff/export";
import { agencyzoomPanelOf, getAgencyzoomInputs, type AgencyzoomPanel } from "@/lib/handoff/agencyzoom-panel";
import { loadPullPageInputs } from "./pull-page-inputs";

// Everything the pull page (app/(app)/pulls/[pullId]/page.tsx) shows, in one call: the page
// renders it, and the benchmark (bench/run.ts) times this very function beside its SQL.
//
// Two round trips instead of three: the pull, its monitoring, its audit trail, the people to
// assign to, and the coverage review's rules and the account's decisions need only the pull's
// id, so they are read together (the account's kept enrichment look-ups too); only the account's
// history, look-ups of the same questions kept under another account, and a WON client's
// Servicing panel (the carrier's catalogue, requests under way: the service, bounded) wait for
// the pull (they need the account, its stage, and the viewer's right to see it). Whatever was
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
  /** The service's policy check: the newest run again, else the pull's own results. */
  policyCheck: PolicyCheckView;
  canRunPolicyCheck: boolean;
  canDownloadDocuments: boolean;
  /** A WON client's Servicing panel (lib/servicing): what the carrier allows, the requests so far; null otherwise. */
  servicing: ServicingPanel | null;
  /** The paid look-ups kept for the account, per home and driver, and whether the viewer may ask more (lib/review). */
  enrichment: EnrichmentPanel;
  /** For a SERVICING pull: the client's pull whose servicing request it answers. */
  servicedPullId: string | null;
  /** Archived in Coverdesk, and whether the service has yet to be told (lib/ingest/archive.ts). */
  archive: ArchiveState;
  /** The legal holds that keep the pull from disposal, and whether the viewer may place and lift them (lib/privacy). */
  legalHolds: { holds: LegalHold[]; canManage: boolean };
  /** The EZLynx files the pull makes and what each leaves out (lib/handoff); empty without an auto or a home, or the right to export. */
  handoff: HandoffFile[];
  /** The "Send to AgencyZoom" panel (lib/handoff/agencyzoom-panel.ts); null without the right to send, or for a child pull. */
  agencyzoom: AgencyzoomPanel | null;
};

export type ArchiveState = {
  archived: boolean;
  canArchive: boolean;
  /** The decision the service has not confirmed: waiting for the next sync, or refused (parked). */
  pending: { lastError: string | null; parked: boolean } | null;
};

const pullIdSchema = z.uuid();

/** The page, or null when there is no such pull or the user may not see it (a 404 either way). */
export async function loadPullPage(
  db: Db,
  service: ServiceConfig,
  user: Actor,
  pullId: string,
  /** Whether AGENCYZOOM_BASE_URL is set: the panel offers no send without it. */
  agencyzoomConfigured = false,
): Promise<PullPage | null> {
  if (!pullIdSchema.safeParse(pullId).success) return null;
  // Each read under its input's name (lib/loaders/pull-page-inputs.ts): the page's version hashes them all.
  const {
    detail,
    monitoring,
    people,
    history,
    dealReturn,
    review: reviewInputs,
    policyCheck: policyCheckRun,
    servicing: servicingRows,
    enrichment: enrichmentRows,
    servicedPull: servicedPullId,
    archive: archiveWrite,
    legalHolds: holds,
    agencyzoom: agencyzoomInputs,
  } = await loadPullPageInputs({
    detail: getPullDetail(db, pullId),
    monitoring: getMonitoringOfPull(db, pullId),
    people: can(user, "pulls:assign") ? listActiveUsers(db, scopingOffice(user)) : [],
    history: listAuditEvents(db, { pullId, withoutViews: true }),
    dealReturn: getOpenDealReturn(db, pullId),
    review: getReviewInputs(db, pullId),
    policyCheck: latestPolicyCheckRun(db, pullId),
    servicing: listServicingRequests(db, pullId),
    enrichment: getAccountEnrichment(db, pullId),
    // Beside the rest rather than after the pull: one indexed look-up, no extra round trip.
    servicedPull: getServicedPull(db, pullId),
    archive: pendingArchiveWrite(db, pullId),
    legalHolds: listLegalHoldsOfPull(db, pullId),
    agencyzoom: getAgencyzoomInputs(db, pullId),
  });
  if (!detail || !canOnPull(user, "pulls:view", detail.workflow)) return null;
  const {
    timeline,
    enrichment: keptLookups,
    servicing,
  } = await loadPullPageInputs({
    timeline: getAccountHistory(db, viewScope(user), detail.accountKey),
    enrichment: completeEnrichmentRows(db, detail.pull, enrichmentRows),
    // WON clients only; asks the service (briefly) about the carrier and requests still under way.
    servicing: getServicingPanel(db, service, user, detail, servicingRows),
  });
  return {
    detail,
    monitoring,
    people,
    // A legal hold's reason is for admins (it may name a matter): others read that it was placed.
    history: can(user, "retention:manage") ? history : { ...history, rows: history.rows.map(withoutHoldReason) },
    timeline,
    showProblems: can(user, "pulls:view-problems"),
    canManageMonitoring: can(user, "monitoring:manage"),
    dealReturn,
    review: coverageReviewOf(detail.pull, detail.workflow, user, reviewInputs),
    policyCheck: policyCheckView(detail.pull, policyCheckRun),
    canRunPolicyCheck: canOnPull(user, "policy-check:run", detail.workflow),
    canDownloadDocuments: canOnPull(user, "documents:download", detail.workflow),
    servicing,
    enrichment: enrichmentPanelOf(detail.pull, detail.workflow, user, keptLookups),
    servicedPullId,
    archive: {
      archived: archiveWrite ? archiveWrite.archived : detail.pull.is_archived === true,
      canArchive: can(user, "pulls:archive"),
      pending: archiveWrite ? { lastError: archiveWrite.lastError, parked: archiveWrite.parked } : null,
    },
    legalHolds: { holds, canManage: can(user, "retention:manage") },
    // Built from the pull already read (no round trip): the same builders the download runs.
    handoff: canOnPull(user, "handoffs:export", detail.workflow) ? listHandoffFiles(detail.pull) : [],
    agencyzoom:
      canOnPull(user, "handoffs:send", detail.workflow) && !detail.pull.parent_pull_id
        ? agencyzoomPanelOf(
            detail.pull,
            detail.workflow.assigneeId,
            agencyzoomInputs,
            agencyzoomConfigured,
            new Date().toISOString().slice(0, 10),
          )
        : null,
  };
}

const HOLD_ACTIONS: ReadonlySet<string> = new Set(["LEGAL_HOLD_PLACED", "LEGAL_HOLD_LIFTED"]);

function withoutHoldReason(row: AuditEventRow): AuditEventRow {
  if (!HOLD_ACTIONS.has(row.action) || !row.details || typeof row.details !== "object") return row;
  const { reason: _reason, ...details } = row.details as Record<string, unknown>;
  return { ...row, details };
}
