import { formatCalendarDate, formatCents, humanize } from "@/lib/format";
import { annualPremiumOf } from "@/lib/pulls/household";
import { describeChanges, vehicleKey, vehicleName } from "@/lib/monitoring/describe-changes";
import type { Policy, Pull } from "@/lib/service/schemas";
import { DEFAULT_JUMP_THRESHOLDS, type JumpThresholds } from "@/lib/rules/jump-thresholds";

// What a refresh of an account means for its agent, in words: a renewal premium up by more
// than the agency's threshold for that line, a policy cancelled or lapsed, a coverage cut. Pure:
// storing a pull calls it with the account's previous snapshot; tests feed it odd payloads.
// Each alert carries a key made of what it is about (the policy, the term, the figure), so a
// redelivered or reprocessed refresh finds its alert already raised and raises nothing.

/** SPEED_TO_LEAD is raised by lib/workflow/speed-to-lead.ts (a new pull left untouched), not by a refresh. */
export const ALERT_KINDS = ["PREMIUM_JUMP", "CANCELLED", "LAPSED", "COVERAGE_CUT", "SPEED_TO_LEAD"] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export type AlertCandidate = {
  kind: AlertKind;
  /** Stable for the same finding: the account, the policy and what was found about it. */
  key: string;
  headline: string;
  /** Everything else the refresh changed, for the agent to read beside the headline. */
  details: string[];
  policyId: string;
  /** Annual premium before and after, where the finding is about money. */
  beforeCents: number | null;
  afterCents: number | null;
};

const CANCELLED = new Set(["CANCELLED", "RESCINDED"]);
const policyKey = (p: Policy) => p.carrier_policy_number ?? p.policy_id;
const carrierOf = (p: Policy) => p.carrier_friendly_name ?? p.carrier_name ?? "The carrier";
const lineOf = (p: Policy) => humanize(p.policy_type ?? "POLICY").toLowerCase();
const nameOf = (p: Policy) => `${carrierOf(p)} ${lineOf(p)}`;

/** A term's premium over a year, so a six-month renewal compares with a twelve-month term. */
const annual = annualPremiumOf; // the carrier's annual estimate first, as the household counts it

function day(iso: string | null): string | null {
  return iso && /^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10) : null;
}

function premiumJump(before: Policy, after: Policy, thresholds: JumpThresholds, today: string): AlertCandidate | null {
  const a = annual(before);
  const b = annual(after);
  if (a === null || b === null || b <= a) return null;
  const percent = ((b - a) / a) * 100;
  const threshold = thresholds[after.policy_type ?? ""] ?? thresholds.default;
  if (percent <= threshold) return null;
  // The day the new premium applies: the renewal's effective date, else the new term's start.
  const renewal =
    day(after.renewal_date) ?? (after.expiry_date !== before.expiry_date ? day(after.effective_date) : null);
  const when = renewal
    ? `${renewal >= today ? "renews" : "renewed"} on ${formatCalendarDate(renewal)}`
    : "premium is now";
  const termPremium = after.total_premium_cents ?? b;
  return {
    kind: "PREMIUM_JUMP",
    key: ["PREMIUM_JUMP", policyKey(after), day(after.expiry_date) ?? "", String(b)].join("|"),
    headline: `${nameOf(after)} ${when}${renewal ? " at" : ""} ${formatCents(termPremium)}, up ${Math.round(percent)}% (${formatCents(b - a)} a year)`,
    details: [],
    policyId: after.policy_id,
    beforeCents: a,
    afterCents: b,
  };
}

function cancelled(before: Policy, after: Policy): AlertCandidate | null {
  if (!after.status || !CANCELLED.has(after.status) || (before.status && CANCELLED.has(before.status))) return null;
  const on = day(after.canceled_date);
  return {
    kind: "CANCELLED",
    key: ["CANCELLED", policyKey(after), on ?? after.status].join("|"),
    headline: `${nameOf(after)} was ${after.status === "RESCINDED" ? "rescinded" : "cancelled"}${on ? ` on ${formatCalendarDate(on)}` : ""}`,
    details: [],
    policyId: after.policy_id,
    beforeCents: annual(before),
    afterCents: null,
  };
}

/**
 * In force before; now expired, or gone from the account, with no policy of the same line in
 * force in its place (a renewal under a new policy number is not a lapse).
 */
function lapsed(before: Policy, after: Policy | undefined, account: Pull, today: string): AlertCandidate | null {
  if (before.status && (CANCELLED.has(before.status) || before.status === "EXPIRED")) return null;
  if (after && after.status !== "EXPIRED") return null;
  const replaced = account.policies.some(
    (p) => p !== after && p.policy_type === before.policy_type && (!p.status || p.status === "ACTIVE"),
  );
  if (replaced) return null;
  const expiry = day(after?.expiry_date ?? before.expiry_date);
  if (after && expiry && expiry >= today) return null; // marked expired ahead of its date: wait for the date
  return {
    kind: "LAPSED",
    key: ["LAPSED", policyKey(before), expiry ?? ""].join("|"),
    headline: after
      ? `${nameOf(before)} lapsed${expiry ? ` on ${formatCalendarDate(expiry)}` : ""} with no renewal`
      : `${nameOf(before)} is no longer on the account${expiry ? ` (it ran to ${formatCalendarDate(expiry)})` : ""}`,
    details: [],
    policyId: before.policy_id,
    beforeCents: annual(before),
    afterCents: null,
  };
}

/** Limits lowered, coverages removed or newly declined, on the vehicles both terms cover. */
function coverageCuts(before: Policy, after: Policy): string[] {
  const cuts: string[] = [];
  const priorVehicles = new Map(before.vehicles.map((v) => [vehicleKey(v), v]));
  for (const vehicle of after.vehicles) {
    const prior = priorVehicles.get(vehicleKey(vehicle));
    if (!prior) continue;
    const now = new Map(vehicle.coverages.map((c) => [c.friendly_name ?? c.name ?? "", c]));
    for (const old of prior.coverages) {
      const name = old.friendly_name ?? old.name ?? "";
      if (!name || old.is_declined) continue;
      const current = now.get(name);
      const label = old.friendly_name ?? humanize(old.name);
      if (!current) cuts.push(`${label} removed from the ${vehicleName(vehicle)}`);
      else if (current.is_declined) cuts.push(`${label} declined on the ${vehicleName(vehicle)}`);
      else
        for (const field of ["per_person_limit_cents", "per_incident_limit_cents"] as const) {
          const a = old[field];
          const b = current[field];
          if (a !== null && b !== null && b < a)
            cuts.push(
              `${label} ${field === "per_person_limit_cents" ? "per-person" : "per-incident"} limit lowered from ${formatCents(a)} to ${formatCents(b)} on the ${vehicleName(vehicle)}`,
            );
        }
    }
  }
  const coverages = (p: Policy) =>
    new Map(
      p.dwellings.flatMap((d) =>
        d.coverages.filter((c) => !c.is_declined).map((c) => [`${c.friendly_name ?? c.name}`, c] as const),
      ),
    );
  const priorHome = coverages(before);
  const home = coverages(after);
  for (const [name, old] of priorHome) {
    const current = home.get(name);
    if (!current) cuts.push(`${name} removed from the home`);
    else if (
      old.per_incident_limit_cents !== null &&
      current.per_incident_limit_cents !== null &&
      current.per_incident_limit_cents < old.per_incident_limit_cents
    )
      cuts.push(
        `${name} lowered from ${formatCents(old.per_incident_limit_cents)} to ${formatCents(current.per_incident_limit_cents)}`,
      );
  }
  return cuts;
}

function coverageCut(before: Policy, after: Policy): AlertCandidate | null {
  const cuts = coverageCuts(before, after);
  if (cuts.length === 0) return null;
  return {
    kind: "COVERAGE_CUT",
    key: ["COVERAGE_CUT", policyKey(after), ...cuts].join("|"),
    headline: `${nameOf(after)}: ${cuts[0]}${cuts.length > 1 ? ` and ${cuts.length - 1} more cut${cuts.length > 2 ? "s" : ""}` : ""}`,
    details: cuts.slice(1),
    policyId: after.policy_id,
    beforeCents: null,
    afterCents: null,
  };
}

/**
 * The alerts a refresh raises, comparing the account's previous snapshot with the new one.
 * `account` prefixes every key (the account identifier, else the first pull's id); `today` is
 * an ISO day, so the words "renews" and "renewed" are right on the day they are read.
 */
export function detectAlerts(
  before: Pull,
  after: Pull,
  {
    account,
    today,
    thresholds = DEFAULT_JUMP_THRESHOLDS,
  }: { account: string; today: string; thresholds?: JumpThresholds },
): AlertCandidate[] {
  const candidates: AlertCandidate[] = [];
  const current = new Map(after.policies.map((p) => [policyKey(p), p]));
  for (const prior of before.policies) {
    const now = current.get(policyKey(prior));
    const found = now
      ? (cancelled(prior, now) ?? lapsed(prior, now, after, today) ?? premiumJump(prior, now, thresholds, today))
      : lapsed(prior, undefined, after, today);
    if (found) candidates.push(found);
    if (now && (!found || found.kind === "PREMIUM_JUMP")) {
      const cut = coverageCut(prior, now);
      if (cut) candidates.push(cut);
    }
  }
  if (candidates.length === 0) return [];
  // What else changed, from the account history's own words, beside each alert.
  const changes = describeChanges(before, after);
  return candidates.map((c) => ({ ...c, key: `${account}|${c.key}`, details: [...c.details, ...changes] }));
}
