import { isIsoDate } from "@/lib/service/schemas";

// Parts of a policy whose fields the spec does not publish (life, locations, forms, premium
// groups, additional interests, the policy check) arrive as loose objects. These helpers decide
// how each value reads from its key and type, so whatever the service sends is shown, with
// money, dates and percentages formatted as elsewhere on the page.

export type LooseRecord = Record<string, unknown>;

type LooseValue =
  | { kind: "empty" }
  | { kind: "text"; text: string }
  | { kind: "money"; cents: number }
  | { kind: "date"; iso: string }
  | { kind: "percent"; text: string }
  | { kind: "boolean"; value: boolean }
  | { kind: "list"; items: string[] }
  | { kind: "records"; rows: LooseRecord[] }
  | { kind: "address"; address: LooseRecord }
  | { kind: "record"; record: LooseRecord };

function isRecord(value: unknown): value is LooseRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Ids link records to each other; an agent has no use for them on screen. */
export function isIdKey(key: string): boolean {
  return key === "id" || /_id$/i.test(key) || /Id$/.test(key) || key === "download_url";
}

const ADDRESS_KEYS = ["full_address", "street", "city", "zip"];
function looksLikeAddress(value: LooseRecord): boolean {
  return ADDRESS_KEYS.filter((key) => key in value).length >= 2;
}

const DATE_KEY = /(date|_on|_at)$|^date_|_date_/i;

export function describeLooseValue(key: string, value: unknown): LooseValue {
  if (value === null || value === undefined || value === "") return { kind: "empty" };
  if (typeof value === "boolean") return { kind: "boolean", value };
  if (typeof value === "number") {
    if (/_cents$/i.test(key) && Number.isFinite(value)) return { kind: "money", cents: value };
    if (/percent|percentage/i.test(key)) return { kind: "percent", text: String(value) };
    return { kind: "text", text: String(value) };
  }
  if (typeof value === "string") {
    if (/percent|percentage/i.test(key)) return { kind: "percent", text: value };
    if (DATE_KEY.test(key) && isIsoDate(value)) return { kind: "date", iso: value };
    return { kind: "text", text: value };
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return { kind: "empty" };
    if (value.every(isRecord)) return { kind: "records", rows: value };
    return {
      kind: "list",
      items: value.map((item) => (isRecord(item) || Array.isArray(item) ? JSON.stringify(item) : String(item))),
    };
  }
  if (isRecord(value))
    return looksLikeAddress(value) ? { kind: "address", address: value } : { kind: "record", record: value };
  return { kind: "text", text: String(value) };
}

/** The keys worth a column or a field: no ids, and no duplicates under other casing. */
export function visibleKeys(records: LooseRecord[]): string[] {
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    for (const key of Object.keys(record)) {
      const normal = key.replace(/_/g, "").toLowerCase();
      if (isIdKey(key) || seen.has(normal)) continue;
      seen.add(normal);
      keys.push(key);
    }
  }
  return keys;
}

const LEADING_KEYS = ["friendly_name", "name", "full_name", "form_name", "description", "type"];

/** Table columns: names first, and no column that is empty on every row. */
export function tableKeys(records: LooseRecord[]): string[] {
  const keys = visibleKeys(records).filter((key) =>
    records.some((record) => describeLooseValue(key, record[key]).kind !== "empty"),
  );
  const rank = (key: string) => {
    const position = LEADING_KEYS.indexOf(key);
    return position === -1 ? LEADING_KEYS.length : position;
  };
  return keys
    .map((key, index) => ({ key, index }))
    .sort((a, b) => rank(a.key) - rank(b.key) || a.index - b.index)
    .map(({ key }) => key);
}

/** Splits a record into simple fields and the nested lists and objects shown below them. */
export function splitRecord(record: LooseRecord): { fields: string[]; nested: string[] } {
  const fields: string[] = [];
  const nested: string[] = [];
  for (const key of visibleKeys([record])) {
    const kind = describeLooseValue(key, record[key]).kind;
    if (kind === "records" || kind === "record") nested.push(key);
    else fields.push(key);
  }
  return { fields, nested };
}

/** "PER_STIRPES" reads as an enum value to humanise; "HO132483" or "CA 00 01" are codes to keep. */
export function readsAsEnum(text: string): boolean {
  return /^[A-Z]+(_[A-Z0-9]+)*$/.test(text);
}

const ADDRESS_PARTS = [
  "full_address",
  "number",
  "prefix",
  "street",
  "type",
  "sec_unit_type",
  "sec_unit_num",
  "city",
  "state",
  "zip",
] as const;
type AddressText = Partial<Record<(typeof ADDRESS_PARTS)[number], string>>;

/** An address found under a key the spec does not name (the examples' `GaragingAddress`). */
export function addressFrom(value: unknown): AddressText | null {
  if (!isRecord(value)) return null;
  const address: AddressText = {};
  for (const part of ADDRESS_PARTS) {
    const field = value[part];
    if (typeof field === "string") address[part] = field;
  }
  return Object.keys(address).length > 0 ? address : null;
}
