// How values read on screen: money from integer cents, calendar dates without time-zone
// drift, null as a dash, enum values humanised but unknown ones shown exactly as they came.

export const DASH = "—";

export function formatCents(cents: number | null | undefined, locale = "en-US"): string {
  if (cents === null || cents === undefined) return DASH;
  return new Intl.NumberFormat(locale, { style: "currency", currency: "USD" }).format(cents / 100);
}

/** A coverage limit or deductible: whole dollars read as "$25,000", odd cents are kept. */
export function formatLimit(cents: number | null | undefined, locale = "en-US"): string {
  if (cents === null || cents === undefined) return DASH;
  const whole = cents % 100 === 0;
  return new Intl.NumberFormat(locale, { style: "currency", currency: "USD", minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: whole ? 0 : 2 }).format(cents / 100);
}

/** The service's three-decimal percent strings ("10.000") read as "10%"; anything else as it came. */
export function formatPercent(value: string | null | undefined): string {
  if (value === null || value === undefined || value.trim() === "") return DASH;
  const number = Number(value);
  if (!Number.isFinite(number)) return value;
  return `${Number(number.toFixed(3))}%`;
}

/** A calendar date (policy effective/expiry…): shown as written, never shifted by the viewer's zone. */
export function formatCalendarDate(iso: string | null | undefined, locale = "en-US"): string {
  if (!iso) return DASH;
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!match) return iso;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(date);
}

/** An instant (when a pull was created): shown in the viewer's time zone. */
export function formatInstant(value: Date | string | null | undefined, locale = "en-US", timeZone?: string): string {
  if (!value) return DASH;
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone }).format(date);
}

/** SOME_ENUM_VALUE → "Some enum value". */
export function humanize(value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") return DASH;
  if (!/^[A-Z0-9_]+$/.test(value)) return value;
  const words = value.toLowerCase().split("_").filter(Boolean).join(" ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function text(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === "") return DASH;
  return String(value);
}

export function yesNo(value: boolean | null | undefined): string {
  if (value === null || value === undefined) return DASH;
  return value ? "Yes" : "No";
}

export function fullName(parts: { first_name?: string | null; middle_name?: string | null; last_name?: string | null }): string {
  const name = [parts.first_name, parts.middle_name, parts.last_name].filter((p) => p && p.trim()).join(" ");
  return name || DASH;
}
