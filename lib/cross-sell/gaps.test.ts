import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parsePullResponse } from "@/lib/service/schemas";
import { acceptedPull } from "@/lib/service/schemas/test-support";
import { generatePulls } from "@/sandbox/data/pulls";
import {
  ageOn,
  crossSellGaps,
  GAP_CODES,
  gapMaskOf,
  gapsOfMask,
  UMBRELLA_TRIGGERS,
  type CrossSell,
  type GapCode,
} from "./gaps";

// Every rule of the cross-sell gaps: a gap where it applies, none at the boundary, nothing on
// missing or odd data; then real and generated payloads, hostile ones included, in words.

const TODAY = "2026-06-15";

type Fields = Record<string, unknown>;
let ids = 0;
const id = (prefix: string) => `${prefix}-${++ids}`;

const policy = (type: string | null, fields: Fields = {}): Fields => ({
  policy_id: id("policy"),
  policy_type: type,
  status: "ACTIVE",
  carrier_name: "progressive",
  carrier_friendly_name: "Progressive",
  total_premium_cents: 120_000,
  effective_date: "2026-01-01",
  expiry_date: "2027-01-01",
  vehicles: [],
  dwellings: [],
  ...fields,
});

const coverage = (fields: Fields): Fields => ({ dwelling_coverage_id: id("cov"), is_declined: false, ...fields });
const vehicleCoverage = (fields: Fields): Fields => ({
  vehicle_coverage_id: id("vcov"),
  is_declined: false,
  ...fields,
});

/** A home with a dwelling (Coverage A) limit and a personal liability limit, in dollars. */
const home = (type = "HOMEOWNERS", { dwelling = 300_000, liability = 100_000, fields = {} as Fields } = {}) =>
  policy(type, {
    carrier_name: "statefarm",
    carrier_friendly_name: "State Farm",
    dwellings: [
      {
        dwelling_id: id("dwelling"),
        address: { full_address: "12 Elm St, Springfield, IL 62701" },
        coverages: [
          coverage({ name: "DWELLING", friendly_name: "Dwelling", per_incident_limit_cents: dwelling * 100 }),
          coverage({
            name: "PERSONAL_LIABILITY",
            friendly_name: "Personal Liability",
            per_incident_limit_cents: liability * 100,
          }),
        ],
        ...fields,
      },
    ],
  });

/** An auto with 100/300 bodily injury unless told otherwise, in dollars. */
const auto = ({ perPerson = 100_000, perAccident = 300_000, fields = {} as Fields } = {}) =>
  policy("AUTO", {
    carrier_name: "statefarm",
    carrier_friendly_name: "State Farm",
    vehicles: [
      {
        vehicle_id: id("vehicle"),
        coverages: [
          vehicleCoverage({
            friendly_name: "Bodily Injury Liability",
            per_person_limit_cents: perPerson * 100,
            per_incident_limit_cents: perAccident * 100,
          }),
        ],
        drivers: [],
      },
    ],
    ...fields,
  });

const driver = (birth: unknown, first = "Jamie"): Fields => ({
  driver_id: id("driver"),
  first_name: first,
  last_name: "Doe",
  date_of_birth_str: birth,
});

function gapsOf(policies: Fields[], extra: Fields = {}): CrossSell {
  return crossSellGaps(acceptedPull({ policies, ...extra }).pull, TODAY);
}
const codes = (result: CrossSell): GapCode[] => result.gaps.map((g) => g.code);
const gap = (result: CrossSell, code: GapCode) => result.gaps.find((g) => g.code === code);

describe("auto without home, condo or renters", () => {
  it("finds a lone auto and puts its premium in play", () => {
    const result = gapsOf([policy("AUTO", { total_premium_cents: 60_200, expiry_date: "2026-07-01" })]);
    expect(codes(result)).toEqual(["AUTO_NO_HOME"]);
    // A six-month term: a year's premium is twice the term's.
    expect(gap(result, "AUTO_NO_HOME")).toMatchObject({ premiumInPlayCents: 120_400 });
    expect(gap(result, "AUTO_NO_HOME")?.detail).toBe(
      "Progressive auto ($1,204 a year) and no home, condo or renters policy in force: quote one to bundle with the auto, putting $1,204 a year of auto premium in play.",
    );
    expect(result).toMatchObject({ lines: ["AUTO"], policyCount: 1, carrierCount: 1, premiumInPlayCents: 120_400 });
  });

  it("finds none beside a renters or condo policy, and counts only policies in force", () => {
    expect(codes(gapsOf([policy("AUTO"), policy("RENTERS")]))).not.toContain("AUTO_NO_HOME");
    expect(codes(gapsOf([policy("AUTO"), home("CONDO")]))).not.toContain("AUTO_NO_HOME");
    // A quoted or cancelled home is not a home the household has.
    const quoted = gapsOf([policy("AUTO"), policy("HOMEOWNERS", { status: "QUOTE" })]);
    expect(codes(quoted)).toContain("AUTO_NO_HOME");
    expect(quoted.lines).toEqual(["AUTO"]);
    expect(codes(gapsOf([policy("AUTO", { status: "EXPIRED" })]))).toEqual([]);
  });

  it("says nothing of premium when none is stated, and ignores policy types it cannot read", () => {
    const result = gapsOf([policy("AUTO", { total_premium_cents: null }), policy("SPACESHIP"), policy(null)]);
    expect(result).toMatchObject({ lines: ["AUTO"], policyCount: 1, premiumInPlayCents: null });
    expect(gap(result, "AUTO_NO_HOME")?.detail).toMatch(/premium not stated.*bundle with the auto\.$/);
    expect(codes(gapsOf([policy("SPACESHIP"), policy(null)]))).toEqual([]);
  });
});

describe("no umbrella", () => {
  it("shows on home and auto when a liability limit reaches the trigger", () => {
    const result = gapsOf([home("HOMEOWNERS", { liability: 300_000 }), auto()]);
    expect(gap(result, "NO_UMBRELLA")).toMatchObject({
      title: "No umbrella over home and auto",
      premiumInPlayCents: null,
    });
    expect(gap(result, "NO_UMBRELLA")?.detail).toContain("$300,000 of personal liability on the homeowners");
  });

  it("shows for split auto limits of 250/500, a large dwelling, or a large premium", () => {
    expect(gap(gapsOf([home(), auto({ perPerson: 250_000, perAccident: 500_000 })]), "NO_UMBRELLA")?.detail).toContain(
      "auto bodily injury limits of $250,000/$500,000",
    );
    expect(gap(gapsOf([home("HOMEOWNERS", { dwelling: 500_000 }), auto()]), "NO_UMBRELLA")?.detail).toContain(
      "a dwelling insured for $500,000",
    );
    const pricey = gapsOf([home(), auto({ fields: { total_premium_cents: 380_000 } })]);
    expect(pricey.annualPremiumCents).toBe(UMBRELLA_TRIGGERS.householdPremiumCents);
    expect(gap(pricey, "NO_UMBRELLA")?.detail).toContain("$5,000 a year in premium");
  });

  it("stays away just under every trigger, with an umbrella, or without both lines", () => {
    const under = [
      home("HOMEOWNERS", { liability: 299_999, dwelling: 499_999 }),
      auto({ perPerson: 249_999, perAccident: 1_000_000, fields: { total_premium_cents: 100_000 } }),
    ];
    expect(codes(gapsOf(under))).not.toContain("NO_UMBRELLA");
    const rich = [home("HOMEOWNERS", { liability: 1_000_000 }), auto()];
    expect(codes(gapsOf([...rich, policy("UMBRELLA")]))).not.toContain("NO_UMBRELLA");
    expect(codes(gapsOf([home("HOMEOWNERS", { liability: 1_000_000 })]))).not.toContain("NO_UMBRELLA");
    expect(codes(gapsOf([auto({ perPerson: 500_000, perAccident: 1_000_000 })]))).not.toContain("NO_UMBRELLA");
  });

  it("reads no trigger from declined, missing or negative limits", () => {
    const declined = policy("AUTO", {
      vehicles: [
        {
          vehicle_id: "v",
          coverages: [
            vehicleCoverage({
              friendly_name: "Bodily Injury Liability",
              per_person_limit_cents: 50_000_000,
              is_declined: true,
            }),
            vehicleCoverage({
              friendly_name: "Uninsured Motorist Bodily Injury Liability",
              per_person_limit_cents: 50_000_000,
            }),
            vehicleCoverage({ friendly_name: "Combined Single Limit", per_incident_limit_cents: -50_000_000 }),
            vehicleCoverage({ friendly_name: "Bodily Injury Liability", per_person_limit_cents: "lots" }),
          ],
        },
      ],
    });
    expect(codes(gapsOf([home(), declined]))).not.toContain("NO_UMBRELLA");
  });
});

describe("no flood", () => {
  it("shows for an owned home without a flood policy, with its dwelling limit", () => {
    const result = gapsOf([home("HOMEOWNERS", { dwelling: 420_000 })]);
    expect(gap(result, "NO_FLOOD")).toMatchObject({ title: "No flood policy", premiumInPlayCents: null });
    expect(gap(result, "NO_FLOOD")?.detail).toMatch(
      /^State Farm homeowners \(\$1,200 a year\) covers a \$420,000 dwelling/,
    );
  });

  it("speaks more strongly when the property data places the home in a high-risk zone", () => {
    const zoned = home("HOMEOWNERS", { fields: { property_data: { property_data_id: "pd", flood_zone: " ae " } } });
    const result = gapsOf([zoned]);
    expect(gap(result, "NO_FLOOD")?.title).toBe("In a flood zone without flood insurance");
    expect(gap(result, "NO_FLOOD")?.detail).toContain("places 12 Elm St, Springfield, IL 62701 in FEMA flood zone AE");
    const flagged = home("HOMEOWNERS", { fields: { property_data: { in_flood_zone: true } } });
    expect(gap(gapsOf([flagged]), "NO_FLOOD")?.detail).toContain(
      "places 12 Elm St, Springfield, IL 62701 in a flood zone",
    );
    // A low-risk zone, or a value that is not a zone, reads as unknown.
    for (const zone of ["X", "shaded", 7])
      expect(
        gap(gapsOf([home("HOMEOWNERS", { fields: { property_data: { fema_flood_zone: zone } } })]), "NO_FLOOD")?.title,
      ).toBe("No flood policy");
  });

  it("finds none with a flood policy or endorsement, for renters, or for a flood policy quoted only", () => {
    expect(codes(gapsOf([home(), policy("FLOOD")]))).not.toContain("NO_FLOOD");
    const endorsed = home("HOMEOWNERS", {
      fields: { coverages: [coverage({ name: "FLOOD", per_incident_limit_cents: 25_000_000 })] },
    });
    expect(codes(gapsOf([endorsed]))).not.toContain("NO_FLOOD");
    expect(codes(gapsOf([policy("RENTERS")]))).not.toContain("NO_FLOOD");
    expect(codes(gapsOf([home(), policy("FLOOD", { status: "QUOTE" })]))).toContain("NO_FLOOD");
  });

  it("needs no dwelling details to show, and invents none", () => {
    const bare = gapsOf([policy("CONDO", { total_premium_cents: null })]);
    expect(gap(bare, "NO_FLOOD")?.detail).toBe(
      "Progressive condo (premium not stated), and no flood policy is in force: home policies exclude flood damage, and floods also reach homes outside the mapped high-risk zones.",
    );
  });
});

describe("young drivers", () => {
  it("reads an age from the date formats carriers send, and nothing from odd ones", () => {
    expect(ageOn("2002-06-15", TODAY)).toBe(24);
    expect(ageOn("2002-06-16", TODAY)).toBe(23);
    expect(ageOn("06/16/2001", TODAY)).toBe(24);
    expect(ageOn("2001-06-15T00:00:00Z", TODAY)).toBe(25);
    for (const odd of [null, "", "**/**/2005", "2005", "02/30/2005", "13/01/2005", "2090-01-01", "1800-01-01", "soon"])
      expect(ageOn(odd, TODAY)).toBeNull();
  });

  it("flags drivers under 25 on an auto in force, youngest first, with the auto premium", () => {
    const result = gapsOf([auto(), home()], {
      drivers: [driver("1980-01-01", "Pat"), driver("2002-06-16", "Sam"), driver("2009-03-04", "Jamie")],
    });
    const young = gap(result, "YOUNG_DRIVER");
    expect(young).toMatchObject({ title: "2 drivers under 25", premiumInPlayCents: 120_000 });
    expect(young?.detail).toMatch(/^Jamie Doe \(17\) and Sam Doe \(23\) drive on State Farm auto \(\$1,200 a year\)/);
  });

  it("finds none at 25, without a birth date, without an auto, or for a child's odd date", () => {
    expect(codes(gapsOf([auto()], { drivers: [driver("2001-06-15")] }))).not.toContain("YOUNG_DRIVER");
    expect(codes(gapsOf([auto()], { drivers: [driver(null), driver("unknown"), driver(20_050_101)] }))).not.toContain(
      "YOUNG_DRIVER",
    );
    expect(codes(gapsOf([home()], { drivers: [driver("2008-01-01")] }))).not.toContain("YOUNG_DRIVER");
    expect(codes(gapsOf([auto()], { drivers: [driver("2020-01-01")] }))).not.toContain("YOUNG_DRIVER");
  });

  it("finds the drivers an auto lists on its vehicles, unless excluded there", () => {
    const withDriver = (excluded: boolean) =>
      auto({
        fields: {
          vehicles: [{ vehicle_id: "v", coverages: [], drivers: [{ ...driver("2007-01-01"), is_excluded: excluded }] }],
        },
      });
    expect(codes(gapsOf([withDriver(false)]))).toContain("YOUNG_DRIVER");
    expect(codes(gapsOf([withDriver(true)]))).not.toContain("YOUNG_DRIVER");
  });
});

describe("several carriers", () => {
  it("puts in play the premium outside the carrier with the most", () => {
    const result = gapsOf([
      policy("AUTO", { total_premium_cents: 150_000 }),
      home("HOMEOWNERS"), // State Farm, $1,200
      policy("MOTORCYCLE", { carrier_name: "geico", carrier_friendly_name: "GEICO", total_premium_cents: 30_000 }),
    ]);
    const multi = gap(result, "MULTI_CARRIER");
    expect(multi).toMatchObject({ title: "Lines with 3 carriers", premiumInPlayCents: 120_000 + 30_000 });
    expect(multi?.detail).toContain("a bundle with Progressive, which has the most of the premium");
    expect(result.carrierCount).toBe(3);
    // AUTO_NO_HOME does not apply (a home is there); MULTI_CARRIER's policies counted once.
    expect(result.premiumInPlayCents).toBe(150_000);
  });

  it("reads one carrier however it is spelled, and leaves out lines written apart and unnamed carriers", () => {
    const spelled = [policy("AUTO", { carrier_name: "statefarm", carrier_friendly_name: null }), home("HOMEOWNERS")];
    expect(codes(gapsOf(spelled))).not.toContain("MULTI_CARRIER");
    expect(gapsOf(spelled).carrierCount).toBe(1);
    const apart = [home("HOMEOWNERS"), policy("FLOOD", { carrier_name: "nfip", carrier_friendly_name: "NFIP" })];
    expect(codes(gapsOf(apart))).not.toContain("MULTI_CARRIER");
    const unnamed = [home("HOMEOWNERS"), policy("AUTO", { carrier_name: null, carrier_friendly_name: "  " })];
    expect(codes(gapsOf(unnamed))).not.toContain("MULTI_CARRIER");
  });
});

describe("real and generated payloads", () => {
  const clean = (result: CrossSell) => {
    for (const g of result.gaps) {
      expect(GAP_CODES).toContain(g.code);
      for (const words of [g.title, g.detail]) {
        expect(words).not.toMatch(/NaN|undefined|null|Infinity|\[object/);
        expect(words.trim()).toBe(words);
        expect(words.length).toBeGreaterThan(5);
      }
      if (g.premiumInPlayCents !== null) expect(Number.isSafeInteger(g.premiumInPlayCents)).toBe(true);
    }
    expect(new Set(result.gaps.map((g) => g.code)).size).toBe(result.gaps.length);
    expect(Number.isInteger(result.policyCount) && Number.isInteger(result.carrierCount)).toBe(true);
    if (result.premiumInPlayCents !== null && result.annualPremiumCents !== null)
      expect(result.premiumInPlayCents).toBeLessThanOrEqual(result.annualPremiumCents);
  };

  it("reads the service's published example pulls", () => {
    const dir = path.join(process.cwd(), "lib/service/fixtures/real/pulls");
    for (const name of ["personal", "commercial"]) {
      const parsed = parsePullResponse(JSON.parse(readFileSync(path.join(dir, `${name}.json`), "utf8")));
      if (!parsed.ok) throw new Error(parsed.error);
      const result = crossSellGaps(parsed.pull, TODAY);
      clean(result);
      if (name === "personal") {
        // Home, auto and term life, all State Farm, in force on their own dates (not ours).
        expect(result.lines).toEqual(["AUTO", "HOMEOWNERS", "TERM_LIFE"]);
        expect(result.carrierCount).toBe(1);
        expect(codes(result)).toEqual(["NO_FLOOD"]);
      }
    }
  });

  it("reads every generated account, the hostile ones included, in words", () => {
    const pulls = generatePulls(11, 72, new Date(`${TODAY}T12:00:00Z`));
    const seen = new Set<GapCode>();
    for (const raw of pulls) {
      const parsed = parsePullResponse(raw);
      if (!parsed.ok) throw new Error(parsed.error);
      const result = crossSellGaps(parsed.pull, TODAY);
      clean(result);
      for (const g of result.gaps) seen.add(g.code);
    }
    // The sandbox writes each household with one carrier (a flood policy apart), so every gap
    // but MULTI_CARRIER shows in its book.
    expect([...seen].sort()).toEqual(["AUTO_NO_HOME", "NO_FLOOD", "NO_UMBRELLA", "YOUNG_DRIVER"]);
  });

  it("survives payloads that are mostly nonsense", () => {
    const hostile = gapsOf(
      [
        policy("AUTO", {
          carrier_friendly_name: "<script>alert(1)</script>",
          total_premium_cents: Number.MAX_SAFE_INTEGER,
          effective_date: "yesterday",
          vehicles: [{ vehicle_id: "v", coverages: "none", drivers: [{ driver_id: "d", date_of_birth_str: {} }] }],
        }),
        policy("HOMEOWNERS", { dwellings: [{ dwelling_id: "d", address: null, coverages: [{}], property_data: 5 }] }),
      ],
      { drivers: "nobody" },
    );
    clean(hostile);
    // One carrier (the same id under a hostile name); a premium past any threshold.
    expect(codes(hostile)).toEqual(["NO_UMBRELLA", "NO_FLOOD"]);
  });

  it("turns the gaps into one integer and back, a bit each, unknown codes ignored", () => {
    expect(gapMaskOf([])).toBe(0);
    expect(gapMaskOf(["AUTO_NO_HOME"])).toBe(1);
    expect(gapMaskOf(["MULTI_CARRIER", "NO_FLOOD", "SOMETHING_ELSE"])).toBe(20);
    for (let mask = 0; mask < 1 << GAP_CODES.length; mask++) expect(gapMaskOf(gapsOfMask(mask))).toBe(mask);
    expect(gapsOfMask(20)).toEqual(["NO_FLOOD", "MULTI_CARRIER"]);
  });
});
