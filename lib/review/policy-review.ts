import { isKnownValue, POLICY_STATUSES, POLICY_TYPES, type Policy } from "@/lib/service/schemas";
import { AUTO_LINES } from "./auto-liability";
import { findingKey, type Finding, type ReviewContext } from "./finding";
import { calendarDay, clip, dayOf, daysBetween, lineLabel, plural, policyLabel } from "./finding-words";

// The rules of every line: a policy expiring within the renewal lead time, one cancelled (or
// about to be), a lapse between terms; and what the carrier left out or sent oddly (no premium,
// no line of business, a status nobody documented, limited access), which makes the other
// rules' silence mean "could not tell" rather than "all well".

const GONE = new Set(["CANCELLED", "RESCINDED"]);
const NOT_IN_FORCE = new Set(["CANCELLED", "RESCINDED", "EXPIRED", "QUOTE"]);
const inForce = (p: Policy) => !NOT_IN_FORCE.has(p.status ?? "");
/** Lines with no end date by nature (whole and universal life, …): a missing expiry is no news. */
const OPEN_ENDED = new Set(["LIFE", "WHOLE_LIFE", "UNIVERSAL_LIFE", "LONG_TERM_CARE", "PET"]);
const HOME_LIKE = new Set(["HOMEOWNERS", "CONDO", "RENTERS", "LANDLORD", "MOBILE_HOME", "FARMOWNER", "FIRE", "FLOOD"]);

const base = (context: ReviewContext, policy: Policy, rule: Finding["rule"], ...more: string[]) => ({
  key: findingKey(rule, context.policyKey(policy), ...more),
  rule,
  line: policy.policy_type ?? "OTHER",
});

/** Another policy of the same line in force on the account: the cover went on under a new policy. */
const replacementOf = (context: ReviewContext, policy: Policy) =>
  context.pull.policies.find((p) => p !== policy && p.policy_type === policy.policy_type && inForce(p));

function expiring(context: ReviewContext, policy: Policy): Finding | null {
  if (!inForce(policy)) return null;
  const expiry = dayOf(policy.expiry_date);
  if (!expiry) return null;
  const days = daysBetween(context.today, expiry);
  const renewal = dayOf(policy.renewal_date);
  if (days < 0)
    return {
      ...base(context, policy, "policy-expiring", expiry),
      severity: "unknown",
      title: "Term ended, yet listed in force",
      detail: `${policyLabel(policy)} ended its term on ${calendarDay(expiry)} (${plural(-days, "day")} ago) but the carrier still lists it as ${policy.status ? clip(policy.status).toLowerCase().replace(/_/g, " ") : "in force"}: this pull may predate its renewal.`,
      nextStep: "Refresh the account, or ask the client for the current declarations page.",
    };
  if (days > context.settings.leadTimeDays) return null;
  return {
    ...base(context, policy, "policy-expiring", expiry),
    severity: "warning",
    title: days === 0 ? "Expires today" : `Expires in ${plural(days, "day")}`,
    detail: `${policyLabel(policy)} expires on ${calendarDay(expiry)}${renewal && renewal >= expiry ? `; the carrier shows a renewal from ${calendarDay(renewal)}` : ""}. That is within the agency's renewal lead time of ${plural(context.settings.leadTimeDays, "day")}.`,
    nextStep: "Review the renewal offer with the client, and quote alternatives before the X-date.",
  };
}

function cancelled(context: ReviewContext, policy: Policy): Finding | null {
  const status = policy.status ?? "";
  const on = dayOf(policy.canceled_date);
  if (status === "PENDING_CANCELLATION")
    return {
      ...base(context, policy, "policy-cancelled", "pending"),
      severity: "warning",
      title: "Pending cancellation",
      detail: `The carrier is about to cancel ${policyLabel(policy)}${on ? ` on ${calendarDay(on)}` : ""}.`,
      nextStep: "Call the client today: find out why (a missed payment?) and keep the cover from ending.",
    };
  if (!GONE.has(status)) return null;
  const replacement = replacementOf(context, policy);
  const verb = status === "RESCINDED" ? "rescinded" : "cancelled";
  return {
    ...base(context, policy, "policy-cancelled", on ?? status),
    severity: replacement ? "warning" : "gap",
    title: replacement
      ? `Cancelled ${lineLabel(policy.policy_type).toLowerCase()} policy`
      : `${lineLabel(policy.policy_type)} policy ${verb}, none in force`,
    detail: `${policyLabel(policy)} was ${verb}${on ? ` on ${calendarDay(on)}` : ""}.${replacement ? ` ${policyLabel(replacement)} is in force for the same line.` : " No other policy of this line is in force on the account."}`,
    nextStep: replacement
      ? "Check that the new policy carries the same cover, and note why the old one ended."
      : "Ask whether the client has replaced it elsewhere; if not, quote the line now.",
  };
}

type Term = { policy: Policy; start: string; end: string };

/** Days the line went without cover: between one term's end and the next start, on the account or in the renewal date. */
function lapses(context: ReviewContext): Finding[] {
  const findings: Finding[] = [];
  const byLine = new Map<string, Term[]>();
  for (const policy of context.pull.policies) {
    if (policy.status === "QUOTE" || !policy.policy_type) continue;
    const start = dayOf(policy.effective_date);
    const end = (GONE.has(policy.status ?? "") ? dayOf(policy.canceled_date) : null) ?? dayOf(policy.expiry_date);
    if (!start || !end || end < start) continue;
    byLine.set(policy.policy_type, [...(byLine.get(policy.policy_type) ?? []), { policy, start, end }]);
    const renewal = dayOf(policy.renewal_date);
    const gap = renewal && !GONE.has(policy.status ?? "") ? daysBetween(end, renewal) : 0;
    if (renewal && gap > 1)
      findings.push({
        ...base(context, policy, "policy-lapse", end),
        severity: "gap",
        title: "A lapse between terms",
        detail: `${policyLabel(policy)} ends on ${calendarDay(end)} and its renewal starts on ${calendarDay(renewal)}: ${plural(gap, "day")} without cover.`,
        nextStep: "Ask the carrier to date the renewal from the end of the term, or bind cover for the days between.",
      });
  }
  for (const terms of byLine.values()) {
    terms.sort((a, b) => a.start.localeCompare(b.start));
    let covered = terms[0]?.end ?? "";
    let last = terms[0];
    for (const term of terms.slice(1)) {
      const gap = daysBetween(covered, term.start);
      if (gap > 1 && last)
        findings.push({
          ...base(context, term.policy, "policy-lapse", term.start),
          severity: "gap",
          title: "A lapse between terms",
          detail: `${lineLabel(term.policy.policy_type)} cover ended on ${calendarDay(covered)} (${policyLabel(last.policy)}) and started again on ${calendarDay(term.start)} (${policyLabel(term.policy)}): ${plural(gap, "day")} without cover.`,
          nextStep: "Note the lapse: carriers price a break in cover, and a claim in those days was not covered.",
        });
      if (term.end > covered) {
        covered = term.end;
        last = term;
      }
    }
  }
  // Expired with nothing in its place: the line has lapsed as far as the account shows.
  for (const policy of context.pull.policies) {
    if (policy.status !== "EXPIRED" || !policy.policy_type || replacementOf(context, policy)) continue;
    const end = dayOf(policy.expiry_date);
    if (end && end > context.today) continue;
    findings.push({
      ...base(context, policy, "policy-lapse", end ?? "expired"),
      severity: "gap",
      title: `${lineLabel(policy.policy_type)} policy expired, none in force`,
      detail: `${policyLabel(policy)} expired${end ? ` on ${calendarDay(end)}` : ""} and no other policy of this line is in force on the account.`,
      nextStep: "Ask whether the client renewed elsewhere; if not, quote the line now.",
    });
  }
  return findings;
}

/** What the carrier did not say, or said in terms the review cannot read. */
function oddities(context: ReviewContext, policy: Policy): Finding[] {
  const found: Finding[] = [];
  const add = (what: string, title: string, detail: string, nextStep: string) =>
    found.push({ ...base(context, policy, "policy-data", what), severity: "unknown", title, detail, nextStep });
  const type = policy.policy_type;
  if (type === null)
    add(
      "no-line",
      "Line of business not stated",
      `The carrier does not say what ${policyLabel(policy)} insures, so none of the line's rules could be checked.`,
      "Ask the client for the declarations page.",
    );
  else if (!isKnownValue(POLICY_TYPES, type))
    add(
      "odd-line",
      "Line of business not recognised",
      `The carrier calls ${policyLabel(policy)} "${clip(type)}", a line the review does not know, so its cover was not checked.`,
      "Review this policy's cover by hand.",
    );
  if (policy.status !== null && !isKnownValue(POLICY_STATUSES, policy.status))
    add(
      "odd-status",
      "Status not recognised",
      `The carrier gives ${policyLabel(policy)} the status "${clip(policy.status)}", which the service does not document: whether it is in force is unclear.`,
      "Confirm with the carrier that the policy is in force.",
    );
  if (policy.limited_access) {
    const shared =
      policy.vehicles.some((v) => v.coverages.length > 0) || policy.dwellings.some((d) => d.coverages.length > 0);
    add(
      "limited-access",
      "Carrier gave limited access",
      shared
        ? `The carrier gave limited access to ${policyLabel(policy)}: what it shared may be incomplete, so a cover this review finds missing may only be missing from the data.`
        : `The carrier did not share the detail of ${policyLabel(policy)}, so its limits and coverages could not be checked.`,
      "Ask the client for the declarations page.",
    );
  } else if (type && AUTO_LINES.has(type) && policy.vehicles.every((v) => v.is_removed))
    add(
      "no-vehicles",
      "No vehicles listed",
      `${policyLabel(policy)} lists no vehicle, so its liability limits could not be checked.`,
      "Ask the client for the declarations page.",
    );
  else if (type && HOME_LIKE.has(type) && policy.dwellings.length === 0)
    add(
      "no-dwellings",
      "No home listed",
      `${policyLabel(policy)} lists no dwelling, so its limits could not be checked.`,
      "Ask the client for the declarations page.",
    );
  if (inForce(policy)) {
    const premium = policy.total_premium_cents ?? policy.total_estimated_annual_premium_cents;
    if (premium === null || premium <= 0)
      add(
        "premium",
        premium === null ? "Premium not stated" : "Premium of $0",
        `${policyLabel(policy)} ${premium === null ? "states no premium" : "states a premium of $0"}, so what the household pays for it is unknown.`,
        "Read the premium from the declarations page or the billing statement.",
      );
    if (!dayOf(policy.expiry_date) && !(type && OPEN_ENDED.has(type)))
      add(
        "no-expiry",
        "Expiry date not stated",
        `${policyLabel(policy)} gives no expiry date, so its renewal cannot be planned.`,
        "Read the policy period from the declarations page.",
      );
  }
  return found;
}

/** Every policy-level finding of the household. */
export function reviewPolicies(context: ReviewContext): Finding[] {
  const findings: Finding[] = [];
  for (const policy of context.pull.policies) {
    if (context.on("policy-expiring")) {
      const found = expiring(context, policy);
      if (found) findings.push(found);
    }
    if (context.on("policy-cancelled")) {
      const found = cancelled(context, policy);
      if (found) findings.push(found);
    }
    if (context.on("policy-data")) findings.push(...oddities(context, policy));
  }
  if (context.on("policy-lapse")) findings.push(...lapses(context));
  return findings;
}
