import "server-only";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { securitySettings } from "@/db/schema";
import type { Db } from "@/db/types";
import { recordAudit } from "@/lib/audit/audit-log";
import type { Actor } from "@/lib/core/actor";
import { forbidden, invalid, type CommandResult } from "@/lib/core/result";
import { env, type Env } from "@/lib/env";
import { can } from "./permissions";
import { hasConfirmedSecondFactor } from "./second-factor";

// Whether every user must have a second factor before doing anything else. The admin's setting
// (one row, security_settings) decides in development and tests, where the demo users sign in
// with a password alone; production requires one whatever the setting says, unless the server
// was started with COVERDESK_MFA_REQUIRED=false on purpose (env() names it in the log at every
// start). Forcing it on, rather than refusing to start while the setting is off, keeps a new
// production database startable: its first admin signs in and is sent to set up a factor.
//
// A user it applies to and who has no factor yet may only set one up (or sign out): the guards
// (lib/auth/session.ts for pages, route-guard.ts, action-guard.ts) refuse everything else.

/** What the guards need of the configuration: production is where demo mode is off. */
export type RequirementConfig = Pick<Env, "demoMode" | "mfaOptOut">;

export type SecondFactorRequirement = {
  /** The admin's setting. */
  setting: boolean;
  /** Production forces it on (COVERDESK_MFA_REQUIRED not false). */
  forcedByProduction: boolean;
  /** Production started with COVERDESK_MFA_REQUIRED=false: the setting alone decides. */
  optedOut: boolean;
  /** Whether users without a second factor must set one up first. */
  required: boolean;
};

/** The requirement as it stands: the admin's setting, or production unless opted out. */
export async function getSecondFactorRequirement(
  db: Db,
  config: RequirementConfig = env(),
): Promise<SecondFactorRequirement> {
  const [row] = await db
    .select({ required: securitySettings.secondFactorRequired })
    .from(securitySettings)
    .where(eq(securitySettings.id, 1));
  const setting = row?.required ?? false;
  const forcedByProduction = !config.demoMode && !config.mfaOptOut;
  return { setting, forcedByProduction, optedOut: config.mfaOptOut, required: setting || forcedByProduction };
}

/** Whether this user must set up a second factor before anything else. */
export async function mustEnrolSecondFactor(
  db: Db,
  userId: string,
  config: RequirementConfig = env(),
): Promise<boolean> {
  if (!(await getSecondFactorRequirement(db, config)).required) return false;
  return !(await hasConfirmedSecondFactor(db, userId));
}

export const secondFactorRequirementInputSchema = z.object({
  required: z.enum(["on", "off"], "Choose on or off.").transform((value) => value === "on"),
});

/**
 * Turns the requirement on or off (audited). An admin without a factor of their own cannot turn
 * it on: they would be the first one sent away from the page they are on.
 */
export async function saveSecondFactorRequirement(
  db: Db,
  actor: Actor,
  input: z.input<typeof secondFactorRequirementInputSchema>,
): Promise<CommandResult<{ required: boolean }>> {
  if (!can(actor, "settings:manage")) return forbidden("Only admins can change the sign-in rules.");
  const parsed = secondFactorRequirementInputSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error.issues[0]?.message ?? "Choose on or off.", "required");
  const required = parsed.data.required;
  if (required && !(await hasConfirmedSecondFactor(db, actor.id)))
    return invalid(
      "Set up your own second factor first (Security, in the menu): turning this on sends everyone without one there.",
      "required",
    );
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ required: securitySettings.secondFactorRequired })
      .from(securitySettings)
      .where(eq(securitySettings.id, 1))
      .for("update");
    await tx
      .insert(securitySettings)
      .values({ id: 1, secondFactorRequired: required, updatedBy: actor.id })
      .onConflictDoUpdate({
        target: securitySettings.id,
        set: { secondFactorRequired: required, updatedAt: sql`now()`, updatedBy: actor.id },
      });
    const from = before?.required ?? false;
    if (from !== required)
      await recordAudit(tx, actor, "SECOND_FACTOR_REQUIREMENT_CHANGED", { details: { from, to: required } });
    return { ok: true as const, required };
  });
}
