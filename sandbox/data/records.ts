import type { SandboxPull } from "./sandbox-pull";

// Public records agree with the linked accounts: an enrichment question about a person or an
// address the seeded book knows is answered from that account (its drivers, vehicles and
// property data), so a demo can enrich a prospect and see the same household.

type Row = Record<string, unknown>;
const rows = (value: unknown): Row[] => (Array.isArray(value) ? (value as Row[]) : []);
const str = (value: unknown): string | null => (typeof value === "string" ? value : null);
const same = (a: unknown, b: unknown) =>
  typeof a === "string" && typeof b === "string" && a.trim().toLowerCase() === b.trim().toLowerCase();

export type Place = { number?: string; street: string; zip: string };

function samePlace(address: Row | null, place: Place): boolean {
  if (!address) return false;
  return (
    same(address.street, place.street) &&
    same(address.zip, place.zip) &&
    (place.number === undefined || same(address.number, place.number))
  );
}

/** The driver-license fields of a pull's driver (spec 2.18 driver_license object). */
export function licenseOf(driver: Row) {
  return {
    first_name: str(driver.first_name) ?? "",
    middle_name: str(driver.middle_name),
    last_name: str(driver.last_name) ?? "",
    date_of_birth_str: str(driver.date_of_birth_str),
    drivers_license: str(driver.drivers_license),
    drivers_license_state: str(driver.drivers_license_state),
    gender: str(driver.gender),
    marital_status: str(driver.marital_status),
  };
}

/** A driver of the book with that name (and birth date, when given). */
export function findDriver(
  pulls: Iterable<SandboxPull>,
  who: { first_name: string; last_name: string; date_of_birth_str?: string },
): Row | null {
  for (const pull of pulls) {
    const found = rows(pull.drivers).find(
      (d) =>
        same(d.first_name, who.first_name) &&
        same(d.last_name, who.last_name) &&
        (who.date_of_birth_str === undefined || d.date_of_birth_str === who.date_of_birth_str),
    );
    if (found) return found;
  }
  return null;
}

/** The account whose mailing address is `place`: its drivers and vehicles. */
export function findHousehold(pulls: Iterable<SandboxPull>, place: Place): { drivers: Row[]; vehicles: Row[] } | null {
  for (const pull of pulls) {
    if (!rows(pull.addresses).some((a) => a.address_nature === "MAILING" && samePlace(a, place))) continue;
    const vehicles = rows(pull.policies)
      .flatMap((p) => rows(p.vehicles))
      .filter((v) => v.is_removed !== true);
    return { drivers: rows(pull.drivers), vehicles };
  }
  return null;
}

/** Property data of a dwelling at `place`, without its two ids. */
export function findProperty(pulls: Iterable<SandboxPull>, place: Place): Row | null {
  for (const pull of pulls) {
    for (const dwelling of rows(pull.policies).flatMap((p) => rows(p.dwellings))) {
      const data = dwelling.property_data;
      if (!data || typeof data !== "object" || !samePlace(dwelling.address as Row | null, place)) continue;
      const { property_data_id: _id, dwelling_id: _dwelling, ...fields } = data as Row;
      return fields;
    }
  }
  return null;
}
