import type { ReportPeriod } from "./report-filter";

// Report periods as calendar arithmetic on ISO days ("2026-08-03"), in UTC like the SQL that
// groups them (date_trunc: weeks start on Monday, quarters in January, April, July, October).

const MAX_PERIODS = 400;
const dayOf = (iso: string) => new Date(`${iso}T00:00:00Z`);
const isoOf = (date: Date) => date.toISOString().slice(0, 10);

/** The first day of the week, month or quarter that holds `day`. */
export function periodStart(period: ReportPeriod, day: string): string {
  const date = dayOf(day);
  if (period === "week") return isoOf(new Date(date.getTime() - ((date.getUTCDay() + 6) % 7) * 86_400_000));
  const month = period === "quarter" ? date.getUTCMonth() - (date.getUTCMonth() % 3) : date.getUTCMonth();
  return isoOf(new Date(Date.UTC(date.getUTCFullYear(), month, 1)));
}

/** The first day of the period after the one starting on `start`. */
export function nextPeriod(period: ReportPeriod, start: string): string {
  const date = dayOf(start);
  if (period === "week") return isoOf(new Date(date.getTime() + 7 * 86_400_000));
  return isoOf(new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + (period === "quarter" ? 3 : 1), 1)));
}

/** The last day of the week, month or quarter that starts on `start`. */
export function periodEnd(period: ReportPeriod, start: string): string {
  return isoOf(new Date(dayOf(nextPeriod(period, start)).getTime() - 86_400_000));
}

/**
 * Every period a chart over time has a slot for: from the filter's From (or the first period
 * with data) to its To (or the last with data), empty ones included, so a quiet month shows as
 * a gap rather than vanishing. A range too long to draw (over 400 periods) keeps to the data.
 */
export function periodSlots(period: ReportPeriod, keys: string[], from?: string, to?: string): string[] {
  const sorted = [...new Set(keys)].sort();
  const ends = [...sorted, ...[from, to].flatMap((day) => (day ? [periodStart(period, day)] : []))].sort();
  const [lo, hi] = [ends[0], ends[ends.length - 1]];
  if (!lo || !hi) return [];
  const slots: string[] = [];
  for (let at = lo; at <= hi; at = nextPeriod(period, at)) {
    if (slots.length === MAX_PERIODS) return from || to ? periodSlots(period, keys) : sorted;
    slots.push(at);
  }
  return slots;
}
