import type { Policy, Vehicle } from "@/lib/service/schemas";
import {
  activeVehicles,
  AUTO_LINES,
  bodilyInjuryOf,
  propertyDamageOf,
  uninsuredMotoristOf,
  type LiabilityRead,
} from "./auto-liability";
import { findingKey, type Finding, type ReviewContext, type ReviewRuleId } from "./finding";
import { listWords, money, policyLabel, split, vehicleLabel } from "./finding-words";
import { vehicleFindings } from "./auto-vehicles";

// The auto rules that read a policy's liability, the same on every vehicle as a rule: bodily
// injury and property damage against the agency's floors, uninsured motorist against the
// policy's own bodily-injury limits. One finding per policy (its key the policy number), naming
// the vehicles concerned when they differ; vehicles removed from the policy are left out.

type Outcome = { vehicle: Vehicle; status: "gap" | "unknown"; words: string; weight: number };

const limitWords = (cents: number) => (cents === Infinity ? "unlimited" : money(cents));

/** "on the 2019 Honda CR-V", "on every vehicle", or the list of those concerned. */
function where(outcomes: Outcome[], all: Vehicle[]): string {
  if (all.length > 1 && outcomes.length === all.length) return " on every vehicle";
  return ` on ${listWords(outcomes.slice(0, 4).map((o) => vehicleLabel(o.vehicle)))}${outcomes.length > 4 ? " and others" : ""}`;
}

/** One finding for the policy from its vehicles' outcomes: a gap wins over an unknown. */
function policyFinding(
  context: ReviewContext,
  policy: Policy,
  rule: ReviewRuleId,
  outcomes: Outcome[],
  words: {
    gapTitle: string;
    gapDetail: (worst: Outcome, place: string) => string;
    gapStep: string;
    unknownTitle: string;
    unknownStep: string;
  },
): Finding | null {
  const vehicles = activeVehicles(policy);
  const gaps = outcomes.filter((o) => o.status === "gap").sort((a, b) => a.weight - b.weight);
  const unknowns = outcomes.filter((o) => o.status === "unknown");
  const base = { key: findingKey(rule, context.policyKey(policy)), rule, line: policy.policy_type ?? "OTHER" };
  const worst = gaps[0];
  if (worst)
    return {
      ...base,
      severity: "gap",
      title: words.gapTitle,
      detail: words.gapDetail(worst, where(gaps, vehicles)),
      nextStep: words.gapStep,
    };
  const first = unknowns[0];
  if (!first) return null;
  return {
    ...base,
    severity: "unknown",
    title: words.unknownTitle,
    detail: `${policyLabel(policy)} ${first.words}${where(unknowns, vehicles)}.`,
    nextStep: words.unknownStep,
  };
}

const oddNote = (odd: string[]) =>
  odd.length > 0
    ? ` (it lists coverages the review cannot read: ${odd
        .slice(0, 3)
        .map((name) => `"${name}"`)
        .join(", ")})`
    : "";

function bodilyInjury(context: ReviewContext, policy: Policy): Finding | null {
  const { bodilyInjuryPerPersonCents: floorPerson, bodilyInjuryPerAccidentCents: floorAccident } = context.settings;
  const outcomes: Outcome[] = [];
  for (const vehicle of activeVehicles(policy)) {
    const bi = bodilyInjuryOf(vehicle);
    const gap = (words: string, weight: number) => outcomes.push({ vehicle, status: "gap", words, weight });
    const unknown = (words: string) => outcomes.push({ vehicle, status: "unknown", words, weight: 0 });
    if (bi.kind === "declined") gap("lists bodily injury liability as declined", -1);
    else if (bi.kind === "none") unknown(`lists no bodily injury liability${oddNote(bi.odd)}`);
    else if (bi.kind === "csl") {
      if (bi.limit === null) unknown("lists a combined single limit without its amount");
      else if (bi.limit < floorAccident)
        gap(`has a combined single limit of ${money(bi.limit)} per accident for injuries and damage`, bi.limit);
    } else {
      const short =
        (bi.perPerson !== null && bi.perPerson < floorPerson) ||
        (bi.perAccident !== null && bi.perAccident < floorAccident);
      if (short)
        gap(
          `pays at most ${bi.perPerson === null ? "an unstated amount" : limitWords(bi.perPerson)} per person and ${bi.perAccident === null ? "an unstated amount" : limitWords(bi.perAccident)} per accident for injuries the household causes`,
          bi.perPerson ?? bi.perAccident ?? 0,
        );
      else if (bi.perPerson === null || bi.perAccident === null)
        unknown(
          `lists bodily injury liability without its ${bi.perPerson === null ? "per-person" : "per-accident"} limit`,
        );
    }
  }
  const floor = split(floorPerson, floorAccident);
  return policyFinding(context, policy, "auto-bodily-injury", outcomes, {
    gapTitle: `Bodily injury liability below ${floor}`,
    gapDetail: (worst, place) =>
      `${policyLabel(policy)} ${worst.words}${place}. The agency's floor is ${floor}: a serious accident costs more, and the rest would be the household's to pay.`,
    gapStep: `Quote bodily injury of at least ${floor} and show the client the price of the difference.`,
    unknownTitle: "Bodily injury limits not stated",
    unknownStep: "Read the bodily injury limits from the declarations page before advising.",
  });
}

function propertyDamage(context: ReviewContext, policy: Policy): Finding | null {
  const floor = context.settings.propertyDamageCents;
  const outcomes: Outcome[] = [];
  for (const vehicle of activeVehicles(policy)) {
    const pd = propertyDamageOf(vehicle);
    if (pd.kind === "declined")
      outcomes.push({ vehicle, status: "gap", words: "lists property damage liability as declined", weight: -1 });
    else if (pd.kind === "none")
      outcomes.push({
        vehicle,
        status: "unknown",
        words: `lists no property damage liability${oddNote(pd.odd)}`,
        weight: 0,
      });
    else if (pd.kind === "csl" && pd.limit === null)
      outcomes.push({
        vehicle,
        status: "unknown",
        words: "lists property damage liability without its limit",
        weight: 0,
      });
    else if (pd.kind === "csl" && pd.limit !== null && pd.limit < floor)
      outcomes.push({
        vehicle,
        status: "gap",
        words: `pays at most ${money(pd.limit)} for damage the household causes to others' property`,
        weight: pd.limit,
      });
  }
  return policyFinding(context, policy, "auto-property-damage", outcomes, {
    gapTitle: `Property damage liability below ${money(floor)}`,
    gapDetail: (worst, place) =>
      `${policyLabel(policy)} ${worst.words}${place}. The agency's floor is ${money(floor)}: one new car or a damaged storefront can cost more.`,
    gapStep: `Quote property damage of at least ${money(floor)}.`,
    unknownTitle: "Property damage limit not stated",
    unknownStep: "Read the property damage limit from the declarations page before advising.",
  });
}

/** The bodily-injury figures uninsured motorist cover is held against, in words. */
function biWords(bi: LiabilityRead): string | null {
  if (bi.kind === "split" && bi.perPerson !== null && bi.perAccident !== null)
    return `${limitWords(bi.perPerson)}/${limitWords(bi.perAccident)}`;
  if (bi.kind === "csl" && bi.limit !== null) return `${limitWords(bi.limit)} combined`;
  return null;
}

function umWords(um: LiabilityRead): string {
  if (um.kind === "csl" && um.limit !== null) return `${limitWords(um.limit)} per accident`;
  if (um.kind === "split" && um.perPerson !== null && um.perAccident !== null)
    return `${limitWords(um.perPerson)}/${limitWords(um.perAccident)}`;
  return "limits it does not state";
}

/** Whether uninsured motorist cover reaches the vehicle's own bodily-injury limits (null: cannot tell). */
function umBelow(um: LiabilityRead, bi: LiabilityRead): boolean | null {
  const umAccident = um.kind === "csl" ? um.limit : um.kind === "split" ? um.perAccident : null;
  const umPerson = um.kind === "split" ? um.perPerson : null;
  if (bi.kind === "split") {
    if (umPerson !== null && bi.perPerson !== null && umPerson < bi.perPerson) return true;
    if (umAccident !== null && bi.perAccident !== null && umAccident < bi.perAccident) return true;
    return umAccident === null || (um.kind === "split" && umPerson === null) ? null : false;
  }
  if (bi.kind === "csl" && bi.limit !== null) return umAccident === null ? null : umAccident < bi.limit;
  return false; // no bodily injury to compare with: its own rule says so
}

function uninsuredMotorist(context: ReviewContext, policy: Policy): Finding | null {
  const outcomes: Outcome[] = [];
  for (const vehicle of activeVehicles(policy)) {
    const um = uninsuredMotoristOf(vehicle);
    const bi = bodilyInjuryOf(vehicle);
    if (um.kind === "declined")
      outcomes.push({ vehicle, status: "gap", words: "lists uninsured motorist cover as rejected", weight: -2 });
    else if (um.kind === "none")
      outcomes.push(
        um.odd.length > 0 || policy.limited_access
          ? {
              vehicle,
              status: "unknown",
              words: `lists no uninsured motorist cover${policy.limited_access ? " (the carrier gave limited access)" : oddNote(um.odd)}`,
              weight: 0,
            }
          : { vehicle, status: "gap", words: "has no uninsured or underinsured motorist cover", weight: -1 },
      );
    else {
      const below = umBelow(um, bi);
      if (below === true)
        outcomes.push({
          vehicle,
          status: "gap",
          words: `pays ${umWords(um)} when an uninsured or underinsured driver injures the household, against bodily injury of ${biWords(bi) ?? "higher limits"}`,
          weight: um.kind === "csl" ? (um.limit ?? 0) : um.kind === "split" ? (um.perPerson ?? 0) : 0,
        });
      else if (below === null)
        outcomes.push({
          vehicle,
          status: "unknown",
          words: "lists uninsured motorist cover without its limits",
          weight: 0,
        });
    }
  }
  return policyFinding(context, policy, "auto-uninsured-motorist", outcomes, {
    gapTitle: "Uninsured motorist cover missing or below the bodily-injury limits",
    gapDetail: (worst, place) =>
      `${policyLabel(policy)} ${worst.words}${place}. Many drivers carry no insurance or only their state's minimum: this cover is what pays the household's own injuries when one of them is at fault.`,
    gapStep: "Quote uninsured/underinsured motorist cover matching the bodily-injury limits.",
    unknownTitle: "Uninsured motorist limits not stated",
    unknownStep: "Read the uninsured motorist limits from the declarations page before advising.",
  });
}

/** Every auto finding of the household. */
export function reviewAuto(context: ReviewContext): Finding[] {
  const findings: Finding[] = [];
  const autoPolicies = context.pull.policies.filter(
    (p) => p.policy_type !== null && AUTO_LINES.has(p.policy_type) && activeVehicles(p).length > 0,
  );
  for (const policy of autoPolicies) {
    if (context.on("auto-bodily-injury")) push(findings, bodilyInjury(context, policy));
    if (context.on("auto-property-damage")) push(findings, propertyDamage(context, policy));
    if (context.on("auto-uninsured-motorist")) push(findings, uninsuredMotorist(context, policy));
  }
  findings.push(...vehicleFindings(context, autoPolicies));
  return findings;
}

function push(findings: Finding[], finding: Finding | null) {
  if (finding) findings.push(finding);
}
