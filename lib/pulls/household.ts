import type { Dwelling, Policy, Pull, Vehicle } from "@/lib/service/schemas";

// The household a pull describes, as an agent reads it first: the policies a line each with the
// premium they cost in a year, and the vehicles, drivers and homes they cover. Pure: the pull
// page renders it, and tests feed it odd payloads (missing dates, zero or missing premiums).

/** Policies that no longer (or do not yet) cost the household anything. */
const NOT_IN_FORCE = new Set(["CANCELLED", "RESCINDED", "EXPIRED", "QUOTE"]);

export type HouseholdPolicy = {
  policy: Policy;
  /** Length of the term in whole months, from its dates; null when they are missing or odd. */
  termMonths: number | null;
  /** The premium over a year: the term's premium scaled by its length (a six-month term doubles). */
  annualCents: number | null;
  inForce: boolean;
};

export type Household = {
  policies: HouseholdPolicy[];
  /** Sum over the policies in force that state a premium; null when none does. */
  totalAnnualCents: number | null;
  /** Policies in force whose premium is unknown, so the total leaves them out. */
  unpricedInForce: number;
  vehicles: Array<{ vehicle: Vehicle; policy: Policy }>;
  dwellings: Array<{ dwelling: Dwelling; policy: Policy }>;
  drivers: Pull["drivers"];
  /** The account holder's own address: mailing first, else the first the carrier lists. */
  address: Pull["addresses"][number] | null;
};

const DAY_MS = 86_400_000;

/** Whole months between two ISO dates; terms of 5–7 months read as six, 11–13 as twelve. */
export function termMonthsOf(effective: string | null, expiry: string | null): number | null {
  if (!effective || !expiry) return null;
  const days = (Date.parse(expiry.slice(0, 10)) - Date.parse(effective.slice(0, 10))) / DAY_MS;
  if (!Number.isFinite(days) || days < 20 || days > 800) return null;
  const months = Math.round(days / 30.44);
  if (months >= 5 && months <= 7) return 6;
  if (months >= 11 && months <= 13) return 12;
  return months;
}

function annualOf(policy: Policy, termMonths: number | null): number | null {
  // The carrier's own annual estimate wins over arithmetic on the term.
  if (policy.total_estimated_annual_premium_cents !== null && policy.total_estimated_annual_premium_cents > 0)
    return policy.total_estimated_annual_premium_cents;
  const premium = policy.total_premium_cents;
  if (premium === null || premium <= 0) return null;
  if (termMonths === null || termMonths > 12) return premium;
  return Math.round((premium * 12) / termMonths);
}

/** A policy's premium over a year, as the household, the X-dates and the alerts all count it. */
export function annualPremiumOf(policy: Policy): number | null {
  return annualOf(policy, termMonthsOf(policy.effective_date, policy.expiry_date));
}

export function householdOf(pull: Pull): Household {
  const policies = pull.policies.map((policy): HouseholdPolicy => {
    const termMonths = termMonthsOf(policy.effective_date, policy.expiry_date);
    return {
      policy,
      termMonths,
      annualCents: annualOf(policy, termMonths),
      inForce: !NOT_IN_FORCE.has(policy.status ?? ""),
    };
  });
  const inForce = policies.filter((p) => p.inForce);
  const priced = inForce.filter((p) => p.annualCents !== null);
  return {
    policies,
    totalAnnualCents: priced.length > 0 ? priced.reduce((sum, p) => sum + (p.annualCents ?? 0), 0) : null,
    unpricedInForce: inForce.length - priced.length,
    vehicles: pull.policies.flatMap((policy) => policy.vehicles.map((vehicle) => ({ vehicle, policy }))),
    dwellings: pull.policies.flatMap((policy) => policy.dwellings.map((dwelling) => ({ dwelling, policy }))),
    drivers: pull.drivers,
    address:
      pull.addresses.find((a) => a.address_nature === "MAILING") ??
      pull.addresses.find((a) => a.address_nature === "PHYSICAL") ??
      pull.addresses[0] ??
      null,
  };
}
