import "server-only";
import type { Db } from "@/db/types";
import type { HandoffRow } from "@/db/schema";
import type { Pull } from "@/lib/service/schemas";
import { buildAgencyzoomLead, type RequiredValue } from "./agencyzoom-lead";
import { assigneeFor, getAgencyzoomSettings, type AgencyzoomSettings } from "./agencyzoom-settings";
import { getHandoff } from "./agencyzoom-send";

// The pull page's "Send to AgencyZoom" panel: before a send, what AgencyZoom requires and where
// each value comes from (the pull, the admin's assumptions, or missing, which blocks the send),
// and whom the lead is assigned to; after, when and by whom it was sent, and the link to the lead.

export type AgencyzoomInputs = { settings: AgencyzoomSettings; sent: HandoffRow | null };

export type AgencyzoomPanel = {
  /** False: AGENCYZOOM_BASE_URL is unset here; the panel says so and offers no send. */
  configured: boolean;
  required: RequiredValue[];
  /** Whom the lead goes to: the owner's mapped AgencyZoom user, the admin's fallback, or nobody yet. */
  assignee: { agencyzoomUserId: number | null; how: "mapped" | "fallback" | "none" };
  /** Nothing required is missing: the button sends. */
  ready: boolean;
  sent: { at: Date; by: string; url: string | null; externalId: string; count: number } | null;
};

export async function getAgencyzoomInputs(db: Db, pullId: string): Promise<AgencyzoomInputs> {
  const [settings, sent] = await Promise.all([getAgencyzoomSettings(db), getHandoff(db, pullId)]);
  return { settings, sent };
}

export function agencyzoomPanelOf(
  pull: Pull,
  ownerId: string | null,
  inputs: AgencyzoomInputs,
  configured: boolean,
  today: string,
): AgencyzoomPanel {
  const { settings, sent } = inputs;
  const mapped = ownerId ? settings.userMap[ownerId] : undefined;
  const assignTo = assigneeFor(settings, ownerId);
  const built = buildAgencyzoomLead(
    pull,
    {
      pipelineId: settings.pipelineId,
      stageId: settings.stageId,
      leadSourceId: settings.leadSourceId,
      country: settings.country,
      assignTo,
    },
    today,
  );
  return {
    configured,
    required: built.required,
    assignee: {
      agencyzoomUserId: assignTo,
      how: mapped !== undefined ? "mapped" : assignTo !== null ? "fallback" : "none",
    },
    ready: configured && built.ok,
    sent: sent
      ? { at: sent.sentAt, by: sent.sentByName, url: sent.url, externalId: sent.externalId, count: sent.sendCount }
      : null,
  };
}
