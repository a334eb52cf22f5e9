import { formatCents } from "@/lib/format";

// Why a deal was lost, as the stage form asks it: one reason from a short list (what the
// reports count), the agent's own words beside it, and the carrier that won, at what premium.

export const LOST_CATEGORIES = ["PRICE", "COVERAGE", "SERVICE", "NO_CONTACT", "OTHER"] as const;
export type LostCategory = (typeof LOST_CATEGORIES)[number];

export const LOST_CATEGORY_LABELS: Record<LostCategory, string> = {
  PRICE: "Price",
  COVERAGE: "Coverage",
  SERVICE: "Service",
  NO_CONTACT: "No contact",
  OTHER: "Other",
};

/** A stored category in words; an unknown one (a newer app's, say) as it was stored. */
export function lostCategoryLabel(value: string | null | undefined): string | null {
  if (!value) return null;
  return (LOST_CATEGORY_LABELS as Record<string, string>)[value] ?? value;
}

/** A lost deal in one line: "Price · to GEICO at $1,234.00 a year · their words", or null when nothing was said. */
export function lostSummary(lost: {
  lostCategory: string | null;
  lostToCarrier: string | null;
  lostToPremiumCents: number | null;
  lostReason: string | null;
}): string | null {
  const to = lost.lostToCarrier
    ? `to ${lost.lostToCarrier}${lost.lostToPremiumCents !== null ? ` at ${formatCents(lost.lostToPremiumCents)} a year` : ""}`
    : lost.lostToPremiumCents !== null
      ? `won elsewhere at ${formatCents(lost.lostToPremiumCents)} a year`
      : null;
  const parts = [lostCategoryLabel(lost.lostCategory), to, lost.lostReason].filter((p): p is string => Boolean(p));
  return parts.length > 0 ? parts.join(" · ") : null;
}
