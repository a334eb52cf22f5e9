import "server-only";
import { and, desc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { agencyzoomSettings, handoffs, pulls, users } from "@/db/schema";
import type { Actor } from "@/lib/core/actor";
import type { AgencyzoomConfig } from "@/lib/env";
import { sendPullToAgencyzoom } from "@/lib/handoff/agencyzoom-send";
import { saveAgencyzoomSettings } from "@/lib/handoff/agencyzoom-settings";

// The demo agency's AgencyZoom: the admin's settings saved with the stand-in's ids
// (sandbox/agencyzoom/seed.ts: pipeline 5001 "New Leads Pipeline", its stage 50011 "New Lead",
// lead source 7001, users 3001–3003), so a send from a pull's page works on the first run, and
// one won client already sent, so the panel shows a sent lead with its link. Through the real
// commands; run again, it finds the settings and the sent pull there and does nothing. An
// admin's own settings are never overwritten: they are saved only when none are.

/** The demo users' AgencyZoom users in the stand-in (Alex Agent 3001, Morgan Manager 3002, Avery Admin 3003). */
const DEMO_MAP: Record<string, number> = {
  "agent@example.com": 3001,
  "manager@example.com": 3002,
  "admin@example.com": 3003,
};

/**
 * Saves the stand-in's ids as the admin would, when nothing is saved yet: at every start in
 * development and test (the demo users' start-up), so a send works whether or not the demo
 * agency's history was built. Answers whether it saved.
 */
export async function saveDemoAgencyzoomSettings(db: Db, log: (m: string) => void = () => {}): Promise<boolean> {
  const [saved] = await db.select({ id: agencyzoomSettings.id }).from(agencyzoomSettings).limit(1);
  if (saved) return false;
  const demo = await db
    .select({ id: users.id, name: users.name, role: users.role, email: users.email })
    .from(users)
    .where(inArray(sql`lower(${users.email})`, Object.keys(DEMO_MAP)));
  const admin = demo.find((u) => u.email.toLowerCase() === "admin@example.com");
  if (!admin) return false;
  const result = await saveAgencyzoomSettings(db, admin, {
    pipelineId: 5001,
    stageId: 50011,
    leadSourceId: 7001,
    country: "US",
    fallbackAssigneeId: 3001,
    userMap: demo.map((u) => ({ userId: u.id, agencyzoomUserId: DEMO_MAP[u.email.toLowerCase()] ?? null })),
  });
  if (result.ok) log("AgencyZoom settings saved for the stand-in (pipeline 5001, stage 50011, lead source 7001)");
  return result.ok;
}

/** The settings (when none are saved) and one won client of Alex Agent's sent as a lead. */
export async function setUpDemoAgencyzoom(
  db: Db,
  options: { agent: Actor; config: AgencyzoomConfig | null; log: (m: string) => void },
): Promise<void> {
  await saveDemoAgencyzoomSettings(db, options.log);
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
