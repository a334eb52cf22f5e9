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
import { readTypedNumber, typedNumber } from "@/lib/core/typed-number";
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
const MAX_DOLLARS = 10_000_000;

const dollars = "a whole number of dollars from $0 to $10,000,000";
/** What the admin reads when a field is refused, by the form's field (and the rule's, in cents). */
const MESSAGES = {
  bodilyInjuryPerPerson: `The bodily-injury floor per person is ${dollars}.`,
  bodilyInjuryPerAccident: `The bodily-injury floor per accident is ${dollars}, and at least the floor per person.`,
  propertyDamage: `The property-damage floor is ${dollars}.`,
  deductibleCeiling: `The deductible ceiling is ${dollars}.`,
  coinsurancePercent: "The coinsurance share is a whole percent from 50 to 100 (80 is usual).",
  personalLiability: `The personal-liability floor is ${dollars}.`,
  checks: "Choose the checks to run from the list.",
};

/** An amount in cents, as the rules keep it. */
const cents = (message: string) =>
  z
    .number({ error: message })
    .int(message)
    .min(0, message)
    .max(MAX_DOLLARS * 100, message);

/** An amount typed in dollars ("100,000", "$1,000.50") or given as a number of dollars, kept in cents. */
const dollarsAsCents = (message: string) =>
  z
    .preprocess(
      (value) => readTypedNumber(value, (text) => text.replace(/^\$/, "").replace(/,/g, "")),
      z.number({ error: message }).min(0, message).max(MAX_DOLLARS, message),
    )
    .transform((amount) => Math.round(amount * 100));

// Coinsurance clauses ask 80% of the replacement cost, some 90% or 100%; under half means nothing.
const coinsurancePercent = z
  .number({ error: MESSAGES.coinsurancePercent })
  .int(MESSAGES.coinsurancePercent)
  .min(50, MESSAGES.coinsurancePercent)
  .max(100, MESSAGES.coinsurancePercent);

const checks = z
  .array(z.enum(REVIEW_RULE_IDS, { message: MESSAGES.checks }), { error: MESSAGES.checks })
  .max(REVIEW_RULE_IDS.length, MESSAGES.checks);

const perAccidentAtLeastPerPerson = (rules: { bodilyInjuryPerPerson: number; bodilyInjuryPerAccident: number }) =>
  rules.bodilyInjuryPerAccident >= rules.bodilyInjuryPerPerson;

/** The rules as kept (cents, the checks switched off): what saveReviewRules takes and getReviewRules reads. */
export const reviewRulesSchema = z
  .object({
    bodilyInjuryPerPersonCents: cents(MESSAGES.bodilyInjuryPerPerson),
    bodilyInjuryPerAccidentCents: cents(MESSAGES.bodilyInjuryPerAccident),
    propertyDamageCents: cents(MESSAGES.propertyDamage),
    deductibleCeilingCents: cents(MESSAGES.deductibleCeiling),
    coinsurancePercent,
    personalLiabilityCents: cents(MESSAGES.personalLiability),
    off: checks,
  })
  .refine(
    (rules) =>
      perAccidentAtLeastPerPerson({
        bodilyInjuryPerPerson: rules.bodilyInjuryPerPersonCents,
        bodilyInjuryPerAccident: rules.bodilyInjuryPerAccidentCents,
      }),
    { message: MESSAGES.bodilyInjuryPerAccident, path: ["bodilyInjuryPerAccidentCents"] },
  );

/**
 * The rules page's form, field by field: the floors and the ceiling typed in dollars, the
 * coinsurance share, and the checks ticked to run (`on`, one value each). Read into the rules
 * as kept: dollars to cents, and the checks left unticked as the ones switched off.
 */
export const reviewRulesInputSchema = z
  .object({
    bodilyInjuryPerPerson: dollarsAsCents(MESSAGES.bodilyInjuryPerPerson),
    bodilyInjuryPerAccident: dollarsAsCents(MESSAGES.bodilyInjuryPerAccident),
    propertyDamage: dollarsAsCents(MESSAGES.propertyDamage),
    deductibleCeiling: dollarsAsCents(MESSAGES.deductibleCeiling),
    coinsurancePercent: typedNumber(coinsurancePercent),
    personalLiability: dollarsAsCents(MESSAGES.personalLiability),
    on: checks,
  })
  .refine(perAccidentAtLeastPerPerson, {
    message: MESSAGES.bodilyInjuryPerAccident,
    path: ["bodilyInjuryPerAccident"],
  })
  .transform((form): ReviewRules => ({
    bodilyInjuryPerPersonCents: form.bodilyInjuryPerPerson,
    bodilyInjuryPerAccidentCents: form.bodilyInjuryPerAccident,
    propertyDamageCents: form.propertyDamage,
    deductibleCeilingCents: form.deductibleCeiling,
    coinsurancePercent: form.coinsurancePercent,
    personalLiabilityCents: form.personalLiability,
    off: REVIEW_RULE_IDS.filter((rule) => !form.on.includes(rule)),
  }));
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

/**
 * Saves the rules (as kept: cents, the checks switched off; the page's action reads its form
 * through `reviewRulesInputSchema` into them) after checking them again; the audit trail records
 * who and what.
 */
export async function saveReviewRules(db: Db, actor: Actor, input: unknown): Promise<CommandResult> {
  if (!can(actor, "rules:manage")) return forbidden("Only an admin can change the coverage review's rules.");
  const parsed = reviewRulesSchema.safeParse(input, { error: () => "Check the rules and try again." });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return invalid(issue?.message ?? "Check the rules and try again.", issue?.path[0]?.toString());
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
