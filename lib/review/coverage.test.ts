import { describe, expect, it } from "vitest";
import {
  autoPolicy,
  coverage,
  deductible,
  driver,
  dwelling,
  homeCoverage,
  homePolicy,
  limit,
  onVehicle,
  policy,
  pullOf,
  soundAuto,
  soundHome,
  split,
  vehicle,
} from "@/test/review-pulls";
import { reviewHousehold, type ReviewSettings } from "./coverage";
import type { Finding, ReviewRuleId } from "./finding";
import { DEFAULT_REVIEW_RULES } from "./review-rules";

// Every rule of the coverage review on hand-built households: the gap (with the figures that
// show it), no finding at the boundary, and "unknown" (never a gap) when the data is missing or
// odd. Everything else about each household is sound, so a finding can only come from the rule.

const TODAY = "2026-03-01";
const SETTINGS: ReviewSettings = { ...DEFAULT_REVIEW_RULES, leadTimeDays: 45 };
const review = (pull: ReturnType<typeof pullOf>, settings: Partial<ReviewSettings> = {}, today = TODAY) =>
  reviewHousehold(pull, { ...SETTINGS, ...settings }, today);
const of = (findings: Finding[], rule: ReviewRuleId) => findings.filter((f) => f.rule === rule);
const only = (findings: Finding[], rule: ReviewRuleId): Finding => {
  const found = of(findings, rule);
  expect(found, `${rule} in ${JSON.stringify(findings, null, 1)}`).toHaveLength(1);
  return found[0] as Finding;
};
const autoWith = (coverages: ReturnType<typeof coverage>[], values = {}) =>
  pullOf([autoPolicy([vehicle(values, coverages)])]);
const without = (names: string[]) => soundAuto().filter((c) => !names.includes(String(c.friendly_name)));

describe("a sound household", () => {
  it("has no finding at all", () => {
    const d = driver("Dana", "Reyes");
    const pull = pullOf([autoPolicy([vehicle({}, undefined, [onVehicle(d)])]), homePolicy([dwelling()])], {
      drivers: [d],
    });
    expect(review(pull)).toEqual([]);
  });
});

describe("auto: bodily injury", () => {
  it("is a gap below 100/300, with the figures", () => {
    const pull = autoWith([
      coverage("Bodily Injury Liability", split(50_000, 100_000)),
      ...without(["Bodily Injury Liability"]),
    ]);
    const finding = only(review(pull), "auto-bodily-injury");
    expect(finding).toMatchObject({
      severity: "gap",
      line: "AUTO",
      title: "Bodily injury liability below $100,000/$300,000",
    });
    expect(finding.detail).toContain("$50,000 per person and $100,000 per accident");
    expect(finding.detail).toContain("the 2021 Honda CR-V");
  });

  it("is no finding at exactly 100/300, nor when unlimited", () => {
    expect(of(review(autoWith(soundAuto())), "auto-bodily-injury")).toEqual([]);
    const unlimited = coverage("Bodily Injury Liability", { per_person_unlimited: true, per_incident_unlimited: true });
    expect(of(review(autoWith([unlimited, ...without(["Bodily Injury Liability"])])), "auto-bodily-injury")).toEqual(
      [],
    );
  });

  it("is a gap for a combined single limit under $300,000, and none at $300,000", () => {
    const csl = (dollars: number) => [
      coverage("Combined Single Limit", limit(dollars), "CSL"),
      ...without(["Bodily Injury Liability", "Property Damage Liability"]),
    ];
    expect(only(review(autoWith(csl(250_000))), "auto-bodily-injury").detail).toContain(
      "combined single limit of $250,000",
    );
    expect(of(review(autoWith(csl(300_000))), "auto-bodily-injury")).toEqual([]);
  });

  it("reads carriers' codes and spellings as well as the spec's names", () => {
    const pull = autoWith([
      coverage("Bodily Injury", split(25_000, 50_000), "BI"),
      ...without(["Bodily Injury Liability"]),
    ]);
    expect(only(review(pull), "auto-bodily-injury").severity).toBe("gap");
  });

  it("is unknown when a limit is missing, or no coverage reads as bodily injury", () => {
    const missing = autoWith([
      coverage("Bodily Injury Liability", { per_person_limit_cents: 10_000_000 }),
      ...without(["Bodily Injury Liability"]),
    ]);
    expect(only(review(missing), "auto-bodily-injury")).toMatchObject({ severity: "unknown" });
    expect(only(review(missing), "auto-bodily-injury").detail).toContain("without its per-accident limit");
    const odd = autoWith([
      coverage("Liab Grp 7", split(25_000, 50_000), "LG7"),
      ...without(["Bodily Injury Liability"]),
    ]);
    const finding = only(review(odd), "auto-bodily-injury");
    expect(finding.severity).toBe("unknown");
    expect(finding.detail).toContain('"Liab Grp 7"');
  });

  it("reads a zero limit as unstated, not as $0 of cover", () => {
    const zero = autoWith([coverage("Bodily Injury Liability", split(0, 0)), ...without(["Bodily Injury Liability"])]);
    expect(only(review(zero), "auto-bodily-injury").severity).toBe("unknown");
  });

  it("makes one finding per policy, naming the weaker vehicle", () => {
    const weak = vehicle({ year: 2015, make: "Ford", model: "Focus" }, [
      coverage("Bodily Injury Liability", split(25_000, 50_000)),
      ...without(["Bodily Injury Liability"]),
    ]);
    const pull = pullOf([autoPolicy([vehicle(), weak])]);
    const finding = only(review(pull), "auto-bodily-injury");
    expect(finding.detail).toContain("the 2015 Ford Focus");
    expect(finding.detail).not.toContain("Honda");
  });

  it("follows the agency's floor", () => {
    const pull = autoWith([
      coverage("Bodily Injury Liability", split(50_000, 100_000)),
      ...without(["Bodily Injury Liability"]),
    ]);
    expect(
      of(
        review(pull, { bodilyInjuryPerPersonCents: 50_000_00, bodilyInjuryPerAccidentCents: 100_000_00 }),
        "auto-bodily-injury",
      ),
    ).toEqual([]);
  });
});

describe("auto: property damage", () => {
  const pd = (values: Record<string, unknown>) => [
    coverage("Property Damage Liability", values),
    ...without(["Property Damage Liability"]),
  ];
  it("is a gap below $100,000 and none at $100,000", () => {
    const finding = only(review(autoWith(pd(limit(50_000)))), "auto-property-damage");
    expect(finding).toMatchObject({ severity: "gap", title: "Property damage liability below $100,000" });
    expect(finding.detail).toContain("at most $50,000");
    expect(of(review(autoWith(pd(limit(100_000)))), "auto-property-damage")).toEqual([]);
  });

  it("is unknown without a limit", () => {
    expect(only(review(autoWith(pd({}))), "auto-property-damage").severity).toBe("unknown");
  });
});

describe("auto: uninsured motorist", () => {
  const UM = "Uninsured / Underinsured Motorist Bodily Injury Liability";
  it("is a gap when missing, or rejected", () => {
    expect(only(review(autoWith(without([UM]))), "auto-uninsured-motorist")).toMatchObject({ severity: "gap" });
    expect(only(review(autoWith(without([UM]))), "auto-uninsured-motorist").detail).toContain(
      "no uninsured or underinsured",
    );
    const rejected = autoWith([coverage(UM, { is_declined: true }), ...without([UM])]);
    expect(only(review(rejected), "auto-uninsured-motorist").detail).toContain("rejected");
  });

  it("is a gap below the policy's own bodily-injury limits, with both figures", () => {
    const pull = autoWith([coverage(UM, split(50_000, 100_000)), ...without([UM])]);
    const finding = only(review(pull), "auto-uninsured-motorist");
    expect(finding.severity).toBe("gap");
    expect(finding.detail).toContain("$50,000/$100,000");
    expect(finding.detail).toContain("bodily injury of $100,000/$300,000");
  });

  it("is no finding when it matches bodily injury", () => {
    expect(of(review(autoWith(soundAuto())), "auto-uninsured-motorist")).toEqual([]);
  });

  it("is unknown without its limits, or when the vehicle's coverages are named oddly", () => {
    expect(only(review(autoWith([coverage(UM, {}), ...without([UM])])), "auto-uninsured-motorist").severity).toBe(
      "unknown",
    );
    const odd = autoWith([coverage("UMX plan", split(100_000, 300_000), "UMX"), ...without([UM])]);
    expect(only(review(odd), "auto-uninsured-motorist").severity).toBe("unknown");
  });
});

describe("auto: a financed or leased vehicle", () => {
  it("is a gap without collision, naming the lien holder", () => {
    const pull = autoWith(without(["Collision"]), { ownership_type: "FINANCE", lien_holder: "Ally Financial" });
    const finding = only(review(pull), "auto-financed-physical-damage");
    expect(finding).toMatchObject({ severity: "gap", title: "Financed vehicle without comprehensive and collision" });
    expect(finding.detail).toContain("Ally Financial holds the lien");
    expect(finding.detail).toContain("no collision");
  });

  it("is a gap when comprehensive is declined on a lease", () => {
    const coverages = [...without(["Comprehensive"]), coverage("Comprehensive", { is_declined: true })];
    const finding = only(review(autoWith(coverages, { ownership_type: "LEASE" })), "auto-financed-physical-damage");
    expect(finding.title).toBe("Leased vehicle without comprehensive and collision");
    expect(finding.detail).toContain("comprehensive declined");
  });

  it("is found from an additional interest naming the vehicle", () => {
    const car = vehicle({}, without(["Collision", "Comprehensive"]));
    const pull = pullOf([
      autoPolicy([car], {
        additional_interests: [
          { additional_interest_id: "ai", type: "LIENHOLDER", name: "Chase Auto", vehicle_id: car.vehicle_id },
        ],
      }),
    ]);
    expect(only(review(pull), "auto-financed-physical-damage").detail).toContain("Chase Auto");
  });

  it("is no finding with both, or when the vehicle is owned outright", () => {
    expect(
      of(
        review(autoWith(soundAuto(), { ownership_type: "FINANCE", lien_holder: "Ally" })),
        "auto-financed-physical-damage",
      ),
    ).toEqual([]);
    expect(of(review(autoWith(without(["Collision", "Comprehensive"]))), "auto-financed-physical-damage")).toEqual([]);
  });

  it("is unknown when physical damage may be listed under a name the review cannot read", () => {
    const pull = autoWith([...without(["Collision"]), coverage("Kollision plus", deductible(500), "KOLL")], {
      lien_holder: "Ally",
    });
    expect(only(review(pull), "auto-financed-physical-damage").severity).toBe("unknown");
  });
});

describe("auto: deductibles", () => {
  const collision = (values: Record<string, unknown>) => [...without(["Collision"]), coverage("Collision", values)];
  it("warns above $1,000 and says nothing at $1,000", () => {
    const finding = only(review(autoWith(collision(deductible(2_500)))), "auto-deductible");
    expect(finding).toMatchObject({ severity: "warning", title: "Deductible above $1,000" });
    expect(finding.detail).toContain("collision $2,500");
    expect(of(review(autoWith(collision(deductible(1_000)))), "auto-deductible")).toEqual([]);
  });

  it("is unknown when the deductible is not stated", () => {
    expect(only(review(autoWith(collision({}))), "auto-deductible").severity).toBe("unknown");
  });
});

describe("auto: drivers and vehicles", () => {
  it("warns of a household driver on no vehicle", () => {
    const dana = driver("Dana", "Reyes");
    const sam = driver("Sam", "Reyes");
    const pull = pullOf([autoPolicy([vehicle({}, undefined, [onVehicle(dana)])])], { drivers: [dana, sam] });
    const finding = only(review(pull), "auto-driver-without-vehicle");
    expect(finding).toMatchObject({ severity: "warning", key: `auto-driver-without-vehicle:${sam.driver_id}` });
    expect(finding.detail).toContain("Sam Reyes");
  });

  it("matches a driver by name and birth date when the ids differ", () => {
    const dana = driver("Dana", "Reyes");
    const pull = pullOf([autoPolicy([vehicle({}, undefined, [onVehicle({ ...dana, driver_id: "another-id" })])])], {
      drivers: [dana],
    });
    expect(of(review(pull), "auto-driver-without-vehicle")).toEqual([]);
  });

  it("warns of a driver excluded from every vehicle", () => {
    const dana = driver("Dana", "Reyes");
    const sam = driver("Sam", "Reyes");
    const pull = pullOf([autoPolicy([vehicle({}, undefined, [onVehicle(dana), onVehicle(sam, true)])])], {
      drivers: [dana, sam],
    });
    expect(only(review(pull), "auto-driver-without-vehicle").title).toBe(
      "A household driver excluded from every vehicle",
    );
  });

  it("warns of a vehicle with no driver", () => {
    const dana = driver("Dana", "Reyes");
    const pull = pullOf([autoPolicy([vehicle({}, undefined, [onVehicle(dana)]), vehicle({ make: "Kia" })])], {
      drivers: [dana],
    });
    const finding = only(review(pull), "auto-vehicle-without-driver");
    expect(finding).toMatchObject({ severity: "warning", title: "A vehicle with no driver" });
    expect(finding.detail).toContain("Kia");
  });

  it("is unknown, not a warning per driver, when the carrier lists no driver on any vehicle", () => {
    const pull = pullOf([autoPolicy([vehicle()])], { drivers: [driver("Dana", "Reyes")] });
    const findings = review(pull);
    expect(only(findings, "auto-vehicle-without-driver")).toMatchObject({
      severity: "unknown",
      title: "Who drives which vehicle is not stated",
    });
    expect(of(findings, "auto-driver-without-vehicle")).toEqual([]);
  });

  it("leaves removed vehicles out", () => {
    const removed = vehicle({ is_removed: true }, [coverage("Bodily Injury Liability", split(25_000, 50_000))]);
    expect(review(pullOf([autoPolicy([vehicle(), removed])]))).toEqual([]);
  });
});

describe("home: the dwelling limit", () => {
  const home = (coverageA: number, values: Record<string, unknown> = {}) =>
    pullOf([homePolicy([dwelling(values, soundHome(coverageA))])]);

  it("is a gap below the replacement cost: by how much, and below the coinsurance share", () => {
    const finding = only(review(home(300_000)), "home-dwelling-limit");
    expect(finding).toMatchObject({ severity: "gap", line: "HOMEOWNERS" });
    expect(finding.detail).toContain("for $300,000 against a replacement cost of $400,000: $100,000 short");
    expect(finding.detail).toContain("75% of the replacement cost, below the 80%");
  });

  it("counts extended replacement cost toward the shortfall, but not toward coinsurance", () => {
    const finding = only(review(home(300_000, { extended_replacement_cost_percent: 25 })), "home-dwelling-limit");
    expect(finding.detail).toContain("(up to $375,000 with 25% extended replacement cost)");
    expect(finding.detail).toContain("$25,000 short");
    // 80% of the cost with 25% extended reaches it all: no shortfall, coinsurance met.
    expect(of(review(home(320_000, { extended_replacement_cost_percent: 25 })), "home-dwelling-limit")).toEqual([]);
  });

  it("is no finding at exactly the replacement cost", () => {
    expect(of(review(home(400_000)), "home-dwelling-limit")).toEqual([]);
  });

  it("is unknown without a replacement cost, with a derived one, or without a dollar Coverage A", () => {
    expect(only(review(home(300_000, { replacement_cost_cents: null })), "home-dwelling-limit").title).toBe(
      "Replacement cost unknown",
    );
    expect(only(review(home(300_000, { is_replacement_cost_cents_derived: true })), "home-dwelling-limit").title).toBe(
      "Replacement cost not independent",
    );
    const percentOnly = pullOf([
      homePolicy([
        dwelling({}, [homeCoverage("DWELLING", { per_incident_limit_percent: "100.000" }), ...soundHome(1).slice(1)]),
      ]),
    ]);
    const finding = only(review(percentOnly), "home-dwelling-limit");
    expect(finding).toMatchObject({ severity: "unknown", title: "Dwelling limit not stated" });
    expect(finding.detail).toContain("only as a percentage");
    expect(
      only(review(home(300_000, { extended_replacement_cost_percent: 150 })), "home-dwelling-limit").severity,
    ).toBe("unknown");
  });

  it("reads Coverage A by its documented name even when its friendly name says 'Liability'", () => {
    const coverages = [homeCoverage("DWELLING", limit(300_000), "Dwelling Liability"), ...soundHome(300_000).slice(1)];
    expect(only(review(pullOf([homePolicy([dwelling({}, coverages)])])), "home-dwelling-limit").severity).toBe("gap");
  });

  it("follows the agency's coinsurance share", () => {
    const finding = only(
      review(home(380_000, { extended_replacement_cost_percent: 10 }), { coinsurancePercent: 100 }),
      "home-dwelling-limit",
    );
    expect(finding.detail).toContain("95% of the replacement cost, below the 100%");
  });
});

describe("home: loss settlement", () => {
  it("is a gap at actual cash value, none at replacement cost", () => {
    const acv = pullOf([homePolicy([dwelling({ loss_settlement_type: "ACTUAL_CASH_VALUE" })])]);
    expect(only(review(acv), "home-loss-settlement")).toMatchObject({
      severity: "gap",
      title: "Losses paid at actual cash value",
    });
    expect(of(review(pullOf([homePolicy([dwelling()])])), "home-loss-settlement")).toEqual([]);
  });

  it("is unknown when missing or outside the documented values", () => {
    expect(
      only(review(pullOf([homePolicy([dwelling({ loss_settlement_type: null })])])), "home-loss-settlement").severity,
    ).toBe("unknown");
    const odd = only(
      review(pullOf([homePolicy([dwelling({ loss_settlement_type: "FUNCTIONAL" })])])),
      "home-loss-settlement",
    );
    expect(odd.severity).toBe("unknown");
    expect(odd.detail).toContain('"FUNCTIONAL"');
  });
});

describe("home: personal liability", () => {
  const withLiability = (values: Record<string, unknown>, name = "PERSONAL_LIABILITY") =>
    pullOf([
      homePolicy([
        dwelling({}, [
          ...soundHome(400_000).filter((c) => c.name !== "PERSONAL_LIABILITY"),
          homeCoverage(name, values),
        ]),
      ]),
    ]);

  it("is a gap below $300,000 and none at $300,000", () => {
    const finding = only(review(withLiability(limit(100_000))), "home-liability");
    expect(finding).toMatchObject({ severity: "gap", title: "Personal liability below $300,000" });
    expect(finding.detail).toContain("at most $100,000");
    expect(of(review(withLiability(limit(300_000))), "home-liability")).toEqual([]);
  });

  it("is a gap when declined, and unknown without a dollar limit or when not listed", () => {
    expect(only(review(withLiability({ is_declined: true })), "home-liability").severity).toBe("gap");
    expect(only(review(withLiability({ per_incident_limit_percent: "10.000" })), "home-liability").severity).toBe(
      "unknown",
    );
    const none = pullOf([
      homePolicy([
        dwelling(
          {},
          soundHome(400_000).filter((c) => c.name !== "PERSONAL_LIABILITY"),
        ),
      ]),
    ]);
    expect(only(review(none), "home-liability")).toMatchObject({
      severity: "unknown",
      title: "Personal liability not stated",
    });
  });

  it("does not take 'Personal Property Liability' (contents) for liability", () => {
    const pull = pullOf([
      homePolicy([
        dwelling({}, [
          ...soundHome(400_000).filter((c) => c.name !== "PERSONAL_LIABILITY"),
          homeCoverage("PERSONAL_PROPERTY", limit(1_000_000), "Personal Property Liability"),
        ]),
      ]),
    ]);
    expect(only(review(pull), "home-liability").title).toBe("Personal liability not stated");
  });
});

describe("home: water backup", () => {
  const homeWith = (coverages: Record<string, unknown>[], values: Record<string, unknown> = {}) =>
    pullOf([homePolicy([dwelling({}, [...soundHome(400_000).slice(0, 3), ...coverages])], values)]);

  it("is a gap when missing or declined", () => {
    expect(only(review(homeWith([])), "home-water-backup")).toMatchObject({
      severity: "gap",
      title: "No water backup cover",
    });
    expect(
      only(
        review(homeWith([homeCoverage("WATER_BACKUP_AND_SUMP_OVERFLOW", { is_declined: true })])),
        "home-water-backup",
      ).detail,
    ).toContain("as declined");
  });

  it("is no finding with the coverage, or with an endorsement among the policy's forms", () => {
    expect(of(review(pullOf([homePolicy([dwelling()])])), "home-water-backup")).toEqual([]);
    const endorsed = homeWith([], {
      forms_and_endorsements: [
        {
          form_name: "Limited Water Back-Up and Sump Discharge or Overflow Coverage",
          endorsement_type: "WATER_BACKUP_COVERAGE",
        },
      ],
    });
    expect(of(review(endorsed), "home-water-backup")).toEqual([]);
  });

  it("is unknown when the home lists coverages the review cannot read", () => {
    expect(
      only(review(homeWith([homeCoverage("HO_EXTRA_7", limit(5_000), "Extra protection pack")])), "home-water-backup")
        .severity,
    ).toBe("unknown");
  });
});

describe("home: flood", () => {
  const home = (propertyData: Record<string, unknown> | null, extra: Record<string, unknown>[] = []) =>
    pullOf([homePolicy([dwelling({ property_data: propertyData })]), ...extra]);

  it("is a gap in a high-risk zone with no flood policy", () => {
    const finding = only(review(home({ flood_zone: "AE" })), "home-flood");
    expect(finding).toMatchObject({ severity: "gap", title: "Home in a flood zone without flood insurance" });
    expect(finding.detail).toContain("flood zone AE");
  });

  it("is no finding with a flood policy, outside the zone, or when the data says nothing", () => {
    expect(
      of(review(home({ flood_zone: "AE" }, [policy("FLOOD", { dwellings: [dwelling()] })])), "home-flood"),
    ).toEqual([]);
    expect(of(review(home({ flood_zone: "X" })), "home-flood")).toEqual([]);
    expect(of(review(home({ in_flood_zone: false })), "home-flood")).toEqual([]);
    expect(of(review(home({ year_built: 1990 })), "home-flood")).toEqual([]);
    expect(of(review(home(null)), "home-flood")).toEqual([]);
  });

  it("is unknown for a zone it cannot place", () => {
    expect(only(review(home({ flood_zone: "D" })), "home-flood").severity).toBe("unknown");
  });
});

describe("every line: expiry", () => {
  const expiring = (expiry: string, values: Record<string, unknown> = {}) =>
    pullOf([homePolicy([dwelling()], { expiry_date: `${expiry}T05:00:00Z`, ...values })]);

  it("warns within the renewal lead time, and not a day after it", () => {
    const finding = only(review(expiring("2026-04-15")), "policy-expiring");
    expect(finding).toMatchObject({ severity: "warning", title: "Expires in 45 days" });
    expect(finding.detail).toContain("Apr 15, 2026");
    expect(finding.key).toMatch(/^policy-expiring:HO-\d+:2026-04-15$/);
    expect(of(review(expiring("2026-04-16")), "policy-expiring")).toEqual([]);
    expect(only(review(expiring("2026-04-16"), { leadTimeDays: 60 }), "policy-expiring").title).toBe(
      "Expires in 46 days",
    );
    expect(only(review(expiring("2026-03-01")), "policy-expiring").title).toBe("Expires today");
  });

  it("is unknown when a policy listed active ended its term already", () => {
    expect(only(review(expiring("2026-02-01")), "policy-expiring")).toMatchObject({
      severity: "unknown",
      title: "Term ended, yet listed in force",
    });
  });
});

describe("every line: cancellation and lapses", () => {
  it("is a gap when cancelled with nothing in force, a warning when replaced", () => {
    const cancelled = policy("AUTO", {
      status: "CANCELLED",
      canceled_date: "2026-02-10T00:00:00Z",
      vehicles: [vehicle()],
    });
    const alone = only(review(pullOf([cancelled])), "policy-cancelled");
    expect(alone).toMatchObject({ severity: "gap", title: "Auto policy cancelled, none in force" });
    expect(alone.detail).toContain("Feb 10, 2026");
    expect(only(review(pullOf([cancelled, autoPolicy([vehicle()])])), "policy-cancelled").severity).toBe("warning");
  });

  it("warns of a pending cancellation", () => {
    expect(
      only(review(pullOf([autoPolicy([vehicle()], { status: "PENDING_CANCELLATION" })])), "policy-cancelled").title,
    ).toBe("Pending cancellation");
  });

  it("is a gap when the renewal starts after the term ends, none when it starts the same day", () => {
    const late = pullOf([autoPolicy([vehicle()], { renewal_date: "2027-01-11T00:00:00Z" })]);
    const finding = only(review(late), "policy-lapse");
    expect(finding.detail).toContain("10 days without cover");
    expect(
      of(review(pullOf([autoPolicy([vehicle()], { renewal_date: "2027-01-01T00:00:00Z" })])), "policy-lapse"),
    ).toEqual([]);
  });

  it("is a gap between two terms of a line with days uncovered between them", () => {
    const before = autoPolicy([vehicle()], {
      status: "EXPIRED",
      effective_date: "2025-01-01T00:00:00Z",
      expiry_date: "2025-07-01T00:00:00Z",
    });
    const after = autoPolicy([vehicle()], {
      effective_date: "2025-08-01T00:00:00Z",
      expiry_date: "2026-08-01T00:00:00Z",
    });
    expect(only(review(pullOf([before, after])), "policy-lapse").detail).toContain("31 days without cover");
    const continuous = autoPolicy([vehicle()], {
      effective_date: "2025-07-01T00:00:00Z",
      expiry_date: "2026-07-01T00:00:00Z",
    });
    expect(of(review(pullOf([before, continuous])), "policy-lapse")).toEqual([]);
  });

  it("is a gap when a policy expired with nothing of its line in force", () => {
    const expired = autoPolicy([vehicle()], {
      status: "EXPIRED",
      effective_date: "2025-01-01T00:00:00Z",
      expiry_date: "2026-01-01T00:00:00Z",
    });
    expect(only(review(pullOf([expired])), "policy-lapse").title).toBe("Auto policy expired, none in force");
  });
});

describe("odd or missing data", () => {
  it("says what is missing: a premium, a $0 premium, a line, a status, limited access", () => {
    const findings = review(
      pullOf([
        homePolicy([dwelling()], { total_premium_cents: null, carrier_policy_number: "NOPREM" }),
        homePolicy([dwelling()], { total_premium_cents: 0, carrier_policy_number: "ZERO" }),
        policy("SPACESHIP", { carrier_policy_number: "ODD" }),
        homePolicy([dwelling()], { status: "DORMANT", carrier_policy_number: "DORM" }),
        autoPolicy([], { limited_access: true, carrier_policy_number: "LTD" }),
      ]),
    );
    const data = of(findings, "policy-data");
    expect(data.every((f) => f.severity === "unknown")).toBe(true);
    expect(data.map((f) => f.title)).toEqual(
      expect.arrayContaining([
        "Premium not stated",
        "Premium of $0",
        "Line of business not recognised",
        "Status not recognised",
        "Carrier gave limited access",
      ]),
    );
    expect(findings.filter((f) => f.severity === "gap")).toEqual([]);
  });
});

describe("a policy the carrier gave limited access to", () => {
  it("reads a cover it does not list as unknown, never as missing; figures it does list still count", () => {
    const UM = "Uninsured / Underinsured Motorist Bodily Injury Liability";
    const car = vehicle({ lien_holder: "Ally" }, [
      coverage("Bodily Injury Liability", split(25_000, 50_000)),
      ...without([UM, "Collision", "Bodily Injury Liability"]),
    ]);
    const findings = review(
      pullOf([
        autoPolicy([car], { limited_access: true }),
        homePolicy([dwelling({}, soundHome(400_000).slice(0, 3))], { limited_access: true }),
      ]),
    );
    expect(only(findings, "auto-uninsured-motorist").severity).toBe("unknown");
    expect(only(findings, "auto-financed-physical-damage").severity).toBe("unknown");
    expect(only(findings, "home-water-backup").severity).toBe("unknown");
    expect(only(findings, "auto-bodily-injury").severity).toBe("gap");
    expect(of(findings, "policy-data").map((f) => f.detail)).toEqual([
      expect.stringContaining("may be incomplete"),
      expect.stringContaining("may be incomplete"),
    ]);
  });
});

describe("the review as a whole", () => {
  it("lists gaps first, then warnings, then unknowns", () => {
    const coverages = [
      ...without(["Property Damage Liability", "Collision"]),
      coverage("Property Damage Liability", limit(50_000)),
      coverage("Collision", deductible(2_000)),
    ];
    const pull = pullOf([autoPolicy([vehicle({}, coverages)], { total_premium_cents: null })]);
    expect(review(pull).map((f) => [f.severity, f.rule])).toEqual([
      ["gap", "auto-property-damage"],
      ["warning", "auto-deductible"],
      ["unknown", "policy-data"],
    ]);
  });

  it("runs no rule the agency switched off", () => {
    const pull = autoWith([
      coverage("Bodily Injury Liability", split(25_000, 50_000)),
      ...without(["Bodily Injury Liability"]),
    ]);
    expect(of(review(pull, { off: ["auto-bodily-injury"] }), "auto-bodily-injury")).toEqual([]);
  });

  it("keeps its keys across a refresh that gives every record a new id", () => {
    const bi = () => [
      coverage("Bodily Injury Liability", split(25_000, 50_000)),
      ...without(["Bodily Injury Liability"]),
    ];
    const first = pullOf([
      autoPolicy([vehicle({ vin: "1HGCM82633A004352" }, bi())], { carrier_policy_number: "AU-1" }),
    ]);
    const again = pullOf([
      autoPolicy([vehicle({ vin: "1HGCM82633A004352" }, bi())], { carrier_policy_number: "AU-1" }),
    ]);
    expect(review(again).map((f) => f.key)).toEqual(review(first).map((f) => f.key));
    expect(review(first).map((f) => f.key)).toContain("auto-bodily-injury:AU-1");
  });

  it("gives every finding its own key even when two policies share a number", () => {
    const twin = (expiry: string) =>
      autoPolicy(
        [
          vehicle({}, [
            coverage("Bodily Injury Liability", split(25_000, 50_000)),
            ...without(["Bodily Injury Liability"]),
          ]),
        ],
        {
          carrier_policy_number: "SAME",
          effective_date: `${expiry.slice(0, 4)}-01-01T00:00:00Z`,
          expiry_date: `${expiry}T00:00:00Z`,
        },
      );
    const keys = review(pullOf([twin("2026-12-31"), twin("2027-12-31")])).map((f) => f.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("refuses a day that is not an ISO day", () => {
    expect(() => reviewHousehold(pullOf([]), SETTINGS, "03/01/2026")).toThrow(/ISO day/);
  });
});
