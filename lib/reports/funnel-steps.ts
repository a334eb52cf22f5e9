// The funnel's steps as the page, its chart and its CSV show them: a count, and the share of
// the step before. Pure (no database), so the reports' components and CSV can share it.

export type FunnelCounts = { linked: number; successful: number; assigned: number; worked: number; won: number };

export type FunnelStep = {
  key: keyof FunnelCounts;
  label: string;
  count: number;
  /** count / the previous step's count; null for the first step, or after a step of zero. */
  ofPrevious: number | null;
};

export const FUNNEL_LABELS: ReadonlyArray<readonly [keyof FunnelCounts, string]> = [
  ["linked", "Linked"],
  ["successful", "Linked successfully"],
  ["assigned", "Assigned"],
  ["worked", "Worked (won or lost)"],
  ["won", "Won"],
];

export function funnelSteps(counts: FunnelCounts): FunnelStep[] {
  let previous: number | null = null;
  return FUNNEL_LABELS.map(([key, label]) => {
    const step = { key, label, count: counts[key], ofPrevious: previous ? counts[key] / previous : null };
    previous = counts[key];
    return step;
  });
}
