import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { agencyRules } from "@/db/schema";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { can } from "@/lib/auth/permissions";
import { forbidden, invalid, type CommandResult } from "@/lib/core/result";
import { typedNumber } from "@/lib/core/typed-number";
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

/** A whole number from `min` to `max`, typed or given; `message` says so whatever is wrong. */
const whole = (message: string, min: number, max: number) =>
  typedNumber(z.number({ error: message }).int(message).min(min, message).max(max, message));

const PERCENT_MESSAGE = "Each threshold is a percent from 0 to 1000 (10 means a renewal up more than 10% alerts).";
const percent = typedNumber(z.number({ error: PERCENT_MESSAGE }).min(0, PERCENT_MESSAGE).max(1000, PERCENT_MESSAGE));

/**
 * What an admin may save (speedToLeadSince is set by the save itself), as the rules page's form
 * names it (`jumpThresholds.default`, `jumpThresholds.AUTO`…, `digestHour`…) and as a caller
 * passes it. An empty line's threshold is not given (the line uses the default), an empty budget
 * is none, an empty speed-to-lead wait turns the rule off; any other number left empty is refused.
 */
export const agencyRulesSchema = z.object({
  jumpThresholds: z
    .object(
      {
        default: percent,
        ...Object.fromEntries(THRESHOLD_LINES.map((line) => [line, percent.optional()])),
      },
      { error: PERCENT_MESSAGE },
    )
    // A line the page does not offer keeps its threshold when saved by other means.
    .catchall(percent),
  digestHour: whole("The digest hour is a whole hour from 0 to 23.", 0, 23),
  queueAlertsTo: z.enum(QUEUE_ALERT_RECIPIENTS, { message: "Choose who gets the queue's alerts." }),
  // A renewal offer is usually issued 30–60 days ahead; past a year the "lead" is meaningless.
  leadTimeDays: whole("The lead time is a whole number of days from 1 to 365.", 1, 365),
  refreshBudgetPerMonth: whole(
    "The refresh budget is a whole number of refreshes a month (at least 1), or empty for none.",
    1,
    10_000_000,
  ).nullable(),
  // At least 5 minutes (an agent at lunch is not a lost lead), at most a week.
  speedToLeadMinutes: whole(
    "The speed-to-lead wait is a whole number of minutes from 5 to 10080 (a week), or empty to turn it off.",
    5,
    7 * 24 * 60,
  ).nullable(),
  speedToLeadAction: z.enum(SPEED_TO_LEAD_ACTIONS, {
    message: "Choose what happens to a pull nobody touched in time.",
  }),
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

/** Saves the rules after checking them; the audit trail records who and what. */
export async function saveAgencyRules(db: Db, actor: Actor, input: unknown): Promise<CommandResult> {
  if (!can(actor, "rules:manage")) return forbidden("Only an admin can change the agency's rules.");
  const parsed = agencyRulesSchema.safeParse(input, { error: () => "Check the rules and try again." });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return invalid(issue?.message ?? "Check the rules and try again.", issue?.path.join("."));
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
