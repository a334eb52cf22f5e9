import "server-only";
import { currentKeyRing, isSealed, openValue, rewrapValue, sealValue, sealedKeyId, type KeyRing } from "./key-ring";

// Which values are never stored in clear: drivers' licence numbers and dates of birth, wherever
// they sit in a stored JSON document (a pull's payload, its earlier versions, a webhook body, a
// monitoring change, an enrichment question or answer, the audit trail). One list of JSON keys,
// read from the service's schemas (lib/service/schemas/people.ts, enrichment.ts) and from what
// our own forms send; a walker that seals or opens the string values under those keys, at any
// depth. A field-history entry (`{ path, raw, message }` of a payload problem, `{ path, old, new }`)
// whose path ends in one of these keys has its values sealed too. Strings, and numbers (a licence
// or a date sent as a number: it is sealed with a tag inside, and opens as a number); null stays null.

export const SENSITIVE_KEYS: ReadonlySet<string> = new Set([
  // A pull's drivers (spec 2.7), the enrichment answers' licences and household drivers (2.18).
  "drivers_license",
  "date_of_birth_str",
  // Other spellings a carrier, the service or a later version may use.
  "date_of_birth",
  "birth_date",
  "birthdate",
  "dob",
  "drivers_license_number",
  "license_number",
  "driver_license_number",
  // Our own forms' and questions' names.
  "dateOfBirth",
  "driversLicense",
]);

/** The members of a change or problem record that hold the value at its `path`. */
/** (A problem's message quotes the value it could not read.) */
const VALUE_MEMBERS = ["raw", "old", "new", "before", "after", "value", "from", "to", "message"] as const;

/** `policies[0].drivers[1].date_of_birth_str` ends in a sensitive key. */
export function pathIsSensitive(path: string): boolean {
  const last = path
    .split(/[.[\]]/)
    .filter(Boolean)
    .pop();
  return last !== undefined && SENSITIVE_KEYS.has(last);
}

type Change = (value: string | number) => unknown;

/**
 * `value` with every sensitive string or number replaced by `change(value)`; the same object where
 * nothing changed (copy on write), so a document with no sensitive field costs one walk and no copy.
 */
export function mapSensitive(value: unknown, change: Change): unknown {
  return walk(value, false, change);
}

function walk(value: unknown, sensitive: boolean, change: Change): unknown {
  if (typeof value === "string" || typeof value === "number") return sensitive ? change(value) : value;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const next = walk(value[i], sensitive, change);
      if (next !== value[i]) (out ??= value.slice())[i] = next;
    }
    return out ?? value;
  }
  const record = value as Record<string, unknown>;
  const pathField =
    typeof record.path === "string" ? record.path : typeof record.field === "string" ? record.field : null;
  const atSensitivePath = pathField !== null && pathIsSensitive(pathField);
  let out: Record<string, unknown> | null = null;
  for (const key in record) {
    const member = record[key];
    const inner =
      sensitive || SENSITIVE_KEYS.has(key) || (atSensitivePath && (VALUE_MEMBERS as readonly string[]).includes(key));
    const next = walk(member, inner, change);
    if (next !== member) (out ??= { ...record })[key] = next;
  }
  return out ?? value;
}

/** Inside the ciphertext: the value was a number (never the start of a text a service sends). */
const NUMBER_TAG = "\u0000number:";

const sealOne = (value: string | number, ring: KeyRing) =>
  sealValue(typeof value === "number" ? `${NUMBER_TAG}${value}` : value, ring);

function openOne(sealed: string, ring: KeyRing): string | number {
  const text = openValue(sealed, ring);
  return text.startsWith(NUMBER_TAG) ? Number(text.slice(NUMBER_TAG.length)) : text;
}

/** Seals the clear sensitive values of a document under the ring's primary key (sealed ones stay). */
export function sealSensitive(value: unknown, ring: KeyRing = currentKeyRing()): unknown {
  return mapSensitive(value, (v) => (isSealed(v) ? v : sealOne(v, ring)));
}

/** Opens the sealed values of a document; a clear value left by an older version reads as it is. */
export function openSensitive(value: unknown, ring: KeyRing = currentKeyRing()): unknown {
  return mapSensitive(value, (v) => (typeof v === "string" && isSealed(v) ? openOne(v, ring) : v));
}

/** Every sensitive value under the primary key: clear ones sealed, others re-wrapped (rotation). */
export function resealSensitive(value: unknown, ring: KeyRing = currentKeyRing()): unknown {
  return mapSensitive(value, (v) => (typeof v === "string" && isSealed(v) ? rewrapValue(v, ring) : sealOne(v, ring)));
}

export type SealCensus = { clear: number; byKey: Record<string, number> };

/** How many sensitive values a document holds in clear, and how many under each key id. */
export function censusOf(value: unknown, into: SealCensus = { clear: 0, byKey: {} }): SealCensus {
  mapSensitive(value, (v) => {
    if (typeof v === "string" && isSealed(v)) {
      const id = sealedKeyId(v);
      into.byKey[id] = (into.byKey[id] ?? 0) + 1;
    } else into.clear++;
    return v;
  });
  return into;
}
