// Dates stay the strings the service wrote, so nothing shifts by the reader's time zone; this
// file decides what counts as a date and reads its calendar day as written.

const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:[Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** True for an ISO 8601 date (`2026-03-01`) or date-time naming a real day and time. */
export function isIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [, year, month, day, hour = "0", minute = "0", second = "0"] = match;
  const m = Number(month);
  const d = Number(day);
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(Number(year), m)) return false;
  return Number(hour) <= 23 && Number(minute) <= 59 && Number(second) <= 60;
}

/**
 * The `YYYY-MM-DD` of a date or date-time as written, without converting to any time zone:
 * "2026-03-01T23:30:00-05:00" is March 1st. Null for null or anything that is not a date.
 */
export function calendarDate(iso: string | null | undefined): string | null {
  if (typeof iso !== "string" || !isIsoDate(iso)) return null;
  return iso.slice(0, 10);
}
