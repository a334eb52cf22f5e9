import { formatCalendarDate, formatLimit, humanize } from "@/lib/format";

// A deal that came back (lib/workflow/deal-returns.ts), in words and keys. Pure: the job, the
// storing transaction and the tests build the same headline and the same unique key from the
// same facts, so running the job twice (or on two instances) finds its key already taken.

export const DEAL_RETURN_KINDS = ["RECYCLED", "WIN_BACK"] as const;
export type DealReturnKind = (typeof DEAL_RETURN_KINDS)[number];

export const DEAL_RETURN_KIND_LABELS: Record<DealReturnKind, string> = {
  RECYCLED: "Lost deal, X-date near",
  WIN_BACK: "Client lost at a refresh",
};

/** A stored kind in words; an unknown one as it was stored. */
export function dealReturnKindLabel(kind: string): string {
  return (DEAL_RETURN_KIND_LABELS as Record<string, string>)[kind] ?? humanize(kind);
}

/** One return per account and X-date: next year's X-date is news again, this year's never twice. */
export function recycledKey(account: string, xDate: string): string {
  return `RECYCLED:${account}:${xDate}`;
}

/** One return per account, policies lost and refresh: a redelivered refresh finds it taken. */
export function winBackKey(account: string, policyKeys: string[], refreshPullId: string): string {
  return `WIN_BACK:${account}:${[...policyKeys].sort().join("+")}:${refreshPullId}`;
}

/** "$1,480": headlines round to the dollar; the cards show the cents. */
const dollars = (cents: number) => formatLimit(Math.round(cents / 100) * 100);

const monthOf = (at: Date, today: string) =>
  new Intl.DateTimeFormat("en-US", {
    month: "long",
    // The year only when it is not this one: "Lost in March" reads better than "March 2026".
    ...(at.toISOString().slice(0, 4) === today.slice(0, 4) ? {} : { year: "numeric" }),
    timeZone: "UTC",
  }).format(at);

const ON_CATEGORY: Record<string, string> = {
  PRICE: "on price",
  COVERAGE: "on coverage",
  SERVICE: "on service",
  NO_CONTACT: "after no contact",
};

/** "Progressive auto", "Their homeowners", "The policy". */
function policyName(carrierLabel: string | null, policyType: string | null): string {
  const line = policyType ? humanize(policyType).toLowerCase() : "policy";
  return carrierLabel ? `${carrierLabel} ${line}` : policyType ? `Their ${line}` : "The policy";
}

export type RecycledFacts = {
  lostAt: Date | null;
  lostCategory: string | null;
  lostToCarrier: string | null;
  premiumThenCents: number | null;
  carrierLabel: string | null;
  policyType: string | null;
  xDate: string;
  renewalPremiumCents: number | null;
  /** ISO day the headline is written on. */
  today: string;
};

/** "Lost in March to GEICO on price ($1,480); Progressive auto renews Mar 14, 2027 at $2,412". */
export function recycledHeadline(f: RecycledFacts): string {
  const lost = [
    f.lostAt && !Number.isNaN(f.lostAt.getTime()) ? `Lost in ${monthOf(f.lostAt, f.today)}` : "Lost",
    f.lostToCarrier ? `to ${f.lostToCarrier}` : null,
    f.lostCategory ? (ON_CATEGORY[f.lostCategory] ?? null) : null,
    f.premiumThenCents !== null && f.premiumThenCents > 0 ? `(${dollars(f.premiumThenCents)})` : null,
  ].filter((part): part is string => Boolean(part));
  const renews = `${policyName(f.carrierLabel, f.policyType)} renews ${formatCalendarDate(f.xDate)}`;
  const at = f.renewalPremiumCents !== null && f.renewalPremiumCents > 0 ? ` at ${dollars(f.renewalPremiumCents)}` : "";
  return `${lost.join(" ")}; ${renews}${at}`;
}

export type WinBackLoss = {
  /** The carrier's policy number, else the policy id: what a policy is known by across refreshes. */
  policyKey: string;
  policyType: string | null;
  carrierLabel: string | null;
  change: "CANCELLED" | "RESCINDED" | "MOVED";
  /** MOVED: the carrier it is with now. */
  toCarrier: string | null;
  /** CANCELLED or RESCINDED: the day, when the carrier sent one. */
  on: string | null;
  /** Its premium over a year before the refresh. */
  annualCents: number | null;
};

function lossWords(loss: WinBackLoss): string {
  const name = policyName(loss.carrierLabel, loss.policyType);
  if (loss.change === "MOVED") {
    const line = loss.policyType ? humanize(loss.policyType).toLowerCase() : "policy";
    return `${loss.carrierLabel ? `${line} moved from ${loss.carrierLabel}` : `${line} moved`} to ${loss.toCarrier ?? "another carrier"}`;
  }
  const verb = loss.change === "RESCINDED" ? "was rescinded" : "was cancelled";
  return `${name} ${verb}${loss.on ? ` on ${formatCalendarDate(loss.on)}` : ""}`;
}

/** "Won in January at $1,843; Progressive auto was cancelled on Nov 20, 2026 (and 1 more)". */
export function winBackHeadline(f: {
  wonAt: Date | null;
  wonPremiumCents: number | null;
  losses: WinBackLoss[];
  today: string;
}): string {
  const won = [
    f.wonAt && !Number.isNaN(f.wonAt.getTime()) ? `Won in ${monthOf(f.wonAt, f.today)}` : "Won",
    f.wonPremiumCents !== null && f.wonPremiumCents > 0 ? `at ${dollars(f.wonPremiumCents)}` : null,
  ].filter((part): part is string => Boolean(part));
  const [first, ...rest] = f.losses;
  const lost = first ? lossWords(first) : "the refresh shows the policy gone";
  return `${won.join(" ")}; ${lost}${rest.length > 0 ? ` (and ${rest.length} more)` : ""}`;
}
