// How the won premium of each period splits into agents for a stacked bar chart: which agents
// get a colour of their own, and where each segment of a bar starts and ends. Pure, tested.

export type SplitRow = { period: string; agent: string; label: string; cents: number };
export type Series = { key: string; label: string };
export type Column = {
  slot: string;
  total: number;
  /** In series order, bottom up; only the series with something in this slot. */
  segments: Array<{ series: string; from: number; to: number }>;
};

/** The key of the folded series; agent keys are user ids or "" (no one), never this. */
export const OTHERS = "others";

/**
 * The series a chart draws: every agent when there are at most `colours` of them, otherwise the
 * `colours - 1` who won the most and one "Other agents" for the rest, since more colours than
 * that cannot be told apart. Ordered by total won, largest first (the bottom of each bar).
 */
export function chartSeries(rows: SplitRow[], colours: number): { series: Series[]; keyOf: (agent: string) => string } {
  const totals = new Map<string, { label: string; cents: number }>();
  for (const row of rows) {
    const total = totals.get(row.agent) ?? { label: row.label, cents: 0 };
    totals.set(row.agent, { label: total.label, cents: total.cents + row.cents });
  }
  const ranked = [...totals.entries()].sort((a, b) => b[1].cents - a[1].cents || a[1].label.localeCompare(b[1].label));
  if (ranked.length <= colours) {
    return { series: ranked.map(([key, t]) => ({ key, label: t.label })), keyOf: (agent) => agent };
  }
  const own = new Set(ranked.slice(0, colours - 1).map(([key]) => key));
  return {
    series: [
      ...ranked.slice(0, colours - 1).map(([key, t]) => ({ key, label: t.label })),
      { key: OTHERS, label: "Other agents" },
    ],
    keyOf: (agent) => (own.has(agent) ? agent : OTHERS),
  };
}

/** Each slot's segments stacked in series order, and its total. A slot without rows is empty. */
export function stackColumns(
  slots: string[],
  series: Series[],
  rows: SplitRow[],
  keyOf: (agent: string) => string,
): Column[] {
  const cell = new Map<string, number>();
  for (const row of rows) {
    const key = `${row.period}|${keyOf(row.agent)}`;
    cell.set(key, (cell.get(key) ?? 0) + row.cents);
  }
  return slots.map((slot) => {
    let total = 0;
    const segments: Column["segments"] = [];
    for (const s of series) {
      const value = cell.get(`${slot}|${s.key}`) ?? 0;
      if (value <= 0) continue;
      segments.push({ series: s.key, from: total, to: total + value });
      total += value;
    }
    return { slot, total, segments };
  });
}

/** One series' amount in one slot (what a table cell shows). */
export function cellOf(column: Column, series: string): number {
  const segment = column.segments.find((s) => s.series === series);
  return segment ? segment.to - segment.from : 0;
}
