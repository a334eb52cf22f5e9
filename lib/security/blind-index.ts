import "server-only";
import { createHmac } from "node:crypto";
import { env } from "@/lib/env";

// A blind index finds a person by a value without storing the value: HMAC-SHA256 under a key
// only the server holds (COVERDESK_INDEX_KEY), so a copy of the database cannot be searched
// with a list of candidate birth dates or emails. Each kind of value has its own label, so the
// index of an email never equals the index of the same text as a name. Values are normalised
// first (case, spaces, a phone's punctuation, a date's format), so a search finds what a
// payload spelled differently.

export type IndexKind = "email" | "phone" | "name" | "birth-date" | "licence" | "vin" | "account";

/** The value as it is compared: lower case, inner spaces collapsed, a phone's digits, a date as YYYY-MM-DD. */
export function normaliseForIndex(kind: IndexKind, value: string): string {
  const text = value.normalize("NFKC").trim().toLowerCase().replace(/\s+/g, " ");
  switch (kind) {
    case "phone": {
      const digits = text.replace(/\D/g, "");
      return digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
    }
    case "birth-date": {
      const [, month, day, year] = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text) ?? [];
      if (month && day && year) return `${year}-${month.padStart(2, "0")}-${day.padStart(2, "0")}`;
      return text.slice(0, 10);
    }
    case "licence":
    case "vin":
      return text.replace(/[\s-]/g, "").toUpperCase();
    default:
      return text;
  }
}

/** The keyed hash of a value of this kind (hex), or null for an empty value. */
export function blindIndex(
  kind: IndexKind,
  value: string | null | undefined,
  key = env().dataProtection.indexKey,
): string | null {
  if (value === null || value === undefined) return null;
  const normal = normaliseForIndex(kind, value);
  if (normal === "") return null;
  return createHmac("sha256", key).update(`${kind}\u0000${normal}`).digest("hex");
}
