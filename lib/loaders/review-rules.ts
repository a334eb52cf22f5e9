import "server-only";
import type { Db } from "@/db/types";
import { REVIEW_RULE_IDS, REVIEW_RULE_LABELS } from "@/lib/review/finding";
import { getReviewSettings } from "@/lib/review/review-rules";

// What the admin's review rules page (app/(app)/admin/review/page.tsx) shows: the thresholds in
// whole dollars as the form's inputs take them, each check with whether it runs, and the
// renewal lead time the expiring check borrows from the agency's rules.

export type ReviewRulesPage = {
  values: {
    bodilyInjuryPerPerson: number;
    bodilyInjuryPerAccident: number;
    propertyDamage: number;
    deductibleCeiling: number;
    coinsurancePercent: number;
    personalLiability: number;
  };
  checks: Array<{ id: string; label: string; on: boolean }>;
  leadTimeDays: number;
};

const dollars = (cents: number) => Math.round(cents / 100);

export async function loadReviewRulesPage(db: Db): Promise<ReviewRulesPage> {
  const settings = await getReviewSettings(db);
  const off = new Set<string>(settings.off);
  return {
    values: {
      bodilyInjuryPerPerson: dollars(settings.bodilyInjuryPerPersonCents),
      bodilyInjuryPerAccident: dollars(settings.bodilyInjuryPerAccidentCents),
      propertyDamage: dollars(settings.propertyDamageCents),
      deductibleCeiling: dollars(settings.deductibleCeilingCents),
      coinsurancePercent: settings.coinsurancePercent,
      personalLiability: dollars(settings.personalLiabilityCents),
    },
    checks: REVIEW_RULE_IDS.map((id) => ({ id, label: REVIEW_RULE_LABELS[id], on: !off.has(id) })),
    leadTimeDays: settings.leadTimeDays,
  };
}
