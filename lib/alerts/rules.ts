import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { agencyRules } from "@/db/schema";
import type { Actor } from "@/lib/workflow/actor";
import { recordAudit } from "@/lib/workflow/audit";
import { can } from "@/lib/auth/permissions";
import { forbidden, invalid, type CommandResult } from "@/lib/workflow/result";
import { DEFAULT_JUMP_THRESHOLDS, type JumpThresholds } from "./detect";

// The agency's alert rules (db/schema/alerts.ts `agencyRules`), read with their defaults and
// checked: a row edited by hand into nonsense reads as the defaults, never as "alert on nothing".

export const QUEUE_ALERT_RECIPIENTS = ["MANAGERS", "ADMINS", "NOBODY"] as const;

export type AlertRules = {
  jumpThresholds: JumpThresholds;
  digestHour: number;
  queueAlertsTo: (typeof QUEUE_ALERT_RECIPIENTS)[number];
};

export const DEFAULT_ALERT_RULES: AlertRules = {
  jumpThresholds: DEFAULT_JUMP_THRESHOLDS,
  digestHour: 7,
  queueAlertsTo: "MANAGERS",
};

const percent = z.number().finite().min(0).max(1000);
export const alertRulesSchema = z.object({
  jumpThresholds: z.object({ default: percent }).catchall(percent),
  digestHour: z.number().int().min(0).max(23),
  queueAlertsTo: z.enum(QUEUE_ALERT_RECIPIENTS),
});

export async function readAlertRules(db: Db): Promise<AlertRules> {
  const [row] = await db.select().from(agencyRules).where(eq(agencyRules.id, 1));
  if (!row) return DEFAULT_ALERT_RULES;
  const parsed = alertRulesSchema.safeParse({
    jumpThresholds: row.jumpThresholds,
    digestHour: row.digestHour,
    queueAlertsTo: row.queueAlertsTo,
  });
  return parsed.success ? (parsed.data as AlertRules) : DEFAULT_ALERT_RULES;
}

/** Lines the rules page offers a threshold of their own for; any other line uses the default. */
export const THRESHOLD_LINES = [
  "AUTO",
  "HOMEOWNERS",
  "RENTERS",
  "CONDO",
  "LANDLORD",
  "FLOOD",
  "UMBRELLA",
  "COMMERCIAL_AUTO",
  "BUSINESS_OWNERS",
  "WORKERS_COMPENSATION",
] as const;

/** Saves the rules after checking them; the audit trail records who and what. */
export async function saveAlertRules(db: Db, actor: Actor, input: unknown): Promise<CommandResult> {
  if (!can(actor, "alerts:manage")) return forbidden("Only an admin can change the alert rules.");
  const parsed = alertRulesSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") ?? "";
    return invalid(
      field.startsWith("jumpThresholds")
        ? "Each threshold is a percent from 0 to 1000 (10 means a renewal up more than 10% alerts)."
        : field === "digestHour"
          ? "The digest hour is a whole hour from 0 to 23."
          : "Choose who gets the queue's alerts.",
      field,
    );
  }
  const rules = parsed.data;
  await db.transaction(async (tx) => {
    await tx
      .insert(agencyRules)
      .values({ id: 1, ...rules, updatedAt: new Date(), updatedBy: actor.id })
      .onConflictDoUpdate({ target: agencyRules.id, set: { ...rules, updatedAt: new Date(), updatedBy: actor.id } });
    await recordAudit(tx, actor, "ALERT_RULES_CHANGED", { details: rules });
  });
  return { ok: true };
}
