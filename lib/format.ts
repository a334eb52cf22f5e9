// How values read on screen: money from integer cents, calendar dates without time-zone
// drift, null as a dash, enum values humanised but unknown ones shown exactly as they came.

export const DASH = "—";

// Building an Intl formatter costs a third to half a millisecond; using one, about a
// microsecond. A list of 50 rows formats 150 values: the formatters are made once per locale
// and options, then reused.
const formats = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function cachedFormat<F extends Intl.NumberFormat | Intl.DateTimeFormat>(
  kind: string,
  options: object,
  make: () => F,
): F {
  const key = `${kind}|${JSON.stringify(options)}`;
  let format = formats.get(key) as F | undefined;
  if (!format) formats.set(key, (format = make()));
  return format;
}

const numberFormat = (locale: string, options: Intl.NumberFormatOptions) =>
  cachedFormat(`number|${locale}`, options, () => new Intl.NumberFormat(locale, options));

const dateFormat = (locale: string, options: Intl.DateTimeFormatOptions) =>
  cachedFormat(`date|${locale}`, options, () => new Intl.DateTimeFormat(locale, options));

export function formatCents(cents: number | null | undefined, locale = "en-US"): string {
  if (cents === null || cents === undefined) return DASH;
  return numberFormat(locale, { style: "currency", currency: "USD" }).format(cents / 100);
}

/** A coverage limit or deductible: whole dollars read as "$25,000", odd cents are kept. */
export function formatLimit(cents: number | null | undefined, locale = "en-US"): string {
  if (cents === null || cents === undefined) return DASH;
  const whole = cents % 100 === 0;
  return numberFormat(locale, {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(cents / 100);
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
  return dateFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(date);
}

/** An instant (when a pull was created): shown in the viewer's time zone. */
export function formatInstant(value: Date | string | null | undefined, locale = "en-US", timeZone?: string): string {
  if (!value) return DASH;
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  return dateFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone }).format(date);
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

export function fullName(parts: {
  first_name?: string | null;
  middle_name?: string | null;
  last_name?: string | null;
}): string {
  const name = [parts.first_name, parts.middle_name, parts.last_name].filter((p) => p && p.trim()).join(" ");
  return name || DASH;
}

/** Per-mile rates come in tenths of a cent: 35 → "$0.035". */
export function formatTenthsOfCents(tenths: number | null | undefined, locale = "en-US"): string {
  if (tenths === null || tenths === undefined) return DASH;
  return numberFormat(locale, {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: 3,
    maximumFractionDigits: 3,
  }).format(tenths / 1000);
}

/** Counts and mileages with grouping ("12,000"); years and codes go through `text` instead. */
export function formatCount(value: number | null | undefined, locale = "en-US"): string {
  if (value === null || value === undefined) return DASH;
  return numberFormat(locale, {}).format(value);
}

/** File sizes from bytes, in the units people read ("1.2 MB"). */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return DASH;
  if (bytes < 1000) return `${bytes} B`;
  const units = ["kB", "MB", "GB"];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${Number(value.toFixed(1))} ${units[unit]}`;
}

type AddressParts = {
  full_address?: string | null;
  number?: string | null;
  prefix?: string | null;
  street?: string | null;
  type?: string | null;
  sec_unit_type?: string | null;
  sec_unit_num?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
};

/** One line for an address: the service's own `full_address`, else built from its parts. */
export function formatAddress(address: AddressParts | null | undefined): string {
  if (!address) return DASH;
  if (address.full_address && address.full_address.trim()) return address.full_address;
  const join = (parts: Array<string | null | undefined>, separator = " ") =>
    parts.filter((p) => p && p.trim()).join(separator);
  const street = join([
    address.number,
    address.prefix,
    address.street,
    address.type,
    join([address.sec_unit_type, address.sec_unit_num]),
  ]);
  const line = join([street, address.city, join([address.state, address.zip])], ", ");
  return line || DASH;
}

/** "face_amount_cents" → "Face amount": labels for fields the spec does not publish. */
export function labelFromKey(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/_(cents|str)$/i, "")
    .replace(/^is_/i, "")
    .split(/[_\s]+/)
    .filter(Boolean)
    .join(" ")
    .toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : key;
}

/**
 * The viewer's locale from `Accept-Language` ("fr-CA,fr;q=0.9" → "fr-CA"), if Intl knows it;
 * the fallback otherwise, so a hostile header cannot break formatting.
 */
export function localeFromAcceptLanguage(header: string | null | undefined, fallback = "en-US"): string {
  if (!header) return fallback;
  const ranked = header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
      return { tag: tag.trim(), q: q ? Number(q[1]) : 1, index };
    })
    .filter(
      (entry) => entry.tag && entry.tag !== "*" && entry.q > 0 && /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(entry.tag),
    )
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    try {
      const [supported] = Intl.DateTimeFormat.supportedLocalesOf([tag]);
      if (supported) return supported;
    } catch {
      // An invalid tag: try the next one.
    }
  }
  return fallback;
}

export type Period = "week" | "month" | "quarter";

/**
 * A report period as people write it, from the ISO day it starts on: "Aug 2026", "Q3 2026",
 * "Week of Aug 3, 2026". A key that is not a date is shown as it came.
 */
export function formatPeriod(start: string | null | undefined, period: Period, locale = "en-US"): string {
  if (!start) return DASH;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(start);
  if (!match) return start;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  if (Number.isNaN(date.getTime())) return start;
  if (period === "quarter") return `Q${Math.floor(date.getUTCMonth() / 3) + 1} ${date.getUTCFullYear()}`;
  if (period === "month") return dateFormat(locale, { month: "short", year: "numeric", timeZone: "UTC" }).format(date);
  return `Week of ${dateFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(date)}`;
}

const RELATIVE_STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 30],
  ["month", 12],
  ["year", Infinity],
];
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();

/** How long ago (or how soon) an instant is, in the largest whole unit: "3 days ago", "in 2 hours", "yesterday". */
export function formatRelative(
  value: Date | string | null | undefined,
  now: Date | number = Date.now(),
  locale = "en-US",
): string {
  if (!value) return DASH;
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  let amount = (date.getTime() - (typeof now === "number" ? now : now.getTime())) / 1000;
  if (Math.abs(amount) < 45) return "just now";
  let format = relativeFormats.get(locale);
  if (!format) relativeFormats.set(locale, (format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" })));
  for (const [unit, size] of RELATIVE_STEPS) {
    // Days to months uses the mean month; a relative time is a glance, the hover gives the exact one.
    const next = unit === "day" ? 30.44 : size;
    if (Math.abs(Math.round(amount)) < next || unit === "year") return format.format(Math.round(amount), unit);
    amount /= next;
  }
  return format.format(Math.round(amount), "year");
}

const DURATION_UNITS: Record<string, string> = { D: "day", W: "week", M: "month", Y: "year" };

/** A monitoring interval (ISO 8601 duration, "P1M") as people say it: "month", "3 months", "2 weeks". */
export function formatInterval(value: string | null | undefined): string {
  if (!value) return DASH;
  const match = /^P(\d+)([DWMY])$/.exec(value.trim());
  const unit = match ? DURATION_UNITS[match[2] ?? ""] : undefined;
  if (!match || !unit) return value;
  const count = Number(match[1]);
  return count === 1 ? unit : `${count} ${unit}s`;
}

/**
 * How long something took, in its largest sensible unit: "12 min", "3 h", "2 days" (short, for
 * tables) or "12 minutes", "3 hours", "2 days" (long, for sentences). Under two hours reads in
 * minutes and under two days in hours, so "90 min" is never rounded up to "2 h".
 */
export function formatDuration(ms: number | null | undefined, style: "short" | "long" = "short"): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return DASH;
  const minutes = Math.max(0, ms) / 60_000;
  const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? "" : "s"}`;
  if (minutes < 1) return style === "short" ? "< 1 min" : "less than a minute";
  if (minutes < 120) {
    const m = Math.round(minutes);
    return style === "short" ? `${m} min` : plural(m, "minute");
  }
  const hours = minutes / 60;
  if (hours < 48) {
    const h = Math.round(hours);
    return style === "short" ? `${h} h` : plural(h, "hour");
  }
  return plural(Math.round(hours / 24), "day");
}
