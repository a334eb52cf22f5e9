// The enrichment look-ups take an address as one line ("1200 N Maple AVE APT 4B, Austin, TX
// 78701"), as the service does; its answers and the seeded book hold the parts. This reads the
// line the way the seeded `full_address` is written, and says null when it cannot.

export type AddressParts = {
  number?: string;
  prefix?: string;
  street: string;
  type?: string;
  sec_unit_type?: string;
  sec_unit_num?: string;
  city: string;
  state: string;
  zip: string;
};

const LINE = /^\s*([^,]+?)\s*,\s*([^,]+?)\s*,\s*([A-Za-z]{2})\s+(\d{5}(?:-\d{4})?)\s*$/;
const NUMBER = /^\d+[A-Za-z]?$/;
const PREFIXES = new Set(["N", "S", "E", "W", "NE", "NW", "SE", "SW"]);
const UNIT_TYPES = new Set(["APT", "UNIT", "STE", "SUITE", "LOT", "BLDG", "FL", "#"]);
const STREET_TYPES = new Set([
  "ST",
  "AVE",
  "LN",
  "DR",
  "BLVD",
  "RD",
  "CT",
  "PL",
  "WAY",
  "CIR",
  "TER",
  "PKWY",
  "HWY",
  "TRL",
  "LOOP",
  "SQ",
]);

export function parseAddressLine(line: string): AddressParts | null {
  const match = LINE.exec(line);
  if (!match) return null;
  const [, streetPart = "", city = "", state = "", zip = ""] = match;
  const tokens = streetPart.split(/\s+/);
  const parts: AddressParts = { street: "", city, state: state.toUpperCase(), zip };
  if (tokens.length > 1 && NUMBER.test(tokens[0] ?? "")) parts.number = tokens.shift();
  const unitAt = tokens.findIndex((t, i) => i > 0 && UNIT_TYPES.has(t.toUpperCase()));
  if (unitAt > 0) {
    const [unitType, ...unit] = tokens.splice(unitAt);
    if (unit.length === 0) return null;
    parts.sec_unit_type = unitType?.toUpperCase();
    parts.sec_unit_num = unit.join(" ");
  }
  if (tokens.length > 1 && PREFIXES.has((tokens[0] ?? "").toUpperCase())) parts.prefix = tokens.shift()?.toUpperCase();
  if (tokens.length > 1 && STREET_TYPES.has((tokens.at(-1) ?? "").toUpperCase()))
    parts.type = tokens.pop()?.toUpperCase();
  parts.street = tokens.join(" ");
  return parts.street === "" ? null : parts;
}
