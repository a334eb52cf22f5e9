import type { Policy, Pull } from "@/lib/service/schemas";

// What the coverage review finds, and the rules it reads: shared by the rules of each line
// (auto-review.ts, home-review.ts, policy-review.ts), the review itself (coverage.ts), the
// agency's saved settings (review-rules.ts), the pull page and the client summary.

/** The review's rules, each of which the agency may switch off (review-rules.ts). */
export const REVIEW_RULE_IDS = [
  "auto-bodily-injury",
  "auto-property-damage",
  "auto-uninsured-motorist",
  "auto-financed-physical-damage",
  "auto-deductible",
  "auto-driver-without-vehicle",
  "auto-vehicle-without-driver",
  "home-dwelling-limit",
  "home-loss-settlement",
  "home-liability",
  "home-water-backup",
  "home-flood",
  "policy-expiring",
  "policy-cancelled",
  "policy-lapse",
  "policy-data",
] as const;
export type ReviewRuleId = (typeof REVIEW_RULE_IDS)[number];

/** What each rule checks, in words, for the admin page and the client summary. */
export const REVIEW_RULE_LABELS: Record<ReviewRuleId, string> = {
  "auto-bodily-injury": "Auto bodily-injury limits below the floor",
  "auto-property-damage": "Auto property-damage limit below the floor",
  "auto-uninsured-motorist": "Uninsured/underinsured motorist missing or below the bodily-injury limits",
  "auto-financed-physical-damage": "Financed or leased vehicle without comprehensive and collision",
  "auto-deductible": "Auto deductibles above the ceiling",
  "auto-driver-without-vehicle": "A household driver on no vehicle",
  "auto-vehicle-without-driver": "A vehicle with no driver",
  "home-dwelling-limit": "Dwelling limit below the replacement cost",
  "home-loss-settlement": "Losses settled at actual cash value",
  "home-liability": "Home personal liability below the floor",
  "home-water-backup": "No water backup cover",
  "home-flood": "No flood policy for a home in a flood zone",
  "policy-expiring": "Policies expiring within the renewal lead time",
  "policy-cancelled": "Cancelled policies",
  "policy-lapse": "A lapse between terms",
  "policy-data": "Data the carrier left out or sent oddly (no premium, no line, limited access)",
};

/**
 * The agency's thresholds, in cents (a limit of $100,000 is 10,000,000), and the rules it
 * switched off. `{}` in the database reads as DEFAULT_REVIEW_RULES (review-rules.ts).
 */
export type ReviewRules = {
  bodilyInjuryPerPersonCents: number;
  bodilyInjuryPerAccidentCents: number;
  propertyDamageCents: number;
  deductibleCeilingCents: number;
  /** The share of the replacement cost that coinsurance clauses ask Coverage A to reach. */
  coinsurancePercent: number;
  personalLiabilityCents: number;
  off: ReviewRuleId[];
};

/** The rules as the review reads them: the agency's thresholds and its renewal lead time. */
export type ReviewSettings = ReviewRules & { leadTimeDays: number };

/** gap: cover missing or short; warning: worth a word with the client; unknown: the data cannot tell. */
export type Severity = "gap" | "warning" | "unknown";
export const SEVERITY_ORDER: Record<Severity, number> = { gap: 0, warning: 1, unknown: 2 };

export type Finding = {
  /** Stable across refreshes (the rule and what it is about), so a decision on it stays with the account. */
  key: string;
  rule: ReviewRuleId;
  /** The policy type the finding is about ("AUTO", "HOMEOWNERS"…), as the carrier wrote it. */
  line: string;
  severity: Severity;
  title: string;
  /** What was found, with the figures behind it. */
  detail: string;
  nextStep: string;
};

const MAX_SUBJECT = 120;

/** `rule:subject`, the subject (a policy number, a VIN, an id) cut so a key stays a sane length. */
export function findingKey(rule: ReviewRuleId, ...subject: string[]): string {
  return `${rule}:${subject.join(":").slice(0, MAX_SUBJECT)}`;
}

/** What each line's rules are given: the pull, the settings, today, and the household's keys. */
export type ReviewContext = {
  pull: Pull;
  settings: ReviewSettings;
  /** An ISO day (YYYY-MM-DD): "expires in 12 days" is right on the day it is read. */
  today: string;
  /** A policy's part of a finding key: its number (stable across refreshes), else its id. */
  policyKey: (policy: Policy) => string;
  /** Whether the agency left the rule on. */
  on: (rule: ReviewRuleId) => boolean;
};
