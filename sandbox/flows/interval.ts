// Monitoring intervals are ISO-8601 durations of one unit: every X days, months or years
// (`P45D`, `P1M`, `P1Y`; weeks as `P6W` too), and at least 30 days (spec 1 and 8).

export type Interval = { count: number; unit: "D" | "W" | "M" | "Y" };

export const MIN_INTERVAL_DAYS = 30;

export function parseInterval(text: string): Interval | null {
  const match = /^P(\d{1,4})([DWMY])$/.exec(text.trim().toUpperCase());
  if (!match) return null;
  const count = Number(match[1]);
  const unit = match[2] as Interval["unit"];
  return count > 0 ? { count, unit } : null;
}

/** The length of the interval in days, a month counting as 30 so that `P1M` meets the 30-day minimum. */
export function intervalDays({ count, unit }: Interval): number {
  return unit === "D" ? count : unit === "W" ? count * 7 : unit === "M" ? count * 30 : count * 365;
}

/** `from` moved forward by the interval, by calendar months and years where it says so. */
export function addInterval(from: Date, { count, unit }: Interval): Date {
  const next = new Date(from.getTime());
  if (unit === "D") next.setUTCDate(next.getUTCDate() + count);
  else if (unit === "W") next.setUTCDate(next.getUTCDate() + count * 7);
  else if (unit === "M") next.setUTCMonth(next.getUTCMonth() + count);
  else next.setUTCFullYear(next.getUTCFullYear() + count);
  return next;
}
