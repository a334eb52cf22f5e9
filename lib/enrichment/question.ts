import "server-only";
import { createHmac } from "node:crypto";
import { env } from "@/lib/env";
import type { Driver, EmbeddedAddress, Pull } from "@/lib/service/schemas";
import type { PropertyData } from "@/lib/service/schemas";
import type { EnrichmentKind } from "./words";

// What a look-up asks, built from the pull on the server (never from what a form says about the
// person): a dwelling's address; a driver's names, date of birth and the account's address. The
// question key is a keyed hash (a blind index) of the question normalized (case, spacing, punctuation), without the
// permissible-purpose fields: asking about the same home or person again is the same question,
// whoever asks and why, so it is never paid for twice.

export type DwellingSubject = {
  subjectKey: string;
  dwellingId: string;
  /** The address as one line, as the service takes it; null when the carrier sent none usable. */
  address: string | null;
  /** What the carrier has on file about the home (the dwelling's property data). */
  carrier: PropertyData | null;
};

export type DriverSubject = {
  subjectKey: string;
  driverId: string;
  name: string;
  firstName: string | null;
  middleName: string | null;
  lastName: string | null;
  /** MM/DD/YYYY, when the carrier's date of birth can be read as a real date. */
  dateOfBirth: string | null;
  licence: string | null;
  licenceState: string | null;
};

const clean = (value: string | null | undefined) =>
  typeof value === "string" ? value.replace(/\s+/g, " ").trim() : "";

/** "1200 N Maple AVE APT 4B, Austin, TX 78701" from the parts, else the carrier's own line. */
export function addressLine(address: EmbeddedAddress | null | undefined): string | null {
  if (!address) return null;
  const join = (parts: Array<string | null | undefined>, separator = " ") =>
    parts.map(clean).filter(Boolean).join(separator);
  const street = join([
    address.number,
    address.prefix,
    address.street,
    address.type,
    address.sec_unit_type,
    address.sec_unit_num,
  ]);
  if (clean(address.street) && clean(address.city) && clean(address.state) && clean(address.zip))
    return `${street}, ${clean(address.city)}, ${join([address.state, address.zip])}`;
  const line = clean(address.full_address);
  return line || null;
}

/** The account's address for person look-ups: the mailing address, else any, else a home's. */
export function accountAddressOf(pull: Pull): string | null {
  const mailing = pull.addresses.filter((a) => a.address_nature === "MAILING");
  for (const address of [...mailing, ...pull.addresses]) {
    const line = addressLine(address);
    if (line) return line;
  }
  for (const dwelling of pull.policies.flatMap((p) => p.dwellings)) {
    const line = addressLine(dwelling.address);
    if (line) return line;
  }
  return null;
}

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * A date of birth as the service takes it (MM/DD/YYYY), from what a carrier or a form wrote:
 * `1984-03-09` (a date-time too), `03/09/1984` or `3/9/1984`. Null for anything else (masked
 * `**\/**\/1984`, words), an impossible day, or a day not in the past.
 */
export function dateOfBirthOf(value: string | null | undefined, now: Date = new Date()): string | null {
  const text = clean(value);
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(text);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  const [year, month, day] = iso
    ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
    : us
      ? [Number(us[3]), Number(us[1]), Number(us[2])]
      : [0, 0, 0];
  if (year < 1900 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (Date.UTC(year, month - 1, day) >= now.getTime()) return null;
  return `${String(month).padStart(2, "0")}/${String(day).padStart(2, "0")}/${year}`;
}

export function dwellingSubjectsOf(pull: Pull): DwellingSubject[] {
  const seen = new Set<string>();
  const subjects: DwellingSubject[] = [];
  for (const dwelling of pull.policies.flatMap((p) => p.dwellings)) {
    const address = addressLine(dwelling.address);
    // The same home on two policies (home and flood) is one question.
    const dedup = address ? normalize(address) : `id:${dwelling.dwelling_id}`;
    if (seen.has(dedup)) continue;
    seen.add(dedup);
    subjects.push({
      subjectKey: `dwelling:${dwelling.dwelling_id}`,
      dwellingId: dwelling.dwelling_id,
      address,
      carrier: dwelling.property_data,
    });
  }
  return subjects;
}

/** A licence number worth sending: masked ones ("****1234") are not. */
const usableLicence = (value: string | null) =>
  value && /^[A-Za-z0-9-]{4,30}$/.test(value.trim()) ? value.trim() : null;

export function driverSubjectsOf(pull: Pull, now: Date = new Date()): DriverSubject[] {
  const drivers = new Map<string, Driver>();
  for (const driver of pull.drivers) if (!drivers.has(driver.driver_id)) drivers.set(driver.driver_id, driver);
  return [...drivers.values()].map((driver) => {
    const firstName = clean(driver.first_name) || null;
    const middleName = clean(driver.middle_name) || null;
    const lastName = clean(driver.last_name) || null;
    const state = clean(driver.drivers_license_state).toUpperCase();
    return {
      subjectKey: `driver:${driver.driver_id}`,
      driverId: driver.driver_id,
      name: [firstName, middleName, lastName].filter(Boolean).join(" ") || "A driver without a name",
      firstName,
      middleName,
      lastName,
      dateOfBirth: dateOfBirthOf(driver.date_of_birth_str, now),
      licence: usableLicence(driver.drivers_license),
      licenceState: /^[A-Z]{2}$/.test(state) ? state : null,
    };
  });
}

/** What a property look-up asks: the home's address; null when the carrier sent none usable. */
export function propertyQuestion(subject: DwellingSubject): { address: string } | null {
  return subject.address ? { address: subject.address } : null;
}

export type PersonQuestion = {
  first_name: string;
  middle_name?: string;
  last_name: string;
  address: string;
  date_of_birth_str?: string;
  drivers_license?: string;
  drivers_license_state?: string;
};

/**
 * What a licence or driving-record look-up asks about the driver (the permissible-purpose fields
 * are added by whoever asks), or what is missing for it. `dateOfBirth`: the one given on the
 * form, else the carrier's. A driving record may go by licence and state when there is no date
 * of birth; a licence look-up needs the date.
 */
export function personQuestion(
  kind: Exclude<EnrichmentKind, "PROPERTY_DATA">,
  subject: DriverSubject,
  address: string | null,
  dateOfBirth: string | null,
): { ok: true; question: PersonQuestion } | { ok: false; missing: "name" | "address" | "dateOfBirth" } {
  if (!subject.firstName || !subject.lastName) return { ok: false, missing: "name" };
  if (!address) return { ok: false, missing: "address" };
  const who = {
    first_name: subject.firstName,
    ...(subject.middleName ? { middle_name: subject.middleName } : {}),
    last_name: subject.lastName,
    address,
  };
  if (dateOfBirth) return { ok: true, question: { ...who, date_of_birth_str: dateOfBirth } };
  if (kind === "DRIVING_RECORD" && subject.licence && subject.licenceState)
    return {
      ok: true,
      question: { ...who, drivers_license: subject.licence, drivers_license_state: subject.licenceState },
    };
  return { ok: false, missing: "dateOfBirth" };
}

/** Case, spacing and punctuation do not make a different question. */
export function normalize(value: string): string {
  return value.toUpperCase().replace(/[.,#]/g, " ").replace(/\s+/g, " ").trim();
}

/** The parameters that make the question, whoever asks it and why. */
const PURPOSE_FIELDS = new Set(["purpose", "employee_name", "employee_job_function"]);

/**
 * A blind index of the question (HMAC-SHA256 under COVERDESK_INDEX_KEY, as lib/security/blind-index.ts):
 * a person's question holds a date of birth or a licence number, and a plain hash of it could be
 * reversed by trying every birth date with the name and address the row shows beside it.
 */
export function questionKey(
  kind: EnrichmentKind,
  question: Record<string, string | undefined>,
  key: Buffer = env().dataProtection.indexKey,
): string {
  const fields = Object.keys(question)
    .filter((key) => !PURPOSE_FIELDS.has(key) && question[key] !== undefined && question[key] !== "")
    .sort()
    .map((key) => [key, normalize(String(question[key]))]);
  return createHmac("sha256", key)
    .update(JSON.stringify([kind, fields]))
    .digest("hex");
}
