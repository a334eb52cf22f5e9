import { annualPremiumOf } from "@/lib/pulls/household";
import type { Policy, Pull } from "@/lib/service/schemas";
import type { WinBackLoss } from "./deal-return-words";

// Whether a won client's refresh shows the business gone: a policy in force before is now
// cancelled or rescinded, or its line is now with another carrier. Pure, so odd payloads are
// tested without a database. A lapse with nothing in its place is the alerts' business
// (lib/alerts/detect.ts), not a win-back: the client may simply renew late.

const CANCELLED = new Set(["CANCELLED", "RESCINDED"]);
const NOT_IN_FORCE = new Set(["CANCELLED", "RESCINDED", "EXPIRED", "QUOTE"]);

const policyKey = (p: Policy) => p.carrier_policy_number ?? p.policy_id;
const inForce = (p: Policy) => !NOT_IN_FORCE.has(p.status ?? "");
const carrierLabel = (p: Policy) => p.carrier_friendly_name ?? p.carrier_name ?? null;
/** Carriers compared by identifier where both have one, else by the name people read. */
const carrierId = (p: Policy) => (p.carrier_name ?? p.carrier_friendly_name ?? "").trim().toLowerCase();
const day = (iso: string | null) => (iso && /^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10) : null);

function lossOf(prior: Policy, change: WinBackLoss["change"], extra: Partial<WinBackLoss> = {}): WinBackLoss {
  return {
    policyKey: policyKey(prior),
    policyType: prior.policy_type,
    carrierLabel: carrierLabel(prior),
    change,
    toCarrier: null,
    on: null,
    annualCents: annualPremiumOf(prior),
    ...extra,
  };
}

/** The policies a refresh shows lost, comparing the account's previous snapshot with it. */
export function detectWinBack(before: Pull, after: Pull): WinBackLoss[] {
  const now = new Map(after.policies.map((p) => [policyKey(p), p]));
  const losses: WinBackLoss[] = [];
  const seen = new Set<string>();
  for (const prior of before.policies) {
    const key = policyKey(prior);
    if (seen.has(key) || !inForce(prior) || !carrierId(prior)) continue;
    seen.add(key);
    const current = now.get(key);
    if (current?.status && CANCELLED.has(current.status)) {
      losses.push(
        lossOf(prior, current.status === "RESCINDED" ? "RESCINDED" : "CANCELLED", { on: day(current.canceled_date) }),
      );
      continue;
    }
    // The same policy under another carrier, or its line now in force with another carrier
    // while this policy is gone or no longer in force.
    const stillHere = current && inForce(current) && carrierId(current) === carrierId(prior);
    if (stillHere) continue;
    const elsewhere =
      current && inForce(current) && carrierId(current) && carrierId(current) !== carrierId(prior)
        ? current
        : after.policies.find(
            (p) =>
              p.policy_type === prior.policy_type &&
              inForce(p) &&
              carrierId(p) !== "" &&
              carrierId(p) !== carrierId(prior) &&
              !before.policies.some((b) => policyKey(b) === policyKey(p)),
          );
    if (elsewhere) losses.push(lossOf(prior, "MOVED", { toCarrier: carrierLabel(elsewhere) }));
  }
  // The largest premium first: it names the return.
  return losses.sort((a, b) => (b.annualCents ?? -1) - (a.annualCents ?? -1) || a.policyKey.localeCompare(b.policyKey));
}
