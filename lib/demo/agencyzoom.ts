import "server-only";
import { and, desc, eq, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "@/db/types";
import { agencyzoomSettings, handoffs, pulls } from "@/db/schema";
import type { Actor } from "@/lib/core/actor";
import type { AgencyzoomConfig } from "@/lib/env";
import { sendPullToAgencyzoom } from "@/lib/handoff/agencyzoom-send";
import { saveAgencyzoomSettings } from "@/lib/handoff/agencyzoom-settings";

// The demo agency's AgencyZoom: the admin's settings saved with the stand-in's ids
// (sandbox/agencyzoom/seed.ts: pipeline 5001 "New Leads Pipeline", its stage 50011 "New Lead",
// lead source 7001, users 3001–3003), so a send from a pull's page works on the first run, and
// one won client already sent, so the panel shows a sent lead with its link. Through the real
// commands; run again, it finds the settings and the sent pull there and does nothing.

export async function setUpDemoAgencyzoom(
  db: Db,
  options: { admin: Actor; manager: Actor; agent: Actor; config: AgencyzoomConfig | null; log: (m: string) => void },
): Promise<void> {
  const [saved] = await db.select({ id: agencyzoomSettings.id }).from(agencyzoomSettings).limit(1);
  if (!saved) {
    const result = await saveAgencyzoomSettings(db, options.admin, {
      pipelineId: 5001,
      stageId: 50011,
      leadSourceId: 7001,
      country: "US",
      fallbackAssigneeId: 3001,
      userMap: [
        { userId: options.agent.id, agencyzoomUserId: 3001 },
        { userId: options.manager.id, agencyzoomUserId: 3002 },
        { userId: options.admin.id, agencyzoomUserId: 3003 },
      ],
    });
    if (result.ok) options.log("AgencyZoom settings saved for the stand-in");
  }
  if (!options.config) return;
  const [sentAlready] = await db.select({ id: handoffs.id }).from(handoffs).limit(1);
  if (sentAlready) return;
  const [won] = await db
    .select({ pullId: pulls.pullId })
    .from(pulls)
    .where(
      and(
        eq(pulls.stage, "WON"),
        eq(pulls.assigneeId, options.agent.id),
        isNotNull(pulls.email),
        isNull(pulls.parentPullId),
      ),
    )
    .orderBy(desc(pulls.stageChangedAt), pulls.pullId)
    .limit(1);
  if (!won) return;
  const sent = await sendPullToAgencyzoom(db, options.config, options.agent, won.pullId);
  options.log(
    sent.ok
      ? `one won client sent to AgencyZoom (lead ${sent.externalId})`
      : `the AgencyZoom stand-in did not take the demo lead: ${sent.message}`,
  );
}
