import type { Policy, Pull } from "@/lib/service/schemas";
import { reviewAuto } from "./auto-review";
import { SEVERITY_ORDER, type Finding, type ReviewContext, type ReviewSettings } from "./finding";
import { lineLabel } from "./finding-words";
import { reviewHomes } from "./home-review";
import { reviewPolicies } from "./policy-review";

// The coverage review of one household: every rule of every line run over the parsed pull, with
// the agency's thresholds and renewal lead time. Pure (no database, no clock: `today` is given),
// so the pull page, the client summary, the decisions command and the tests all get the same
// findings for the same pull and day. Missing or odd data yields an "unknown" finding that says
// what is missing, never a gap the figures do not show.

export type { Finding, ReviewRules, ReviewSettings, Severity } from "./finding";

/** A policy's part of each key: its number, unless two policies of the pull share it. */
function policyKeys(pull: Pull): (policy: Policy) => string {
  const counts = new Map<string, number>();
  for (const p of pull.policies)
    if (p.carrier_policy_number) counts.set(p.carrier_policy_number, (counts.get(p.carrier_policy_number) ?? 0) + 1);
  const keys = new Map<Policy, string>();
  for (const p of pull.policies) {
    const number = p.carrier_policy_number;
    keys.set(
      p,
      number && counts.get(number) === 1
        ? number
        : number
          ? `${number}@${p.effective_date?.slice(0, 10) ?? p.policy_id}`
          : p.policy_id,
    );
  }
  return (policy) => keys.get(policy) ?? policy.policy_id;
}

/** A detail may open with a carrier's name as the carrier wrote it ("statefarm auto …"). */
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const LINE_ORDER = ["AUTO", "MOTORCYCLE", "CLASSIC_CAR", "HOMEOWNERS", "CONDO", "RENTERS", "LANDLORD", "FLOOD"];
const lineRank = (line: string) => {
  const i = LINE_ORDER.indexOf(line);
  return i < 0 ? LINE_ORDER.length : i;
};

/** Gaps first, then warnings, then unknowns; within each, by line and then by title. */
export function sortFindings<F extends Finding>(findings: F[]): F[] {
  return [...findings].sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      lineRank(a.line) - lineRank(b.line) ||
      a.title.localeCompare(b.title) ||
      a.key.localeCompare(b.key),
  );
}

export function reviewHousehold(pull: Pull, settings: ReviewSettings, today: string): Finding[] {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new Error(`today must be an ISO day (YYYY-MM-DD), got ${today}`);
  const off = new Set(settings.off);
  const context: ReviewContext = {
    pull,
    settings,
    today,
    policyKey: policyKeys(pull),
    on: (rule) => !off.has(rule),
  };
  const found = [...reviewAuto(context), ...reviewHomes(context), ...reviewPolicies(context)];
  // One finding per key: the page's decision forms and the E&O record are keyed by it.
  const byKey = new Map<string, Finding>();
  for (const finding of found)
    if (!byKey.has(finding.key)) byKey.set(finding.key, { ...finding, detail: capitalized(finding.detail) });
  return sortFindings([...byKey.values()]);
}

export type FindingGroup<F extends Finding = Finding> = { line: string; label: string; findings: F[] };

/** The findings by line, the lines with the most serious findings first (each already sorted). */
export function groupFindings<F extends Finding>(findings: F[]): Array<FindingGroup<F>> {
  const groups = new Map<string, F[]>();
  for (const finding of sortFindings(findings))
    groups.set(finding.line, [...(groups.get(finding.line) ?? []), finding]);
  return [...groups.entries()].map(([line, list]) => ({
    line,
    label: line === "OTHER" ? "Other" : lineLabel(line),
    findings: list,
  }));
}
