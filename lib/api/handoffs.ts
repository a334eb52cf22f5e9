import "server-only";
import { z } from "zod";
import type { Db } from "@/db/types";
import type { Actor } from "@/lib/core/actor";
import type { AgencyzoomConfig } from "@/lib/env";
import { sendPullToAgencyzoom } from "@/lib/handoff/agencyzoom-send";
import { apiError, type ApiAnswer } from "./errors";

// POST /api/v1/pulls/{pull_id}/handoffs: a pull handed to the agency's management system, the
// same send as the pull page's button (lib/handoff/agencyzoom-send.ts), in the API's shapes.

export const HANDOFF_TARGETS = ["agencyzoom"] as const;

export const handoffCreateSchema = z
  .strictObject({
    target: z.enum(HANDOFF_TARGETS, { message: 'target must be "agencyzoom".' }).meta({
      description: "The system the pull goes to: `agencyzoom` (a lead in AgencyZoom).",
    }),
  })
  .meta({ id: "HandoffCreate" });

export const handoffResultSchema = z
  .object({
    target: z.enum(HANDOFF_TARGETS),
    external_id: z.string().meta({ description: "The record's id in the target system (AgencyZoom's lead id)." }),
    url: z.url().meta({ description: "The record's page in the target system." }),
    action: z.enum(["created", "updated"]).meta({
      description:
        "`created` on the first send (or when the kept lead was gone from AgencyZoom), `updated` when the kept lead was updated.",
    }),
  })
  .meta({ id: "Handoff" });
export type HandoffResult = z.output<typeof handoffResultSchema>;

export async function createApiHandoff(
  db: Db,
  config: AgencyzoomConfig | null,
  actor: Actor,
  pullId: string,
  body: z.output<typeof handoffCreateSchema>,
): Promise<ApiAnswer> {
  const sent = await sendPullToAgencyzoom(db, config, actor, pullId);
  if (sent.ok) {
    const answer: HandoffResult = {
      target: body.target,
      external_id: sent.externalId,
      url: sent.url,
      action: sent.action,
    };
    return { status: sent.action === "created" ? 201 : 200, body: answer };
  }
  switch (sent.code) {
    case "NOT_FOUND":
      return apiError("NOT_FOUND", "That linked account does not exist.");
    case "UNAVAILABLE":
      return apiError("TARGET_UNAVAILABLE", sent.message);
    case "REFUSED":
      return apiError("TARGET_REFUSED", sent.message, sent.field);
    case "UPSTREAM":
      return apiError("TARGET_FAILED", sent.message);
  }
}
