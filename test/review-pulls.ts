import { parsePull, type Pull } from "@/lib/service/schemas";

// Hand-built pulls for the coverage review's tests (lib/review): a payload as the service would
// send it, with only the parts a rule reads, parsed by the app's own tolerant schema. Ids are
// counted, not random, so a test can name them; carriers and policy numbers are fixed so the
// findings' keys are predictable.

type Json = Record<string, unknown>;
let next = 0;
/** A fresh UUID-shaped id, different on every call. */
export const id = () => `00000000-0000-4000-8000-${String(++next).padStart(12, "0")}`;

export function coverage(friendly: string | null, values: Json = {}, name: string | null = null): Json {
  return {
    vehicle_coverage_id: id(),
    name,
    friendly_name: friendly,
    premium_cents: 10_000,
    per_person_limit_cents: null,
    per_incident_limit_cents: null,
    deductible_cents: null,
    is_declined: false,
    ...values,
  };
}

/** Split limits in dollars: `split(100_000, 300_000)`. */
export const split = (perPerson: number, perAccident: number): Json => ({
  per_person_limit_cents: perPerson * 100,
  per_incident_limit_cents: perAccident * 100,
});
export const limit = (dollars: number): Json => ({ per_incident_limit_cents: dollars * 100 });
export const deductible = (dollars: number): Json => ({ deductible_cents: dollars * 100 });

/** A driver as the account lists them, and as a vehicle lists them. */
export function driver(first: string, last: string, values: Json = {}): Json {
  return { driver_id: id(), first_name: first, last_name: last, date_of_birth_str: "01/02/1980", ...values };
}
export const onVehicle = (d: Json, excluded = false): Json => ({ ...d, is_excluded: excluded });

/** A vehicle with sound cover (100/300, $100,000 PD, matching UM, $500 deductibles) unless told otherwise. */
export function vehicle(values: Json = {}, coverages?: Json[], drivers: Json[] = []): Json {
  return {
    vehicle_id: id(),
    year: 2021,
    make: "Honda",
    model: "CR-V",
    vin: `VIN${String(++next).padStart(14, "0")}`,
    is_removed: false,
    ownership_type: "OWN",
    lien_holder: null,
    coverages: coverages ?? soundAuto(),
    drivers,
    ...values,
  };
}

export const soundAuto = (): Json[] => [
  coverage("Bodily Injury Liability", split(100_000, 300_000)),
  coverage("Property Damage Liability", limit(100_000)),
  coverage("Uninsured / Underinsured Motorist Bodily Injury Liability", split(100_000, 300_000)),
  coverage("Comprehensive", deductible(500)),
  coverage("Collision", deductible(500)),
];

export function policy(type: string, values: Json = {}): Json {
  return {
    policy_id: id(),
    policy_type: type,
    carrier_name: "acme",
    carrier_friendly_name: "Acme Mutual",
    carrier_policy_number: `${type.slice(0, 2)}-${++next}`,
    status: "ACTIVE",
    effective_date: "2026-01-01T00:00:00Z",
    expiry_date: "2027-01-01T00:00:00Z",
    total_premium_cents: 120_000,
    limited_access: false,
    vehicles: [],
    dwellings: [],
    forms_and_endorsements: [],
    additional_interests: [],
    ...values,
  };
}

export const autoPolicy = (vehicles: Json[], values: Json = {}) => policy("AUTO", { vehicles, ...values });

export function homeCoverage(name: string | null, values: Json = {}, friendly: string | null = null): Json {
  return {
    dwelling_coverage_id: id(),
    name,
    friendly_name: friendly,
    per_person_limit_cents: null,
    per_incident_limit_cents: null,
    deductible_cents: null,
    is_declined: false,
    ...values,
  };
}

/** A home insured to value ($400,000 of $400,000), replacement cost settlement, $300,000 liability, water backup. */
export function dwelling(values: Json = {}, coverages?: Json[]): Json {
  return {
    dwelling_id: id(),
    address: { full_address: "12 Elm Street, Springfield, IL 62701" },
    replacement_cost_cents: 400_000_00,
    is_replacement_cost_cents_derived: false,
    extended_replacement_cost_percent: null,
    loss_settlement_type: "REPLACEMENT_COST",
    coverages: coverages ?? soundHome(400_000),
    ...values,
  };
}

export const soundHome = (coverageA: number): Json[] => [
  homeCoverage("DWELLING", limit(coverageA)),
  homeCoverage("PERSONAL_PROPERTY", limit(coverageA / 2)),
  homeCoverage("PERSONAL_LIABILITY", limit(300_000)),
  homeCoverage("WATER_BACKUP_AND_SUMP_OVERFLOW", limit(10_000)),
];

export const homePolicy = (dwellings: Json[], values: Json = {}) => policy("HOMEOWNERS", { dwellings, ...values });

/** The payload of an account with these policies (and drivers), as the service would send it. */
export function rawPullOf(policies: Json[], values: Json = {}): Json {
  return {
    pull_id: "11111111-2222-4333-8444-555555555555",
    status: "SUCCESS",
    type: "PULLING_DATA",
    account_identifier: "acct_review",
    first_name: "Dana",
    last_name: "Reyes",
    created_at: "2026-02-01T10:00:00Z",
    policies,
    drivers: [],
    ...values,
  };
}

/** The parsed pull of an account with these policies (and drivers). */
export function pullOf(policies: Json[], values: Json = {}): Pull {
  const parsed = parsePull(rawPullOf(policies, values));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.pull;
}
