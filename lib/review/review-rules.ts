import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { agencyRules } from "@/db/schema";
import { can } from "@/lib/auth/permissions";
import { getAgencyRules } from "@/lib/rules/agency-rules";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { forbidden, invalid, type CommandResult } from "@/lib/core/result";
import { REVIEW_RULE_IDS, type ReviewRules, type ReviewSettings } from "./finding";

// The coverage review's rules (agency_rules.review_rules, jsonb; `{}` reads as the defaults):
// the floors and ceilings it compares with, and the checks the agency switched off. Saved whole
// by an admin, checked field by field, audited; a row edited by hand into nonsense reads as the
// defaults, never as "every limit is fine".

export type { ReviewRules, ReviewSettings } from "./finding";

export const DEFAULT_REVIEW_RULES: ReviewRules = {
  bodilyInjuryPerPersonCents: 100_000_00,
  bodilyInjuryPerAccidentCents: 300_000_00,
  propertyDamageCents: 100_000_00,
  deductibleCeilingCents: 1_000_00,
  coinsurancePercent: 80,
  personalLiabilityCents: 300_000_00,
  off: [],
};

/** Up to $10 million: past that a floor says nothing about a household's cover. */
const MAX_CENTS = 10_000_000_00;
const cents = z.number().int().min(0).max(MAX_CENTS);

export const reviewRulesSchema = z
  .object({
    bodilyInjuryPerPersonCents: cents,
    bodilyInjuryPerAccidentCents: cents,
    propertyDamageCents: cents,
    deductibleCeilingCents: cents,
    // Coinsurance clauses ask 80% of the replacement cost, some 90% or 100%; under half means nothing.
    coinsurancePercent: z.number().int().min(50).max(100),
    personalLiabilityCents: cents,
    off: z.array(z.enum(REVIEW_RULE_IDS)).max(REVIEW_RULE_IDS.length),
  })
  .refine((rules) => rules.bodilyInjuryPerAccidentCents >= rules.bodilyInjuryPerPersonCents, {
    message: "per accident below per person",
    path: ["bodilyInjuryPerAccidentCents"],
  });
export type ReviewRulesInput = z.input<typeof reviewRulesSchema>;

/** A stored object missing a field (saved before the field existed) takes that field's default. */
const storedSchema = z.record(z.string(), z.unknown());

export async function getReviewRules(db: Db): Promise<ReviewRules> {
  const [row] = await db
    .select({ reviewRules: agencyRules.reviewRules })
    .from(agencyRules)
    .where(eq(agencyRules.id, 1));
  const stored = storedSchema.safeParse(row?.reviewRules);
  if (!stored.success) return DEFAULT_REVIEW_RULES;
  const parsed = reviewRulesSchema.safeParse({ ...DEFAULT_REVIEW_RULES, ...stored.data });
  return parsed.success ? { ...parsed.data, off: [...new Set(parsed.data.off)] } : DEFAULT_REVIEW_RULES;
}

/** The review's rules with the agency's renewal lead time: what reviewHousehold is given. */
export async function getReviewSettings(db: Db): Promise<ReviewSettings> {
  const [rules, agency] = await Promise.all([getReviewRules(db), getAgencyRules(db)]);
  return { ...rules, leadTimeDays: agency.leadTimeDays };
}

const dollars = "a whole number of dollars from $0 to $10,000,000";
const MESSAGES: Array<[prefix: string, message: string]> = [
  ["bodilyInjuryPerPersonCents", `The bodily-injury floor per person is ${dollars}.`],
  [
    "bodilyInjuryPerAccidentCents",
    `The bodily-injury floor per accident is ${dollars}, and at least the floor per person.`,
  ],
  ["propertyDamageCents", `The property-damage floor is ${dollars}.`],
  ["deductibleCeilingCents", `The deductible ceiling is ${dollars}.`],
  ["coinsurancePercent", "The coinsurance share is a whole percent from 50 to 100 (80 is usual)."],
  ["personalLiabilityCents", `The personal-liability floor is ${dollars}.`],
  ["off", "Choose the checks to run from the list."],
];

/** Saves the rules after checking them; the audit trail records who and what. */
export async function saveReviewRules(db: Db, actor: Actor, input: unknown): Promise<CommandResult> {
  if (!can(actor, "rules:manage")) return forbidden("Only an admin can change the coverage review's rules.");
  const parsed = reviewRulesSchema.safeParse(input);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.join(".") ?? "";
    const message = MESSAGES.find(([prefix]) => field.startsWith(prefix))?.[1] ?? "Check the rules and try again.";
    return invalid(message, field.split(".")[0]);
  }
  const rules: ReviewRules = { ...parsed.data, off: [...new Set(parsed.data.off)] };
  await db.transaction(async (tx) => {
    const values = { reviewRules: rules, updatedAt: new Date(), updatedBy: actor.id };
    await tx
      .insert(agencyRules)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: agencyRules.id, set: values });
    await recordAudit(tx, actor, "REVIEW_RULES_CHANGED", { details: rules });
  });
  return { ok: true };
}
