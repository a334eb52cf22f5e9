import "server-only";
import { asc, eq, inArray, or } from "drizzle-orm";
import type { Db } from "@/db/types";
import {
  alerts,
  auditEvents,
  dealReturns,
  enrichmentAnswers,
  findingDecisions,
  lostDecisions,
  monitoringEvents,
  monitorings,
  policyXDates,
  pulls,
  pullVersions,
  servicingRequests,
  users,
} from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit-log";
import type { Actor } from "@/lib/core/actor";
import { invalid, notFound, type CommandResult } from "@/lib/core/result";
import { parsePull, type Pull } from "@/lib/service/schemas";
import { buildConsumerExportPdf } from "./export-pdf";
import type { ConsumerExport } from "./export-shape";

export type { ConsumerExport };
import { completeAccessRequest, getPrivacyRequest } from "./requests";

// A consumer's copy of everything Coverdesk holds on them (an access request): each pull as the
// service sent it, its earlier versions, and the agency's own records about it (stage and
// owner, decisions on findings, enrichment answers, alerts, X-dates, servicing requests,
// monitoring events, and the audit trail's entries about it). As JSON (complete) and as a
// readable PDF. It leaves Coverdesk, so each export is on the audit trail with its recipient
// (the consumer) and purpose; the staff who handled them appear by role, not by login.

const iso = (value: Date | string | null | undefined) =>
  value === null || value === undefined ? null : new Date(value).toISOString();

/** Everything held on these pulls, for the consumer. */
export async function buildConsumerExport(
  db: Db,
  request: ConsumerExport["request"],
  pullIds: string[],
  now = new Date(),
): Promise<ConsumerExport> {
  const rows =
    pullIds.length === 0
      ? []
      : await db
          .select({ pull: pulls, assignee: users.name })
          .from(pulls)
          .leftJoin(users, eq(users.id, pulls.assigneeId))
          .where(inArray(pulls.pullId, pullIds))
          .orderBy(asc(pulls.serviceCreatedAt));
  const out: ConsumerExport["pulls"] = [];
  for (const { pull, assignee } of rows) {
    const id = pull.pullId;
    const accountKeys = [id, ...(pull.accountIdentifier ? [pull.accountIdentifier] : [])];
    const [versions, decisions, answers, pullAlerts, xDates, servicing, mons, events, returns, losses, history] =
      await Promise.all([
        db.select().from(pullVersions).where(eq(pullVersions.pullId, id)).orderBy(asc(pullVersions.fetchedAt)),
        db
          .select({
            findingKey: findingDecisions.findingKey,
            decision: findingDecisions.decision,
            note: findingDecisions.note,
            decidedAt: findingDecisions.decidedAt,
          })
          .from(findingDecisions)
          .where(or(eq(findingDecisions.pullId, id), inArray(findingDecisions.accountKey, accountKeys))),
        db
          .select({
            kind: enrichmentAnswers.kind,
            subjectKey: enrichmentAnswers.subjectKey,
            purpose: enrichmentAnswers.purpose,
            status: enrichmentAnswers.status,
            question: enrichmentAnswers.question,
            answer: enrichmentAnswers.answer,
            askedAt: enrichmentAnswers.askedAt,
          })
          .from(enrichmentAnswers)
          .where(or(eq(enrichmentAnswers.pullId, id), inArray(enrichmentAnswers.accountKey, accountKeys))),
        db
          .select({
            kind: alerts.kind,
            headline: alerts.headline,
            details: alerts.details,
            status: alerts.status,
            createdAt: alerts.createdAt,
          })
          .from(alerts)
          .where(eq(alerts.pullId, id)),
        db
          .select({
            policyId: policyXDates.policyId,
            carrier: policyXDates.carrierLabel,
            xDate: policyXDates.xDate,
            note: policyXDates.note,
          })
          .from(policyXDates)
          .where(eq(policyXDates.pullId, id)),
        db
          .select({
            actionType: servicingRequests.actionType,
            payload: servicingRequests.payload,
            status: servicingRequests.status,
            consumerAnswer: servicingRequests.consumerAnswer,
            consumerAnsweredAt: servicingRequests.consumerAnsweredAt,
            consumerAnsweredIp: servicingRequests.consumerAnsweredIp,
            requestedAt: servicingRequests.requestedAt,
          })
          .from(servicingRequests)
          .where(eq(servicingRequests.pullId, id)),
        db
          .select({
            status: monitorings.status,
            interval: monitorings.interval,
            nextPullDate: monitorings.nextPullDate,
          })
          .from(monitorings)
          .where(or(eq(monitorings.initialPullId, id), eq(monitorings.latestPullId, id))),
        db
          .select({
            type: monitoringEvents.type,
            changes: monitoringEvents.changes,
            receivedAt: monitoringEvents.receivedAt,
          })
          .from(monitoringEvents)
          .where(eq(monitoringEvents.pullId, id)),
        db
          .select({ kind: dealReturns.kind, headline: dealReturns.headline, returnedAt: dealReturns.returnedAt })
          .from(dealReturns)
          .where(eq(dealReturns.pullId, id)),
        db
          .select({
            lostAt: lostDecisions.lostAt,
            category: lostDecisions.lostCategory,
            reason: lostDecisions.lostReason,
          })
          .from(lostDecisions)
          .where(eq(lostDecisions.pullId, id)),
        db
          .select({
            at: auditEvents.at,
            action: auditEvents.action,
            by: auditEvents.actorName,
            details: auditEvents.details,
          })
          .from(auditEvents)
          .where(eq(auditEvents.pullId, id))
          .orderBy(asc(auditEvents.at)),
      ]);
    out.push({
      pullId: id,
      payload: pull.raw,
      earlierVersions: versions.map((v) => ({
        fetchedAt: iso(v.fetchedAt) ?? "",
        replacedAt: iso(v.replacedAt) ?? "",
        payload: v.raw,
      })),
      agency: {
        stage: pull.stage,
        assignedTo: assignee ?? null,
        stageChangedAt: iso(pull.stageChangedAt),
        lostReason: pull.lostReason,
        wonPremiumCents: pull.wonPremiumCents,
        archived: pull.isArchived,
      },
      findingDecisions: decisions,
      enrichmentAnswers: answers,
      alerts: pullAlerts,
      xDates,
      servicingRequests: servicing,
      monitorings: mons,
      monitoringEvents: events,
      dealReturns: returns,
      lostDecisions: losses,
      history: history.map((h) => ({ at: iso(h.at) ?? "", action: h.action, by: h.by, details: h.details })),
    });
  }
  return { generatedAt: now.toISOString(), request, pulls: out };
}

export type ExportFormat = "json" | "pdf";
export type ExportFile = { bytes: Uint8Array; contentType: string; filename: string };

/**
 * A request's export, audited as data leaving Coverdesk (recipient: the consumer). An access
 * request is answered by its first export. An erased consumer has nothing left to export.
 */
export async function exportPrivacyRequest(
  db: Db,
  actor: Actor,
  requestId: string,
  format: ExportFormat,
  now = new Date(),
): Promise<CommandResult<{ file: ExportFile }>> {
  const request = await getPrivacyRequest(db, requestId);
  if (!request) return notFound("That request");
  if (request.pullIds.length === 0) return invalid("Nothing is held on this consumer any more.");
  const data = await buildConsumerExport(
    db,
    {
      id: request.id,
      kind: request.kind,
      receivedOn: request.receivedOn,
      dueOn: request.dueOn,
      reference: request.reference,
    },
    request.pullIds,
    now,
  );
  if (data.pulls.length === 0) return invalid("Nothing is held on this consumer any more.");
  const day = now.toISOString().slice(0, 10);
  const file: ExportFile =
    format === "json"
      ? {
          bytes: new TextEncoder().encode(`${JSON.stringify(data, null, 2)}\n`),
          contentType: "application/json; charset=utf-8",
          filename: `coverdesk-data-${day}.json`,
        }
      : {
          bytes: await buildConsumerExportPdf(data, parsedPulls(data)),
          contentType: "application/pdf",
          filename: `coverdesk-data-${day}.pdf`,
        };
  await db.transaction(async (tx) => {
    await recordAudit(tx, actor, "CONSUMER_DATA_EXPORTED", {
      details: {
        request: request.id,
        format,
        pulls: data.pulls.length,
        recipient: "the consumer",
        purpose: request.kind === "ACCESS" ? "the consumer's request for a copy of their data" : "before erasure",
      },
      at: now,
    });
    if (request.kind === "ACCESS") await completeAccessRequest(tx, actor, request.id, now);
  });
  return { ok: true, file };
}

/** Each exported pull read as the spec describes it (what the PDF words), or null when it cannot be. */
function parsedPulls(data: ConsumerExport): (Pull | null)[] {
  return data.pulls.map((p) => {
    const parsed = parsePull(p.payload);
    return parsed.ok ? parsed.pull : null;
  });
}
