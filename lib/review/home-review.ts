import { formatAddress } from "@/lib/format";
import { isKnownValue, LOSS_SETTLEMENT_TYPES, type Dwelling, type Policy } from "@/lib/service/schemas";
import { coverageLabel, dwellingCoverageKind, type DwellingCoverageKind } from "./coverage-names";
import { findingKey, type Finding, type ReviewContext, type ReviewRuleId } from "./finding";
import { clip, money, policyLabel } from "./finding-words";
import { floodZoneOf, householdHasFlood } from "./flood-zone";

// The home rules, one home at a time: Coverage A against what it would cost to rebuild (with
// any extended replacement cost, and against the share coinsurance clauses ask for), losses
// settled at actual cash value, personal liability under the agency's floor, no water backup
// cover, no flood policy for a home the property data places in a flood zone.

/** Policies whose dwellings these rules read (a flood policy's own dwelling is the flood cover). */
const HOME_LINES = new Set(["HOMEOWNERS", "CONDO", "RENTERS", "LANDLORD", "MOBILE_HOME", "FARMOWNER", "FIRE"]);
/** Lines that insure the building itself to its replacement cost. */
const OWNED = new Set(["HOMEOWNERS", "LANDLORD", "MOBILE_HOME", "FARMOWNER", "FIRE"]);
const LIABILITY_LINES = new Set(["HOMEOWNERS", "CONDO", "RENTERS", "LANDLORD", "MOBILE_HOME", "FARMOWNER"]);
const WATER_BACKUP_LINES = new Set(["HOMEOWNERS", "CONDO", "MOBILE_HOME", "FARMOWNER"]);

type Home = { policy: Policy; dwelling: Dwelling; type: string; label: string; odd: string[] };

function homeLabel(dwelling: Dwelling): string {
  const address = formatAddress(dwelling.address);
  return address && address !== "—" ? `the home at ${clip(address, 80)}` : "the home";
}

const coverageOf = (dwelling: Dwelling, kind: DwellingCoverageKind) =>
  dwelling.coverages.filter((c) => dwellingCoverageKind(c) === kind);

const oddNote = (odd: string[]) =>
  odd.length > 0
    ? ` It lists coverages the review cannot read: ${odd
        .slice(0, 3)
        .map((n) => `"${n}"`)
        .join(", ")}.`
    : "";

function finding(
  context: ReviewContext,
  home: Home,
  rule: ReviewRuleId,
  rest: Omit<Finding, "key" | "rule" | "line">,
): Finding {
  return {
    key: findingKey(rule, context.policyKey(home.policy), home.dwelling.dwelling_id),
    rule,
    line: home.type,
    ...rest,
  };
}

const percentOf = (part: number, whole: number) => Math.floor((part / whole) * 100);

function dwellingLimit(context: ReviewContext, home: Home): Finding | null {
  const { dwelling, policy } = home;
  const rule = "home-dwelling-limit";
  const owned = OWNED.has(home.type);
  const coverageA = coverageOf(dwelling, "DWELLING").find((c) => !c.is_declined);
  const unknown = (title: string, detail: string, nextStep: string) =>
    finding(context, home, rule, { severity: "unknown", title, detail, nextStep });
  if (coverageA?.per_incident_unlimited) return null;
  const limit = coverageA?.per_incident_limit_cents ?? null;
  if (limit === null || limit <= 0) {
    if (!owned && !coverageA) return null;
    const what = !coverageA
      ? `lists no Coverage A (the dwelling) for ${home.label}.${oddNote(home.odd)}`
      : coverageA.per_incident_limit_percent
        ? `gives Coverage A (the dwelling) of ${home.label} only as a percentage, not in dollars.`
        : `lists Coverage A (the dwelling) of ${home.label} without a limit.`;
    return unknown(
      "Dwelling limit not stated",
      `${policyLabel(policy)} ${what}`,
      "Read Coverage A from the declarations page and compare it with a replacement cost estimate.",
    );
  }
  const replacement = dwelling.replacement_cost_cents;
  if (replacement === null || replacement <= 0)
    return owned
      ? unknown(
          "Replacement cost unknown",
          `The carrier gives no replacement cost for ${home.label}, so Coverage A (${money(limit)}) cannot be compared with what it would cost to rebuild.`,
          "Run a replacement cost estimate for the home.",
        )
      : null;
  if (dwelling.is_replacement_cost_cents_derived)
    return unknown(
      "Replacement cost not independent",
      `The carrier's replacement cost for ${home.label} (${money(replacement)}) is derived from the dwelling limit itself, so it cannot show whether Coverage A (${money(limit)}) would rebuild the home.`,
      "Run an independent replacement cost estimate for the home.",
    );
  const extended = dwelling.extended_replacement_cost_percent ?? 0;
  if (extended < 0 || extended > 100)
    return unknown(
      "Extended replacement cost unclear",
      `The carrier gives an extended replacement cost of ${extended}% for ${home.label}, outside the 0–100% the service documents.`,
      "Read the extended replacement cost endorsement from the policy.",
    );
  const reach = Math.round(limit * (1 + extended / 100));
  const coinsurance = context.settings.coinsurancePercent;
  const share = percentOf(limit, replacement);
  const belowCoinsurance = limit * 100 < replacement * coinsurance;
  if (reach >= replacement && !belowCoinsurance) return null;
  const withExtended = extended > 0 ? ` (up to ${money(reach)} with ${extended}% extended replacement cost)` : "";
  const short = reach < replacement ? `: ${money(replacement - reach)} short` : "";
  const coinsuranceWords = belowCoinsurance
    ? `Coverage A is ${share}% of the replacement cost, below the ${coinsurance}% that coinsurance clauses ask for, so even a partial loss could be paid short.`
    : `Coverage A is ${share}% of the replacement cost, above the ${coinsurance}% that coinsurance clauses ask for, but a total loss would still leave the difference to the household.`;
  return finding(context, home, rule, {
    severity: "gap",
    title: "Dwelling insured for less than it would cost to rebuild",
    detail: `${policyLabel(policy)} insures ${home.label} for ${money(limit)}${withExtended} against a replacement cost of ${money(replacement)}${short}. ${coinsuranceWords}`,
    nextStep: `Quote Coverage A of at least ${money(replacement)} (or enough extended replacement cost to reach it).`,
  });
}

function lossSettlement(context: ReviewContext, home: Home): Finding | null {
  const type = home.dwelling.loss_settlement_type;
  const rule = "home-loss-settlement";
  if (type === "REPLACEMENT_COST") return null;
  if (type === "ACTUAL_CASH_VALUE")
    return finding(context, home, rule, {
      severity: "gap",
      title: "Losses paid at actual cash value",
      detail: `${policyLabel(home.policy)} settles losses on ${home.label} at actual cash value: a claim pays what the damaged property was worth after depreciation, not what it costs to repair or replace it.`,
      nextStep: "Quote replacement cost loss settlement and show the client the difference on a typical claim.",
    });
  return finding(context, home, rule, {
    severity: "unknown",
    title: "Loss settlement not stated",
    detail:
      type === null
        ? `${policyLabel(home.policy)} does not say whether losses on ${home.label} are paid at replacement cost or actual cash value.`
        : `${policyLabel(home.policy)} settles losses on ${home.label} as "${clip(type)}", which is neither replacement cost nor actual cash value${isKnownValue(LOSS_SETTLEMENT_TYPES, type) ? "" : " as the service documents them"}.`,
    nextStep: "Read the loss settlement terms from the policy.",
  });
}

function liability(context: ReviewContext, home: Home): Finding | null {
  if (!LIABILITY_LINES.has(home.type)) return null;
  const floor = context.settings.personalLiabilityCents;
  const rule = "home-liability";
  const listed = coverageOf(home.dwelling, "LIABILITY");
  const taken = listed.find((c) => !c.is_declined);
  if (!taken) {
    if (listed.length > 0)
      return finding(context, home, rule, {
        severity: "gap",
        title: "Personal liability declined",
        detail: `${policyLabel(home.policy)} lists personal liability for ${home.label} as declined.`,
        nextStep: `Quote personal liability of at least ${money(floor)}.`,
      });
    return finding(context, home, rule, {
      severity: "unknown",
      title: "Personal liability not stated",
      detail: `${policyLabel(home.policy)} lists no personal liability for ${home.label}.${oddNote(home.odd)}`,
      nextStep: "Read the personal liability limit (Coverage E) from the declarations page.",
    });
  }
  if (taken.per_incident_unlimited || taken.per_person_unlimited) return null;
  const limit = taken.per_incident_limit_cents ?? taken.per_person_limit_cents;
  if (limit === null || limit <= 0)
    return finding(context, home, rule, {
      severity: "unknown",
      title: "Personal liability limit not stated",
      detail: `${policyLabel(home.policy)} lists ${coverageLabel(taken)} for ${home.label} without a dollar limit${taken.per_incident_limit_percent || taken.per_incident_limit_months ? " (only as a percentage or in months, which liability is not written in)" : ""}.`,
      nextStep: "Read the personal liability limit (Coverage E) from the declarations page.",
    });
  if (limit >= floor) return null;
  return finding(context, home, rule, {
    severity: "gap",
    title: `Personal liability below ${money(floor)}`,
    detail: `${policyLabel(home.policy)} pays at most ${money(limit)} if someone is hurt at ${home.label} or the household is sued for damage it caused. The agency's floor is ${money(floor)}.`,
    nextStep: `Quote personal liability of at least ${money(floor)}, and an umbrella if the household has assets to protect.`,
  });
}

/** A water backup endorsement among the policy's forms (the example pull carries it only there). */
function endorsesWaterBackup(policy: Policy): boolean {
  return policy.forms_and_endorsements.some((form) => {
    if (form.is_exclusion_endorsement === true) return false;
    const text = [form.endorsement_type, form.form_name].filter((v) => typeof v === "string").join(" ");
    return /WATER[\s_-]*BACK[\s_-]*UP|SUMP|SEWER[\s_-]*BACK/i.test(text);
  });
}

function waterBackup(context: ReviewContext, home: Home): Finding | null {
  if (!WATER_BACKUP_LINES.has(home.type)) return null;
  const rule = "home-water-backup";
  const listed = coverageOf(home.dwelling, "WATER_BACKUP");
  if (listed.some((c) => !c.is_declined) || endorsesWaterBackup(home.policy)) return null;
  if (listed.length === 0 && (home.odd.length > 0 || home.policy.limited_access))
    return finding(context, home, rule, {
      severity: "unknown",
      title: "Water backup cover unclear",
      detail: home.policy.limited_access
        ? `${policyLabel(home.policy)} lists no water backup cover for ${home.label}, but the carrier gave limited access to the policy.`
        : `${policyLabel(home.policy)} lists no water backup cover for ${home.label} by a name the review knows.${oddNote(home.odd)}`,
      nextStep: "Check the policy for a water backup and sump overflow endorsement.",
    });
  return finding(context, home, rule, {
    severity: "gap",
    title: "No water backup cover",
    detail: `${policyLabel(home.policy)} ${listed.length > 0 ? "lists water backup and sump overflow as declined" : "has no water backup and sump overflow cover"} for ${home.label}. A standard home policy does not pay for water that backs up through drains or a failed sump pump.`,
    nextStep: "Quote a water backup endorsement (often $5,000–$25,000 of cover for a small premium).",
  });
}

function flood(context: ReviewContext, home: Home): Finding | null {
  const zone = floodZoneOf(home.dwelling.property_data);
  if (!zone) return null;
  const rule = "home-flood";
  if (zone.inZone === null)
    return finding(context, home, rule, {
      severity: "unknown",
      title: "Flood zone unclear",
      detail: `The property data gives ${home.label} a flood zone of "${clip(zone.value, 30)}", which the review cannot place as high or low risk.`,
      nextStep: "Look the address up on the FEMA flood map.",
    });
  if (!zone.inZone || householdHasFlood(context.pull, home.dwelling)) return null;
  return finding(context, home, rule, {
    severity: "gap",
    title: "Home in a flood zone without flood insurance",
    detail: `The property data places ${home.label} in flood zone ${clip(zone.value, 30)}, a high-risk area, and the household has no flood policy. A home policy does not pay for flood.`,
    nextStep: "Quote a flood policy (NFIP or private); a mortgage lender usually requires one in this zone.",
  });
}

/** Every home finding of the household. */
export function reviewHomes(context: ReviewContext): Finding[] {
  const findings: Finding[] = [];
  const rules: Array<[ReviewRuleId, (context: ReviewContext, home: Home) => Finding | null]> = [
    ["home-dwelling-limit", dwellingLimit],
    ["home-loss-settlement", lossSettlement],
    ["home-liability", liability],
    ["home-water-backup", waterBackup],
    ["home-flood", flood],
  ];
  for (const policy of context.pull.policies) {
    const type = policy.policy_type;
    if (type === null || !HOME_LINES.has(type)) continue;
    for (const dwelling of policy.dwellings) {
      const odd = dwelling.coverages.filter((c) => dwellingCoverageKind(c) === "ODD").map(coverageLabel);
      const home: Home = { policy, dwelling, type, label: homeLabel(dwelling), odd };
      for (const [rule, check] of rules) {
        if (!context.on(rule)) continue;
        const found = check(context, home);
        if (found) findings.push(found);
      }
    }
  }
  return findings;
}
