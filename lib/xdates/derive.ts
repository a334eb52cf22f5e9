import { calendarDate } from "@/lib/service/schemas";
import { termMonthsOf } from "@/lib/pulls/household";

// A policy's X-date: the day its current term ends, when another carrier can quote against it.
// Pure: the ingest writes it (lib/xdates/store.ts), the daily upkeep rolls passed ones forward,
// and the tests feed it odd payloads. Every policy gets an answer in words: a date and how it
// was read, or why there is none. Nothing is dropped and nothing reads "Invalid Date".

/**
 * How the X-date was found:
 * - EXPIRY: the expiry date the carrier sent, still ahead;
 * - RENEWAL: no usable expiry, but the carrier's renewal date (the new term's first day);
 * - ROLLED: the expiry has passed; the next renewal, stepping by the term read from the dates;
 * - ESTIMATED: the expiry has passed and the term cannot be read: twelve months are assumed.
 */
export const XDATE_BASES = ["EXPIRY", "RENEWAL", "ROLLED", "ESTIMATED"] as const;
export type XDateBasis = (typeof XDATE_BASES)[number];

/** Why a policy has no X-date. */
export const NO_XDATE_REASONS = ["CANCELLED", "RESCINDED", "QUOTE", "NO_EXPIRY", "MALFORMED_EXPIRY"] as const;
export type NoXDateReason = (typeof NO_XDATE_REASONS)[number];

export type XDateInput = {
  status: string | null;
  /** As the service sent them: ISO dates or date-times, null, or anything at all. */
  effectiveDate: unknown;
  expiryDate: unknown;
  renewalDate?: unknown;
  canceledDate?: unknown;
};

export type XDate =
  | {
      xDate: string;
      basis: XDateBasis;
      /** The expiry the X-date was derived from (the anchor of a roll), as a calendar day. */
      expiryDate: string;
      /** The term read from the dates (assumed 12 for ESTIMATED); null when it cannot be read. */
      termMonths: number | null;
      reason: null;
      /** How it was derived, in words, for the page and the CSV. */
      note: string;
    }
  | {
      xDate: null;
      basis: null;
      expiryDate: string | null;
      termMonths: number | null;
      reason: NoXDateReason;
      note: string;
    };

/** Terms are stepped by when read from the dates within these bounds (a monthly policy to a three-year term). */
const MIN_TERM = 1;
const MAX_TERM = 36;
/** When an expired policy's term cannot be read: the common personal-lines term, said as an estimate. */
export const ASSUMED_TERM_MONTHS = 12;

const NO_RENEWAL: Record<string, { reason: NoXDateReason; words: string }> = {
  CANCELLED: { reason: "CANCELLED", words: "Cancelled" },
  RESCINDED: { reason: "RESCINDED", words: "Rescinded (voided from the start)" },
  QUOTE: { reason: "QUOTE", words: "A quote, not a policy in force" },
};

const day = (value: unknown): string | null => (typeof value === "string" ? calendarDate(value) : null);

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in a month (0 = January) of the proleptic Gregorian calendar. */
// Counted, not asked of Date: in the server, Next.js wraps the Date constructor, and the rules
// page's forecast asks this for every renewal it rolls out (2 of its 4 seconds at a million pulls).
function daysInMonth(year: number, month0: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month0 === 1 && leap ? 29 : (MONTH_DAYS[month0] as number);
}

/**
 * `months` calendar months after an ISO day, the day clamped to the month's end: Jan 31 + 1 is
 * Feb 28 (29 in a leap year), Feb 29 + 12 is Feb 28. Always from the anchor, so a roll never
 * drifts (Aug 31 + 6 + 6 is Aug 31, not Aug 28).
 */
export function addMonths(iso: string, months: number): string {
  const [y, m, d] = plainDay(iso) ?? (iso.split("-").map(Number) as [number, number, number]);
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month0 = total - year * 12;
  const dd = Math.min(d, daysInMonth(year, month0));
  return `${String(year).padStart(4, "0")}-${twoPlaces(month0 + 1)}-${twoPlaces(dd)}`;
}

/** The first of anchor + k·term (k ≥ 1) on or after today. */
export function rollForward(anchor: string, termMonths: number, today: string): string {
  const [ay, am] = anchor.split("-").map(Number) as [number, number];
  const [ty, tm] = today.split("-").map(Number) as [number, number];
  const monthsApart = (ty - ay) * 12 + (tm - am);
  let k = Math.max(1, Math.floor(monthsApart / termMonths));
  let next = addMonths(anchor, k * termMonths);
  while (next < today) next = addMonths(anchor, ++k * termMonths);
  return next;
}

/** A policy's X-date as of `today` (an ISO day), or why it has none. */
export function deriveXDate(policy: XDateInput, today: string): XDate {
  const status = (policy.status ?? "").toUpperCase();
  const expiry = day(policy.expiryDate);
  const noRenewal = NO_RENEWAL[status];
  if (noRenewal) {
    const canceled = day(policy.canceledDate);
    const words = status === "CANCELLED" && canceled ? `${noRenewal.words} on ${canceled}` : noRenewal.words;
    return {
      xDate: null,
      basis: null,
      expiryDate: expiry,
      termMonths: null,
      reason: noRenewal.reason,
      note: `${words}: no renewal to quote against.`,
    };
  }
  if (!expiry) {
    const renewal = day(policy.renewalDate);
    if (renewal && renewal >= today)
      return {
        xDate: renewal,
        basis: "RENEWAL",
        expiryDate: renewal,
        termMonths: null,
        reason: null,
        note: "The carrier's renewal date (no expiry date was sent).",
      };
    const malformed = policy.expiryDate !== null && policy.expiryDate !== undefined && policy.expiryDate !== "";
    return {
      xDate: null,
      basis: null,
      expiryDate: null,
      termMonths: null,
      reason: malformed ? "MALFORMED_EXPIRY" : "NO_EXPIRY",
      note: malformed
        ? `Unknown: the expiry date the carrier sent (${JSON.stringify(String(policy.expiryDate)).slice(0, 40)}) is not a date.`
        : "Unknown: the carrier sent no expiry date.",
    };
  }
  const read = termMonthsOf(day(policy.effectiveDate), expiry);
  const term = read !== null && read >= MIN_TERM && read <= MAX_TERM ? read : null;
  // The term is kept beside a coming expiry too: the upkeep steps by it once the day passes.
  if (expiry >= today)
    return {
      xDate: expiry,
      basis: "EXPIRY",
      expiryDate: expiry,
      termMonths: term,
      reason: null,
      note: "The expiry date.",
    };
  return rolled(expiry, term, today);
}

/** A passed expiry stepped forward: by its term, or by twelve months said as an estimate. */
export function rolled(expiry: string, term: number | null, today: string): XDate {
  const months = term ?? ASSUMED_TERM_MONTHS;
  return {
    xDate: rollForward(expiry, months, today),
    basis: term === null ? "ESTIMATED" : "ROLLED",
    expiryDate: expiry,
    termMonths: months,
    reason: null,
    note:
      term === null
        ? `Estimated: expired ${expiry}, term unknown, assumed ${ASSUMED_TERM_MONTHS} months.`
        : `Next renewal: expired ${expiry}, renews every ${months === 1 ? "month" : `${months} months`}.`,
  };
}

/** Today as an ISO day (UTC): the day every X-date is compared with, in the app and the upkeep. */
export function isoDay(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

// Day arithmetic is counted on plain day numbers (days since 1970-01-01, proleptic Gregorian)
// rather than through Date: the refresh forecast does some fifty of these per monitored account,
// and parsing and printing a Date each time was most of the rules page's time. Anything but a
// plain "YYYY-MM-DD" (or a fraction of a day) takes the Date path, as before, so odd input reads
// exactly as it always did; a day 29–31 past its month's end rolls over as Date.parse rolls it.

const isDigit = (code: number) => code >= 48 && code <= 57;
const twoDigits = (s: string, at: number) => (s.charCodeAt(at) - 48) * 10 + s.charCodeAt(at + 1) - 48;

const twoPlaces = (n: number) => (n < 10 ? `0${n}` : String(n));

/** Year, month and day of a plain "YYYY-MM-DD" (month 1–12, day 1–31), read without splitting; null for anything else. */
function plainDay(iso: string): [number, number, number] | null {
  if (iso.length !== 10 || iso.charCodeAt(4) !== 45 || iso.charCodeAt(7) !== 45) return null;
  for (const at of [0, 1, 2, 3, 5, 6, 8, 9]) if (!isDigit(iso.charCodeAt(at))) return null;
  const month = twoDigits(iso, 5);
  const day = twoDigits(iso, 8);
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  return [twoDigits(iso, 0) * 100 + twoDigits(iso, 2), month, day];
}

/** Days since 1970-01-01 of a plain ISO day, or NaN for anything else. */
function dayNumber(iso: string): number {
  const plain = plainDay(iso);
  if (!plain) return NaN;
  const [year, month, day] = plain;
  // Howard Hinnant's days_from_civil: years run from March, so February's length is last.
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The ISO day of a day number (the inverse of dayNumber), or null outside years 0000–9999. */
function isoOfDayNumber(n: number): string | null {
  const z = n + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1_460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 0 || year > 9_999) return null;
  return `${String(year).padStart(4, "0")}-${twoPlaces(month)}-${twoPlaces(day)}`;
}

/** The ISO day `days` after an ISO day. */
export function addDays(iso: string, days: number): string {
  const from = Number.isInteger(days) ? dayNumber(iso) : NaN;
  const fast = Number.isNaN(from) ? null : isoOfDayNumber(from + days);
  return fast ?? new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Whole days from `today` to `date` (both ISO days). */
export function daysBetween(today: string, date: string): number {
  const difference = dayNumber(date) - dayNumber(today);
  if (!Number.isNaN(difference)) return difference;
  return Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}

/** "today", "tomorrow", "in 23 days", "3 days ago": how far an X-date is, in days. */
export function daysAway(date: string | null, today: string): string {
  if (!date) return "no date";
  const days = daysBetween(today, date);
  if (!Number.isFinite(days)) return "no date";
  if (days === 0) return "today";
  if (days === 1) return "tomorrow";
  if (days === -1) return "yesterday";
  return days > 0 ? `in ${days} days` : `${-days} days ago`;
}

/** The basis in words, for a badge beside the date. */
export const BASIS_WORDS: Record<XDateBasis, string> = {
  EXPIRY: "expiry",
  RENEWAL: "renewal date",
  ROLLED: "next renewal",
  ESTIMATED: "estimated",
};

export const REASON_WORDS: Record<NoXDateReason, string> = {
  CANCELLED: "cancelled",
  RESCINDED: "rescinded",
  QUOTE: "a quote, not in force",
  NO_EXPIRY: "no expiry date sent",
  MALFORMED_EXPIRY: "expiry date unreadable",
};
