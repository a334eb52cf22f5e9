import { createHash } from "node:crypto";
import type { Pull } from "@/lib/service/schemas";
import { calendarDate } from "@/lib/service/schemas";
import { isReadingType } from "./pull-types";

// What lists, filters and reports need from a pull, computed once at ingestion so that
// they are indexed columns instead of scans over JSON.

/**
 * Bump when projectPull computes something new or differently: rows stored by older code are
 * re-projected from their raw payload at the next start (lib/ingest/reproject.ts).
 */
export const PROJECTION_VERSION = 3;

export type PullProjection = {
  status: string;
  type: string | null;
  parentPullId: string | null;
  /** The pull's own account identifier, for a reading of an account only (lib/pulls/account-key.ts). */
  accountIdentifier: string | null;
  deletedAt: Date | null;
  firstName: string | null;
  lastName: string | null;
  sortName: string;
  email: string | null;
  phone: string | null;
  providerName: string | null;
  providerFriendlyName: string | null;
  isArchived: boolean;
  serviceCreatedAt: Date | null;
  policyCount: number;
  totalPremiumCents: number | null;
  nextExpiryDate: string | null;
  policyTypes: string[];
  searchText: string;
  projectionVersion: number;
  widgetId: string | null;
  publicAlias: string | null;
};

export type PolicyProjection = {
  policyId: string;
  policyType: string | null;
  status: string | null;
  carrierName: string | null;
  carrierFriendlyName: string | null;
  carrierPolicyNumber: string | null;
  totalPremiumCents: number | null;
  effectiveDate: string | null;
  expiryDate: string | null;
};

const LAPSED_STATUSES = new Set(["CANCELLED", "EXPIRED", "RESCINDED"]);

export function projectPolicies(pull: Pull): PolicyProjection[] {
  return pull.policies.map((policy) => ({
    policyId: policy.policy_id,
    policyType: policy.policy_type,
    status: policy.status,
    carrierName: policy.carrier_name,
    carrierFriendlyName: policy.carrier_friendly_name,
    carrierPolicyNumber: policy.carrier_policy_number,
    totalPremiumCents: policy.total_premium_cents,
    effectiveDate: calendarDate(policy.effective_date),
    expiryDate: calendarDate(policy.expiry_date),
  }));
}

function sortNameOf(pull: Pull): string {
  const last = pull.last_name?.trim() ?? "";
  const first = pull.first_name?.trim() ?? "";
  if (last && first) return `${last}, ${first}`;
  return last || first || pull.account_email || pull.email || "";
}

function parseInstant(iso: string | null): Date | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function projectPull(pull: Pull): PullProjection {
  const policies = projectPolicies(pull);
  const premiums = policies.map((p) => p.totalPremiumCents).filter((c): c is number => c !== null);
  const upcoming = policies
    .filter((p) => p.expiryDate && !LAPSED_STATUSES.has(p.status ?? ""))
    .map((p) => p.expiryDate as string)
    .sort();
  return {
    status: pull.status ?? "UNKNOWN",
    type: pull.type,
    parentPullId: pull.parent_pull_id,
    accountIdentifier: isReadingType(pull.type) ? pull.account_identifier : null,
    deletedAt: parseInstant(pull.deleted_at),
    firstName: pull.first_name,
    lastName: pull.last_name,
    sortName: sortNameOf(pull).toLowerCase(),
    email: pull.account_email ?? pull.email,
    phone: pull.phone ?? pull.mobile_phone ?? pull.home_phone ?? pull.work_phone,
    providerName: pull.insurance_provider_name,
    providerFriendlyName: pull.insurance_provider_friendly_name,
    isArchived: pull.is_archived ?? false,
    serviceCreatedAt: parseInstant(pull.created_at),
    policyCount: policies.length,
    totalPremiumCents: premiums.length > 0 ? premiums.reduce((a, b) => a + b, 0) : null,
    nextExpiryDate: upcoming[0] ?? null,
    policyTypes: [...new Set(policies.map((p) => p.policyType).filter((t): t is string => t !== null))].sort(),
    searchText: searchTextOf(pull),
    projectionVersion: PROJECTION_VERSION,
    widgetId: pull.widget_id,
    publicAlias: pull.public_alias,
  };
}

const MAX_SEARCH_TEXT = 8_000;

/** Everything an agent may type to find this account, lower-cased; phones also as bare digits. */
export function searchTextOf(pull: Pull): string {
  const words: Array<string | null | undefined> = [
    pull.first_name,
    pull.middle_name,
    pull.last_name,
    pull.email,
    pull.account_email,
    pull.account_identifier,
    pull.insurance_provider_name,
    pull.insurance_provider_friendly_name,
  ];
  const phones = [pull.phone, pull.mobile_phone, pull.home_phone, pull.work_phone];
  for (const address of pull.addresses) words.push(address.full_address);
  for (const policy of pull.policies) {
    words.push(policy.carrier_policy_number, policy.carrier_name, policy.carrier_friendly_name);
    for (const insured of policy.named_insureds) words.push(insured.first_name, insured.last_name, insured.email);
    for (const insured of policy.commercial_named_insureds) words.push(insured.name);
    for (const vehicle of policy.vehicles) words.push(vehicle.vin, vehicle.hin, vehicle.garaging_address?.full_address);
    for (const dwelling of policy.dwellings) words.push(dwelling.address?.full_address);
  }
  const digits = phones.map((p) => p?.replace(/\D/g, "")).filter((p): p is string => Boolean(p));
  const text = [
    ...new Set(
      [...words, ...phones, ...digits]
        .filter((w): w is string => Boolean(w && w.trim()))
        .map((w) => w.trim().toLowerCase()),
    ),
  ].join(" ");
  return text.slice(0, MAX_SEARCH_TEXT);
}

/** Stable hash of a payload: key order does not matter, so a refetch of the same data is a no-op. */
export function contentHash(value: unknown): string {
  return hashCanonicalJson(canonicalJson(value));
}

/** contentHash of a payload whose canonicalJson is already at hand (a bulk load writes that text too). */
export function hashCanonicalJson(json: string): string {
  return createHash("sha256").update(json).digest("hex");
}

/**
 * JSON with every object's keys sorted (undefined members left out, as JSON.stringify does).
 * Stored content hashes are of this exact text, so its bytes must never change
 * (content-hash.test.ts holds the first implementation as the reference). It runs over every
 * payload ingested: a switch on the type, concatenation and a small insertion sort instead of
 * entries/filter/sort/map/join, and JSON.stringify only for strings that need escaping, make it
 * about twice as fast.
 */
export function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case "string":
      return quote(value);
    case "number":
      return Number.isFinite(value) ? String(value) : "null"; // what JSON.stringify writes
    case "boolean":
      return value ? "true" : "false";
    case "object":
      if (value === null) return "null";
      break;
    default:
      return JSON.stringify(value) ?? "null"; // undefined, functions, symbols: "null"; bigint throws
  }
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ",";
      // A hole in a sparse array was written as nothing (map skips it, join writes "").
      if (i in value) out += canonicalJson(value[i]);
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = sortedKeys(Object.keys(record));
  let out = "{";
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const member = record[key];
    if (member === undefined) continue;
    out += `${first ? "" : ","}${quoteKey(key)}:${canonicalJson(member)}`;
    first = false;
  }
  return `${out}}`;
}

/** Nothing JSON.stringify would escape: quotes, backslashes, control characters, surrogates. */
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

function quote(text: string): string {
  return PLAIN.test(text) ? `"${text}"` : JSON.stringify(text);
}

/** Payloads share a few hundred keys: each is quoted once (bounded, for payloads keyed by data). */
const quotedKeys = new Map<string, string>();

function quoteKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = quote(key);
    if (quotedKeys.size < 10_000) quotedKeys.set(key, quoted);
  }
  return quoted;
}

/**
 * In place, by UTF-16 code units (what `<` compares, as the first implementation's sort did).
 * Objects hold about a dozen keys: an insertion sort beats Array#sort's generic path there.
 */
function sortedKeys(keys: string[]): string[] {
  if (keys.length > 32) return keys.sort(); // the default order is the same; n² would not do
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && (keys[j] as string) > key) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}
