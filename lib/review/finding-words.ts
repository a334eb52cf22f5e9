import { formatCalendarDate, formatLimit, humanize } from "@/lib/format";
import { isKnownValue, POLICY_TYPES, type Policy, type Vehicle } from "@/lib/service/schemas";

// The words findings are written with: what a policy, a vehicle or a home is called, money as
// people read it, calendar days. Every name comes from the carrier, so it is clipped (a hostile
// or broken payload can send a page of text for a make) and never trusted to be present.

const MAX_NAME = 60;

/** A carrier's text, trimmed to one line of reasonable length. */
export function clip(value: string | null | undefined, max = MAX_NAME): string {
  const text = (value ?? "").replace(/\s+/g, " ").trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** "Auto", "Homeowners"; a type the spec does not list, as the carrier wrote it. */
export function lineLabel(policyType: string | null): string {
  if (!policyType) return "Policy of no stated line";
  return isKnownValue(POLICY_TYPES, policyType) ? humanize(policyType) : clip(policyType);
}

/** "State Farm auto AU192837": the carrier, the line and the policy number where there is one. */
export function policyLabel(policy: Policy): string {
  const carrier = clip(policy.carrier_friendly_name ?? policy.carrier_name) || "The carrier";
  const line = policy.policy_type ? lineLabel(policy.policy_type).toLowerCase() : "policy";
  const number = clip(policy.carrier_policy_number, 30);
  return `${carrier} ${line}${number ? ` ${number}` : ""}`;
}

/** "the 2019 Honda CR-V", else its VIN, else "a vehicle". */
export function vehicleLabel(vehicle: Vehicle): string {
  const name = clip([vehicle.year, vehicle.make, vehicle.model].filter(Boolean).join(" "));
  if (name) return `the ${name}`;
  const vin = clip(vehicle.vin ?? vehicle.hin, 20);
  return vin ? `the vehicle ${vin}` : "a vehicle with no description";
}

/** Whole dollars as a declarations page prints them: "$100,000". */
export const money = (cents: number) => formatLimit(cents);

/** "$100,000/$300,000". */
export const split = (perPerson: number, perAccident: number) => `${money(perPerson)}/${money(perAccident)}`;

/** The ISO day of a carrier's date-time ("2023-06-13T05:00:00Z" → "2023-06-13"), or null. */
export function dayOf(iso: string | null | undefined): string | null {
  return iso && /^\d{4}-\d{2}-\d{2}/.test(iso) && Number.isFinite(Date.parse(iso.slice(0, 10)))
    ? iso.slice(0, 10)
    : null;
}

/** Days from one ISO day to another (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);
}

export const calendarDay = (day: string) => formatCalendarDate(day);

export const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** "a, b and c". */
export function listWords(items: string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}
