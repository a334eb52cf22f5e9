import "server-only";
import { z } from "zod";
import type { Db } from "@/db/types";
import type { Actor } from "@/lib/core/actor";
import { DASH, fullName, humanize } from "@/lib/format";
import { householdOf } from "@/lib/pulls/household";
import { getViewablePull } from "@/lib/pulls/access";
import { safeFilename } from "@/lib/pulls/download-headers";
import type { ServiceConfig } from "@/lib/service/client";
import { recordAudit } from "@/lib/audit/audit-log";
import { getAgencyName } from "./agency-name";
import { buildClientSummaryPdf, type ClientSummary } from "./client-summary-pdf";
import { reviewHousehold } from "./coverage";
import { dayOfInstant, getDecisions } from "./decisions";
import { clip, policyLabel } from "./finding-words";
import { getReviewSettings } from "./review-rules";

// GET /api/pulls/[pullId]/summary's work: the household's review made into the client-ready PDF
// for a viewer allowed to see the pull, and an audit entry saying who made it and what it listed.
// Findings the client declined move to their own section; those marked not applicable are left
// out (the agent judged them not to concern this client).

export const summaryParams = z.object({ pullId: z.uuid() });

export type MadeSummary = { bytes: Uint8Array; filename: string };

export async function makeClientSummary(
  db: Db,
  service: ServiceConfig,
  user: Actor,
  pullId: string,
  now: Date = new Date(),
): Promise<MadeSummary | null> {
  const detail = await getViewablePull(db, user, pullId);
  if (!detail || detail.pull.parent_pull_id) return null;
  const { pull } = detail;
  const day = dayOfInstant(now);
  const [settings, decisions, agencyName] = await Promise.all([
    getReviewSettings(db),
    getDecisions(db, pullId),
    getAgencyName(service, pull.widget_id),
  ]);
  const findings = reviewHousehold(pull, settings, day);
  const decisionOf = (key: string) => decisions.get(key)?.decision ?? null;
  const household = householdOf(pull);
  const name = fullName(pull);
  const summary: ClientSummary = {
    agencyName: clip(agencyName, 80),
    householdName: name === DASH ? "your household" : clip(name, 80),
    day,
    policies: household.policies.map(({ policy, annualCents, inForce }) => ({
      label: policyLabel(policy),
      status: policy.status ? humanize(policy.status).toLowerCase() : "status not stated",
      expiry: inForce ? policy.expiry_date : null,
      annualCents,
      inForce,
    })),
    totalAnnualCents: household.totalAnnualCents,
    unpriced: household.unpricedInForce,
    findings: findings.filter((f) => {
      const decision = decisionOf(f.key);
      return f.severity !== "unknown" && (decision === null || decision === "ACCEPTED");
    }),
    unknowns: findings
      .filter((f) => f.severity === "unknown" && decisionOf(f.key) !== "NOT_APPLICABLE")
      .map((f) => f.title),
    declined: findings.flatMap((f) => {
      const row = decisions.get(f.key);
      return row?.decision === "DECLINED" ? [{ title: f.title, note: row.note, day: dayOfInstant(row.decidedAt) }] : [];
    }),
  };
  const bytes = await buildClientSummaryPdf(summary);
  await recordAudit(db, user, "CLIENT_SUMMARY_MADE", {
    pullId,
    details: { findings: summary.findings.length, declined: summary.declined.length, agencyName: summary.agencyName },
  });
  return {
    bytes,
    filename: safeFilename(`Coverage review ${name === DASH ? "" : name} ${day}`, "application/pdf", "coverage-review"),
  };
}
