import { vin } from "../data/auto";
import { address } from "../data/people";
import type { SandboxPull } from "../data/pulls";
import { DAY_MS, type Random } from "../data/random";
import type { ChangeKind } from "./change-kinds";
import { renewIds } from "./ids";
import type { MonitoringEvent } from "./state";

// What a monitoring refresh finds: the account as before (every id new, as in any new pull)
// with one plausible change, and the monitoring event that describes it (service-notes,
// "Monitorings": UPDATE changes carry only the changed keys).

/** Refreshes of an account go through these in turn, skipping those that do not fit it. */
export const ROTATION: readonly ChangeKind[] = ["renewal", "vehicle_added", "coverage_changed", "claim_opened"];

type Obj = Record<string, unknown>;
type Change = MonitoringEvent["changes"][number];
type Found = { event: MonitoringEvent; updates: Obj[] };

const list = (value: unknown): Obj[] => (Array.isArray(value) ? (value as Obj[]) : []);
const num = (value: unknown): number => (typeof value === "number" ? value : 0);
const calendar = (ms: number) => `${new Date(ms).toISOString().slice(0, 10)}T00:00:00Z`;

function update(schema: string, before: Obj, after: Obj): Change {
  return { schema, type: "UPDATE", before, after };
}

/** The event's documents as the service lists them: `{ document_id }` objects. */
function documentsOf(pull: SandboxPull, policyId: unknown): Array<{ document_id: string }> {
  return list(pull.documents)
    .filter((d) => d.policy_id === policyId)
    .map((d) => ({ document_id: String(d.document_id) }));
}

const ID_KEYS: Record<string, string> = {
  POLICY: "policy_id",
  VEHICLE: "vehicle_id",
  VEHICLECOVERAGE: "vehicle_coverage_id",
  DWELLING: "dwelling_id",
  DWELLINGCOVERAGE: "dwelling_coverage_id",
  CLAIM: "claim_id",
};

/** A summary per changed resource, for DATA_UPDATED (whose published shape is open). */
function updatesOf(changes: Change[]): Obj[] {
  return changes.map((c) => {
    const row = c.after ?? c.before ?? {};
    const idKey = ID_KEYS[c.schema];
    return {
      schema: c.schema,
      type: c.type,
      id: idKey ? (row[idKey] ?? null) : null,
      fields: Object.keys(c.after ?? {}).filter((k) => k !== idKey),
    };
  });
}

function found(type: string, changes: Change[], documents: Array<{ document_id: string }>): Found {
  return { event: { type, changes, documents }, updates: updatesOf(changes) };
}

/** The policy closest to its expiry renews for another term at a new premium (up or down, or up when `increase`). */
function renewal(random: Random, pull: SandboxPull, increase = false): Found | null {
  const policies = list(pull.policies).filter((p) => typeof p.expiry_date === "string");
  const policy = policies.sort((a, b) => String(a.expiry_date).localeCompare(String(b.expiry_date)))[0];
  if (!policy) return null;
  const oldExpiry = Date.parse(String(policy.expiry_date));
  const term = Math.max(30 * DAY_MS, oldExpiry - Date.parse(String(policy.effective_date)));
  const oldPremium = num(policy.total_premium_cents);
  const factor = increase || random.chance(0.7) ? 1 + random.int(3, 14) / 100 : 1 - random.int(2, 8) / 100;
  const before = {
    total_premium_cents: oldPremium,
    effective_date: policy.effective_date,
    expiry_date: policy.expiry_date,
    renewal_date: policy.renewal_date,
    amount_paid_cents: policy.amount_paid_cents,
    amount_due_cents: policy.amount_due_cents,
    paid_in_full: policy.paid_in_full,
  };
  const premium = Math.round(oldPremium * factor);
  const after = {
    total_premium_cents: premium,
    effective_date: calendar(oldExpiry),
    expiry_date: calendar(oldExpiry + term),
    renewal_date: calendar(oldExpiry + term),
    amount_paid_cents: 0,
    amount_due_cents: premium,
    paid_in_full: false,
  };
  Object.assign(policy, after);
  return found(
    "RENEWAL",
    [update("POLICY", { policy_id: policy.policy_id, ...before }, { policy_id: policy.policy_id, ...after })],
    documentsOf(pull, policy.policy_id),
  );
}

const NEW_CARS = [
  ["Kia", "Telluride", "EX"],
  ["Mazda", "CX-5", "Touring"],
  ["Toyota", "RAV4", "XLE"],
  ["Honda", "Civic", "Sport"],
] as const;

/** The consumer adds a car to the auto policy: same coverages and drivers, a higher premium. */
function vehicleAdded(random: Random, pull: SandboxPull, now: Date): Found | null {
  const policy = list(pull.policies).find((p) => p.policy_type === "AUTO" && list(p.vehicles).length > 0);
  const model = list(policy?.vehicles)[0];
  if (!policy || !model) return null;
  const [make, name, series] = random.pick(NEW_CARS);
  const vehicle: Obj = {
    ...renewIds(random, model).value,
    year: random.int(now.getUTCFullYear() - 3, now.getUTCFullYear() + 1),
    make,
    model: name,
    series,
    vin: vin(random),
    purchase_date: new Date(now.getTime() - random.int(3, 20) * DAY_MS).toISOString(),
    current_mileage: random.int(5, 900),
    ownership_type: "FINANCE",
  };
  const added = list(vehicle.coverages).reduce((sum, c) => sum + num(c.premium_cents), 0);
  const before = {
    policy_id: policy.policy_id,
    total_premium_cents: policy.total_premium_cents,
    amount_due_cents: policy.amount_due_cents,
  };
  policy.vehicles = [...list(policy.vehicles), vehicle];
  policy.total_premium_cents = num(policy.total_premium_cents) + added;
  policy.amount_due_cents = num(policy.amount_due_cents) + added;
  policy.paid_in_full = false;
  const { coverages: _coverages, drivers: _drivers, ...vehicleRow } = vehicle;
  return found(
    "ENDORSEMENT",
    [
      { schema: "VEHICLE", type: "CREATE", before: null, after: { ...vehicleRow, policy_id: policy.policy_id } },
      ...list(vehicle.coverages).map((c): Change => ({
        schema: "VEHICLECOVERAGE",
        type: "CREATE",
        before: null,
        after: { ...c, vehicle_id: vehicle.vehicle_id },
      })),
      update("POLICY", before, {
        policy_id: policy.policy_id,
        total_premium_cents: policy.total_premium_cents,
        amount_due_cents: policy.amount_due_cents,
        paid_in_full: false,
      }),
    ],
    documentsOf(pull, policy.policy_id),
  );
}

/** A deductible changes: collision on the first car, or else the dwelling limit (inflation guard). */
function coverageChanged(random: Random, pull: SandboxPull): Found | null {
  for (const policy of list(pull.policies)) {
    for (const vehicle of list(policy.vehicles)) {
      const coverage = list(vehicle.coverages).find((c) => c.name === "COLL" || c.name === "COMP");
      if (!coverage) continue;
      const before = {
        vehicle_coverage_id: coverage.vehicle_coverage_id,
        deductible_cents: coverage.deductible_cents,
        premium_cents: coverage.premium_cents,
      };
      const raised = num(coverage.deductible_cents) < 100_000;
      coverage.deductible_cents = raised ? 100_000 : 50_000;
      coverage.premium_cents = Math.max(1000, Math.round(num(coverage.premium_cents) * (raised ? 0.85 : 1.18)));
      const after = {
        vehicle_coverage_id: coverage.vehicle_coverage_id,
        deductible_cents: coverage.deductible_cents,
        premium_cents: coverage.premium_cents,
      };
      return found("ENDORSEMENT", [update("VEHICLECOVERAGE", before, after)], documentsOf(pull, policy.policy_id));
    }
    for (const dwelling of list(policy.dwellings)) {
      const coverage = list(dwelling.coverages).find((c) => typeof c.per_incident_limit_cents === "number");
      if (!coverage) continue;
      const before = {
        dwelling_coverage_id: coverage.dwelling_coverage_id,
        per_incident_limit_cents: coverage.per_incident_limit_cents,
      };
      coverage.per_incident_limit_cents =
        Math.round((num(coverage.per_incident_limit_cents) * (1 + random.int(3, 6) / 100)) / 100_000) * 100_000;
      return found(
        "ENDORSEMENT",
        [
          update("DWELLINGCOVERAGE", before, {
            dwelling_coverage_id: coverage.dwelling_coverage_id,
            per_incident_limit_cents: coverage.per_incident_limit_cents,
          }),
        ],
        documentsOf(pull, policy.policy_id),
      );
    }
  }
  return null;
}

/** The consumer reports a loss on the first policy. */
function claimOpened(random: Random, pull: SandboxPull, now: Date): Found | null {
  const policy = list(pull.policies)[0];
  if (!policy) return null;
  const auto = policy.policy_type === "AUTO";
  const vehicle = list(policy.vehicles)[0];
  const claim = {
    claim_id: random.uuid(),
    policy_id: policy.policy_id,
    dwelling_id: auto ? null : (list(policy.dwellings)[0]?.dwelling_id ?? null),
    vehicle_id: auto ? (vehicle?.vehicle_id ?? null) : null,
    driver_id: null,
    address_id: null,
    carrier_claim_identifier: `CLM-${random.digits(8)}`,
    date_occurred: new Date(now.getTime() - random.int(2, 20) * DAY_MS).toISOString(),
    date_closed: null,
    type: auto
      ? random.pick(["CAR_ACCIDENT", "WINDSHIELD_DAMAGE"])
      : random.pick(["WATER_DAMAGE_AND_FREEZING", "WIND_AND_HAIL_DAMAGE"]),
    status: "OPEN",
    payout_cents: null,
    representative_name: "Dana Fields",
    representative_phone: `+1800${random.digits(7)}`,
    representative_email: "claims@example.com",
  };
  pull.claims = [...list(pull.claims), claim];
  pull.no_claims = false;
  return found("CLAIM_OPENED", [{ schema: "CLAIM", type: "CREATE", before: null, after: claim }], []);
}

const LENDERS = ["Rocket Mortgage", "Chase Home Lending", "Guild Mortgage", "PennyMac Loan Services"];

/** A (new) mortgage lender is added to the first dwelling, as after a refinance. */
function mortgageeAdded(random: Random, pull: SandboxPull): Found | null {
  for (const policy of list(pull.policies)) {
    const dwelling = list(policy.dwellings)[0];
    if (!dwelling) continue;
    const before = list(dwelling.mortgagees);
    const taken = new Set(before.map((m) => m.name));
    const mortgagee = {
      mortgagee_id: random.uuid(),
      name: LENDERS.find((l) => !taken.has(l)) ?? "First Federal Savings",
      loan_number: random.digits(10),
      address: address(random, "MORTGAGEE"),
    };
    dwelling.mortgagees = [...before, mortgagee];
    return found(
      "ENDORSEMENT",
      [
        update(
          "DWELLING",
          { dwelling_id: dwelling.dwelling_id, mortgagees: before },
          { dwelling_id: dwelling.dwelling_id, mortgagees: dwelling.mortgagees },
        ),
      ],
      documentsOf(pull, policy.policy_id),
    );
  }
  return null;
}

/** The carrier cancels an active policy (non-payment, say): its status and cancellation date change. */
function policyCancelled(pull: SandboxPull, now: Date): Found | null {
  const policy = list(pull.policies).find((p) => p.status === "ACTIVE");
  if (!policy) return null;
  const before = {
    status: policy.status,
    canceled_date: policy.canceled_date ?? null,
    renewal_date: policy.renewal_date,
  };
  const after = { status: "CANCELLED", canceled_date: calendar(now.getTime()), renewal_date: null };
  Object.assign(policy, after);
  return found(
    "CANCELED",
    [update("POLICY", { policy_id: policy.policy_id, ...before }, { policy_id: policy.policy_id, ...after })],
    documentsOf(pull, policy.policy_id),
  );
}

/**
 * The account as a refresh finds it: `previous` under the new pull id with fresh ids, and the
 * first change of `kinds` that fits the account (none when it fits none, e.g. no policies).
 */
export function refreshedPull(
  random: Random,
  previous: SandboxPull,
  pullId: string,
  now: Date,
  kinds: readonly ChangeKind[],
): { pull: SandboxPull; event: MonitoringEvent | null; updates: Obj[] } {
  const pull = renewIds(random, previous, new Map([[previous.pull_id, pullId]])).value;
  Object.assign(pull, {
    pull_id: pullId,
    status: "SUCCESS",
    created_at: now.toISOString(),
    is_archived: false,
    parent_pull_id: null,
  });
  const apply: Record<ChangeKind, () => Found | null> = {
    renewal: () => renewal(random, pull),
    renewal_increase: () => renewal(random, pull, true),
    vehicle_added: () => vehicleAdded(random, pull, now),
    coverage_changed: () => coverageChanged(random, pull),
    claim_opened: () => claimOpened(random, pull, now),
    mortgagee_added: () => mortgageeAdded(random, pull),
    policy_cancelled: () => policyCancelled(pull, now),
  };
  for (const kind of kinds) {
    const change = apply[kind]();
    if (change) return { pull, event: change.event, updates: change.updates };
  }
  return { pull, event: null, updates: [] };
}
