import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { handoffs, type HandoffRow } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit-log";
import { DRIVER_DATA, recordRedisclosure } from "@/lib/audit/redisclosure";
import type { Actor } from "@/lib/core/actor";
import type { AgencyzoomConfig } from "@/lib/env";
import { getViewablePull } from "@/lib/pulls/access";
import { AgencyzoomError, agencyzoomLeadUrl, createAgencyzoomLead, updateAgencyzoomLead } from "./agencyzoom-client";
import { buildAgencyzoomLead } from "./agencyzoom-lead";
import { assigneeFor, getAgencyzoomSettings } from "./agencyzoom-settings";

// Sending a pull to AgencyZoom as a lead: the first send creates it, a later one updates the lead
// whose id Coverdesk kept (AgencyZoom's create is not idempotent: a second create would be a
// second lead); a kept lead AgencyZoom no longer has (404) is created again, and the answer says
// so. One send of a pull at a time (an advisory lock held across the call), so two clicks cannot
// make two leads. Every send is on the audit trail and, as personal data leaving Coverdesk, in
// the redisclosure log with its recipient and purpose, in the transaction that keeps the lead id.

export const AGENCYZOOM_TARGET = "agencyzoom";
export const AGENCYZOOM_RECIPIENT = "AgencyZoom";
export const AGENCYZOOM_PURPOSE = "lead in the agency's management system";

export type SendAction = "created" | "updated";

export type SentHandoff = {
  ok: true;
  action: SendAction;
  externalId: string;
  url: string;
  /** The kept lead was gone from AgencyZoom, so a new one was created. */
  recreated: boolean;
  sentAt: Date;
};

export type SendFailure = {
  ok: false;
  /** NOT_FOUND: no such pull (or not theirs); UNAVAILABLE: AgencyZoom is not configured; REFUSED: a value is missing or AgencyZoom refused one (field); UPSTREAM: AgencyZoom failed. */
  code: "NOT_FOUND" | "UNAVAILABLE" | "REFUSED" | "UPSTREAM";
  message: string;
  field?: string;
};

export type SendResult = SentHandoff | SendFailure;

export async function getHandoff(db: Db, pullId: string, target = AGENCYZOOM_TARGET): Promise<HandoffRow | null> {
  const [row] = await db
    .select()
    .from(handoffs)
    .where(and(eq(handoffs.pullId, pullId), eq(handoffs.target, target)));
  return row ?? null;
}

function failureOf(error: AgencyzoomError): SendFailure {
  if (error.kind === "INVALID")
    return { ok: false, code: "REFUSED", message: error.message, field: error.fieldErrors[0]?.field };
  if (error.kind === "UNAUTHORIZED")
    return {
      ok: false,
      code: "UPSTREAM",
      message: `${error.message} Check AGENCYZOOM_USERNAME and AGENCYZOOM_PASSWORD.`,
    };
  return { ok: false, code: "UPSTREAM", message: error.message };
}

export async function sendPullToAgencyzoom(
  db: Db,
  config: AgencyzoomConfig | null,
  actor: Actor,
  pullId: string,
  now: Date = new Date(),
): Promise<SendResult> {
  if (!config)
    return {
      ok: false,
      code: "UNAVAILABLE",
      message: "AgencyZoom is not configured here (AGENCYZOOM_BASE_URL is unset).",
    };
  const detail = await getViewablePull(db, actor, pullId, "handoffs:send");
  if (!detail || detail.pull.parent_pull_id)
    return { ok: false, code: "NOT_FOUND", message: "That linked account does not exist or is not yours to see." };
  const settings = await getAgencyzoomSettings(db);
  const built = buildAgencyzoomLead(
    detail.pull,
    {
      pipelineId: settings.pipelineId,
      stageId: settings.stageId,
      leadSourceId: settings.leadSourceId,
      country: settings.country,
      assignTo: assigneeFor(settings, detail.workflow.assigneeId),
    },
    now.toISOString().slice(0, 10),
  );
  if (!built.ok) {
    const first = built.missing[0];
    const failure: SendFailure = {
      ok: false,
      code: "REFUSED",
      message:
        `AgencyZoom needs ${built.missing.map((m) => m.label.toLowerCase()).join(", ")}, which ${built.missing.length === 1 ? "is" : "are"} missing: ${first?.note ?? ""}`.trim(),
      field: first?.field,
    };
    await recordFailure(db, actor, pullId, failure);
    return failure;
  }
  const { lead } = built;

  const outcome = await db.transaction(async (tx): Promise<SendResult> => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`handoff:${AGENCYZOOM_TARGET}:${pullId}`}))`);
    const kept = await getHandoff(tx, pullId);
    let action: SendAction = "created";
    let recreated = false;
    let externalId: string;
    try {
      if (kept) {
        try {
          await updateAgencyzoomLead(config, kept.externalId, lead);
          action = "updated";
          externalId = kept.externalId;
        } catch (error) {
          if (!(error instanceof AgencyzoomError) || error.kind !== "NOT_FOUND") throw error;
          externalId = await createAgencyzoomLead(config, lead);
          recreated = true;
        }
      } else externalId = await createAgencyzoomLead(config, lead);
    } catch (error) {
      if (error instanceof AgencyzoomError) return failureOf(error);
      throw error;
    }
    const url = agencyzoomLeadUrl(config, externalId);
    const sentBy = actor.apiKey ? null : actor.id;
    await tx
      .insert(handoffs)
      .values({
        pullId,
        target: AGENCYZOOM_TARGET,
        externalId,
        url,
        sentBy,
        sentByName: actor.name,
        firstSentAt: now,
        sentAt: now,
      })
      .onConflictDoUpdate({
        target: [handoffs.pullId, handoffs.target],
        set: {
          externalId,
          url,
          sentBy,
          sentByName: actor.name,
          sentAt: now,
          sendCount: sql`${handoffs.sendCount} + 1`,
        },
      });
    await recordRedisclosure(tx, {
      pullIds: [pullId],
      recipient: AGENCYZOOM_RECIPIENT,
      purpose: AGENCYZOOM_PURPOSE,
      dataKinds: built.drivers > 0 ? [DRIVER_DATA, "contact details", "coverage"] : ["contact details", "coverage"],
      channel: "hand-off",
      actor,
    });
    await recordAudit(tx, actor, "HANDOFF_SENT", {
      pullId,
      details: {
        target: AGENCYZOOM_TARGET,
        action,
        externalId,
        recreated,
        recipient: AGENCYZOOM_RECIPIENT,
        purpose: AGENCYZOOM_PURPOSE,
        drivers: built.drivers,
        vehicles: built.vehicles,
      },
    });
    return { ok: true, action, externalId, url, recreated, sentAt: now };
  });
  if (!outcome.ok) await recordFailure(db, actor, pullId, outcome);
  return outcome;
}

/** A refused or failed send, on the pull's history: what AgencyZoom or Coverdesk said, never the lead. */
async function recordFailure(db: Db, actor: Actor, pullId: string, failure: SendFailure): Promise<void> {
  await recordAudit(db, actor, "HANDOFF_FAILED", {
    pullId,
    details: { target: AGENCYZOOM_TARGET, code: failure.code, field: failure.field ?? null, message: failure.message },
  });
}
