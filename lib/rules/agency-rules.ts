import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { agencyRules } from "@/db/schema";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { can } from "@/lib/auth/permissions";
import { forbidden, invalid, type CommandResult } from "@/lib/core/result";
import { DEFAULT_JUMP_THRESHOLDS, type JumpThresholds } from "./jump-thresholds";

// The rules the agency sets (db/schema/alerts.ts `agencyRules`, one row), in one place: alert
// thresholds and the digest, the renewal lead time and refresh budget, the speed-to-lead rule.
// Read with their defaults and checked: a row edited by hand into nonsense reads as the
// defaults, never as "alert on nothing" or "refresh every day".

export const QUEUE_ALERT_RECIPIENTS = ["MANAGERS", "ADMINS", "NOBODY"] as const;
export const SPEED_TO_LEAD_ACTIONS = ["REASSIGN", "RAISE"] as const;
export type SpeedToLeadAction = (typeof SPEED_TO_LEAD_ACTIONS)[number];

export type AgencyRules = {
  jumpThresholds: JumpThresholds;
  digestHour: number;
  queueAlertsTo: (typeof QUEUE_ALERT_RECIPIENTS)[number];
  /** Days before an X-date that a monitored account is refreshed and a lost deal comes back. */
  leadTimeDays: number;
  /** Refreshes a month the agency means to pay for; null: no budget. */
  refreshBudgetPerMonth: number | null;
  /** Minutes a new pull may wait untouched; null: the speed-to-lead rule is off. */
  speedToLeadMinutes: number | null;
  speedToLeadAction: SpeedToLeadAction;
  /** When the speed-to-lead rule was switched on: it acts only on pulls that arrived after. */
  speedToLeadSince: Date | null;
};

export const DEFAULT_AGENCY_RULES: AgencyRules = {
  jumpThresholds: DEFAULT_JUMP_THRESHOLDS,
  digestHour: 7,
  queueAlertsTo: "MANAGERS",
  leadTimeDays: 45,
  refreshBudgetPerMonth: null,
  speedToLeadMinutes: null,
  speedToLeadAction: "RAISE",
  speedToLeadSince: null,
};

const percent = z.number().finite().min(0).max(1000);
/** What an admin may save (speedToLeadSince is set by the save itself). */
export const agencyRulesSchema = z.object({
  jumpThresholds: z.object({ default: percent }).catchall(percent),
  digestHour: z.number().int().min(0).max(23),
  queueAlertsTo: z.enum(QUEUE_ALERT_RECIPIENTS),
  // A renewal offer is usually issued 30–60 days ahead; past a year the "lead" is meaningless.
  leadTimeDays: z.number().int().min(1).max(365),
  refreshBudgetPerMonth: z.number().int().min(1).max(10_000_000).nullable(),
  // At least 5 minutes (an agent at lunch is not a lost lead), at most a week.
  speedToLeadMinutes: z
    .number()
    .int()
    .min(5)
    .max(7 * 24 * 60)
    .nullable(),
  speedToLeadAction: z.enum(SPEED_TO_LEAD_ACTIONS),
});
export type AgencyRulesInput = z.infer<typeof agencyRulesSchema>;

export async function getAgencyRules(db: Db): Promise<AgencyRules> {
  const [row] = await db.select().from(agencyRules).where(eq(agencyRules.id, 1));
  if (!row) return DEFAULT_AGENCY_RULES;
  const parsed = agencyRulesSchema.safeParse({
    jumpThresholds: row.jumpThresholds,
    digestHour: row.digestHour,
    queueAlertsTo: row.queueAlertsTo,
    leadTimeDays: row.leadTimeDays,
    refreshBudgetPerMonth: row.refreshBudgetPerMonth,
    speedToLeadMinutes: row.speedToLeadMinutes,
    speedToLeadAction: row.speedToLeadAction,
  });
  if (!parsed.success) return DEFAULT_AGENCY_RULES;
  return {
    ...(parsed.data as Omit<AgencyRules, "speedToLeadSince">),
    speedToLeadSince: parsed.data.speedToLeadMinutes === null ? null : row.speedToLeadSince,
  };
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

const MESSAGES: Array<[prefix: string, message: string]> = [
  ["jumpThresholds", "Each threshold is a percent from 0 to 1000 (10 means a renewal up more than 10% alerts)."],
  ["digestHour", "The digest hour is a whole hour from 0 to 23."],
  ["queueAlertsTo", "Choose who gets the queue's alerts."],
  ["leadTimeDays", "The lead time is a whole number of days from 1 to 365."],
  [
    "refreshBudgetPerMonth",
    "The refresh budget is a whole number of refreshes a month (at least 1), or empty for none.",
  ],
  [
    "speedToLeadMinutes",
    "The speed-to-lead wait is a whole number of minutes from 5 to 10080 (a week), or empty to turn it off.",
  ],
  ["speedToLeadAction", "Choose what happens to a pull nobody touched in time."],
];

/** Saves the rules after checking them; the audit trail records who and what. */
export async function saveAgencyRules(db: Db, actor: Actor, input: unknown): Promise<CommandResult> {
  if (!can(actor, "rules:manage")) return forbidden("Only an admin can change the agency's rules.");
  const parsed = agencyRulesSchema.safeParse(input);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.join(".") ?? "";
    const message = MESSAGES.find(([prefix]) => field.startsWith(prefix))?.[1] ?? "Check the rules and try again.";
    return invalid(message, field);
  }
  const rules = parsed.data;
  await db.transaction(async (tx) => {
    const before = await getAgencyRules(tx);
    // Switched on now (or its wait changed from off): only pulls arriving from here on count.
    const speedToLeadSince =
      rules.speedToLeadMinutes === null
        ? null
        : before.speedToLeadMinutes === null
          ? new Date()
          : before.speedToLeadSince;
    const values = { ...rules, speedToLeadSince, updatedAt: new Date(), updatedBy: actor.id };
    await tx
      .insert(agencyRules)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: agencyRules.id, set: values });
    await recordAudit(tx, actor, "AGENCY_RULES_CHANGED", { details: rules });
  });
  return { ok: true };
}
