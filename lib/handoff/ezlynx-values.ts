import { create } from "xmlbuilder2";
import type { Address, EmbeddedAddress, Pull } from "@/lib/service/schemas";
import { calendarDate } from "@/lib/service/schemas/dates";

// What the EZLynx applicant files (EZAUTO and EZHOME, schema version V200) share: the value
// types their schemas accept, the service's enumerations mapped onto theirs, the street split
// into number and name, and a small tree of elements rendered by xmlbuilder2 (which escapes).
// Pure: no database, no clock unless given one.

/** An element: text, or children in the order the schema's sequence lists them. */
export type XmlNode = { name: string; text?: string; children?: XmlNode[]; attrs?: Record<string, string> };

/** An element with text, or nothing when the value is absent (optional elements are left out). */
export function leaf(name: string, value: string | number | null | undefined): XmlNode | null {
  if (value === null || value === undefined) return null;
  return { name, text: String(value) };
}

export function branch(
  name: string,
  children: Array<XmlNode | null | undefined | false>,
  attrs?: Record<string, string>,
): XmlNode {
  return { name, children: children.filter((c): c is XmlNode => Boolean(c)), ...(attrs ? { attrs } : {}) };
}

// XML 1.0 refuses control characters (other than tab, newline, return) and lone surrogates even
// when escaped; a value from a carrier may hold one, so it is dropped before the builder sees it.
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function xmlSafe(value: string): string {
  return value.replace(NOT_XML, "");
}

/**
 * Text for the builder. xmlbuilder2 escapes `<`, `>` and `&` but leaves a `&` that already starts
 * an entity ("&amp;", "&#65;") as it is, so a carrier's literal "&amp;" would reach EZLynx as "&":
 * every `&` is escaped here first, and the builder then leaves those entities alone.
 */
function textFor(value: string): string {
  return xmlSafe(value).replace(/&/g, "&amp;");
}

/** The document, UTF-8, every element in the schema's namespace (the default namespace). */
export function renderXml(namespace: string, root: XmlNode): string {
  const doc = create({ version: "1.0", encoding: "UTF-8" });
  const write = (parent: ReturnType<typeof doc.ele>, node: XmlNode) => {
    const element = parent.ele(node.name, node.attrs ?? {});
    if (node.text !== undefined) element.txt(textFor(node.text));
    for (const child of node.children ?? []) write(element, child);
  };
  const top = doc.ele(namespace, root.name, root.attrs ?? {});
  if (root.text !== undefined) top.txt(textFor(root.text));
  for (const child of root.children ?? []) write(top, child);
  return top.end({ prettyPrint: true });
}

/** Trimmed text, or null when blank. */
export function clean(value: string | null | undefined, max?: number): string | null {
  if (typeof value !== "string") return null;
  const trimmed = xmlSafe(value).replace(/\s+/g, " ").trim();
  if (!trimmed) return null;
  return max ? Array.from(trimmed).slice(0, max).join("") : trimmed;
}

// ---- People --------------------------------------------------------------------------------

export const GENDER: Record<string, string> = { MALE: "Male", FEMALE: "Female", NONBINARY: "X - Not Specified" };

/** CIVIL_UNION has no value of its own in V200: "Domestic Partner" is the nearest. */
export const MARITAL_STATUS: Record<string, string> = {
  SINGLE: "Single",
  MARRIED: "Married",
  DIVORCED: "Divorced",
  WIDOWED: "Widowed",
  SEPARATED: "Separated",
  CIVIL_UNION: "Domestic Partner",
};

export const RELATION: Record<string, string> = {
  INSURED: "Insured",
  SPOUSE: "Spouse",
  DOMESTIC_PARTNERSHIP: "Domestic Partner",
  CHILD: "Child",
  DAUGHTER: "Child",
  SON: "Child",
  FATHER: "Parent",
  MOTHER: "Parent",
  BROTHER: "Relative",
  SISTER: "Relative",
  RELATIVE: "Relative",
};

export const EDUCATION: Record<string, string> = {
  LESS_THAN_HIGH_SCHOOL: "No High School Diploma",
  HIGH_SCHOOL: "High School Diploma",
  HIGH_SCHOOL_GED: "High School Diploma",
  SOME_COLLEGE: "Some College - No Degree",
  IN_COLLEGE: "Some College - No Degree",
  VOCATIONAL: "Vocational/Technical Degree",
  ASSOCIATES: "Associates Degree",
  BACHELORS: "Bachelors",
  COLLEGE_DEGREE: "Bachelors",
  GRADUATE_WORK: "Bachelors",
  MASTERS: "Masters",
  PHD: "Phd",
  DOCTORS: "Medical Degree",
  LAW: "Law Degree",
};

/** A mapped value, or null when the service's value is absent or has no counterpart. */
export function mapped(table: Record<string, string>, value: string | null | undefined): string | null {
  return value ? (table[value] ?? null) : null;
}

/**
 * A date of birth the service wrote as free text ("1984-03-09", "03/09/1984") as YYYY-MM-DD, or
 * null when it is not a real day (a masked date of birth is not one).
 */
export function birthDate(value: string | null | undefined): string | null {
  const text = clean(value);
  if (!text) return null;
  const iso = calendarDate(text);
  if (iso) return iso;
  const [, month = "", dayOfMonth = "", year = ""] = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text) ?? [];
  if (!year) return null;
  return calendarDate(`${year}-${month.padStart(2, "0")}-${dayOfMonth.padStart(2, "0")}`);
}

/** A carrier's name as a key: "State Farm" and the identifier "statefarm" both read "statefarm". */
export function carrierKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

// ---- Contact -------------------------------------------------------------------------------

/** Ten digits a North American number is made of (a leading 1 dropped), as V200's pattern wants. */
export function phoneDigits(value: string | null | undefined): string | null {
  let digits = (value ?? "").replace(/\D/g, "");
  if (digits.length === 11 && digits.startsWith("1")) digits = digits.slice(1);
  return /^[1-9]\d{2}[1-9]\d{6}$/.test(digits) ? digits : null;
}

/** EZAUTO's email pattern ("[^@]+@[^.]+\..+", at most 100 characters). */
export function autoEmail(value: string | null | undefined): string | null {
  const email = clean(value);
  return email && email.length <= 100 && /^[^@\s]+@[^.@\s]+\..+$/.test(email) ? email : null;
}

// ---- Places --------------------------------------------------------------------------------

export const STATE_CODES = new Set(
  "AK AL AR AZ CA CO CT DC DE FL GA HI IA ID IL IN KS KY LA MA MD ME MI MN MO MS MT NC ND NE NH NJ NM NV NY OH OK OR PA RI SC SD TN TX UT VA VT WA WI WV WY".split(
    " ",
  ),
);

export function stateCode(value: string | null | undefined): string | null {
  const code = clean(value)?.toUpperCase() ?? null;
  return code && STATE_CODES.has(code) ? code : null;
}

/** A street address in the parts V200 asks for: the street's number and name kept apart. */
export type SplitAddress = {
  streetNumber: string;
  streetName: string;
  unit: string | null;
  city: string | null;
  state: string | null;
  zip5: string | null;
  zip4: string | null;
};

const LEADING_NUMBER = /^(\d+[A-Za-z]?(?:[-/][0-9A-Za-z]+)?)\s+(.+)$/;

/**
 * The street split into number and name. The service sends the parts (number, prefix, street,
 * type, unit) for most carriers; when it sends only the one-line `full_address`, its first part
 * is read as "number name". Null when there is no street to write.
 */
export function splitAddress(address: Address | EmbeddedAddress | null | undefined): SplitAddress | null {
  if (!address) return null;
  const zip = clean(address.zip) ?? "";
  const zipMatch = /^(\d{5})(?:-?(\d{4}))?$/.exec(zip);
  const place = {
    city: clean(address.city, 50),
    state: stateCode(address.state),
    zip5: zipMatch?.[1] ?? null,
    zip4: zipMatch?.[2] ?? null,
  };
  const unit = clean([address.sec_unit_type, address.sec_unit_num].filter(Boolean).join(" "), 50);
  const name = clean([address.prefix, address.street, address.type].filter(Boolean).join(" "), 255);
  if (name) return { streetNumber: clean(address.number, 50) ?? "", streetName: name, unit, ...place };
  const firstPart = clean(address.full_address?.split(",")[0]);
  if (!firstPart) return null;
  const [, number = "", rest = firstPart] = LEADING_NUMBER.exec(firstPart) ?? [];
  return {
    streetNumber: number.slice(0, 50),
    streetName: rest.slice(0, 255),
    unit,
    ...place,
  };
}

/** The account holder's own address: mailing first, then physical, then the first listed. */
export function homeAddressOf(pull: Pull): Address | null {
  return (
    pull.addresses.find((a) => a.address_nature === "MAILING") ??
    pull.addresses.find((a) => a.address_nature === "PHYSICAL") ??
    pull.addresses[0] ??
    null
  );
}

/** The calendar day of an instant the service sent, as V200's xsd:date wants. */
export function day(value: string | null | undefined): string | null {
  return calendarDate(value);
}

/** Whole dollars from cents, for V200's integer amounts. */
export function dollars(cents: number | null | undefined): number | null {
  return typeof cents === "number" && Number.isFinite(cents) && cents >= 0 ? Math.round(cents / 100) : null;
}

/** What a file is: its text, and what of the pull it could not carry (shown beside the download). */
export type EzlynxFile = {
  xml: string;
  /** What the pull holds that the file leaves out, in words an agent reads before importing. */
  leftOut: string[];
  /**
   * What to check in EZLynx after the import: values the schema requires that the pull does not
   * give (written as a stated default), and values written as the pull gives them although the
   * published schema's list does not hold them (model years past 2019).
   */
  toCheck: string[];
};
