import { describe, expect, it } from "vitest";
import type { Pull } from "@/lib/service/schemas";
import {
  autoPolicy,
  driver,
  dwelling,
  homeCoverage,
  homePolicy,
  limit,
  policy,
  pullOf,
  vehicle,
} from "@/test/review-pulls";
import { readXml } from "@/test/xml-document";
import { buildEzlynxHome, EZHOME_NAMESPACE } from "./ezlynx-home";

// The EZHOME file: one dwelling, every element V200 requires present in its sequence's order,
// the pull's values where it has them and stated defaults (listed to check) where it has not.

const TODAY = "2026-11-28";

function homeOf(pull: Pull) {
  const file = buildEzlynxHome(pull, TODAY);
  if (!file) throw new Error("expected an EZHOME file");
  return { ...file, doc: readXml(file.xml) };
}

const address = {
  number: "12",
  street: "Elm",
  type: "St",
  city: "Springfield",
  state: "IL",
  zip: "62701",
};

const household = (values: Record<string, unknown> = {}) =>
  pullOf(
    [
      homePolicy(
        [
          dwelling(
            {
              address,
              property_data: {
                year_built: 1994,
                num_units: 1,
                num_stories: 2,
                has_pool: true,
                roof_cover: "ASPHALT",
                heating_fuel: "GAS",
                square_ft: 2100,
                purchase_date: "2019-06-15",
              },
            },
            [
              homeCoverage("DWELLING", limit(400_000)),
              homeCoverage("PERSONAL_PROPERTY", limit(200_000)),
              homeCoverage("PERSONAL_LIABILITY", limit(300_000)),
              homeCoverage("MEDICAL_PAYMENTS", limit(5_000)),
              homeCoverage("ALL_PERILS", { deductible_cents: 1_000_00 }),
              homeCoverage("WINDSTORM_OR_HAIL", { deductible_percent: "2.000" }),
            ],
          ),
        ],
        {
          carrier_friendly_name: "Allstate",
          expiry_date: "2027-03-01T00:00:00Z",
          effective_date: "2024-03-01T00:00:00Z",
        },
      ),
    ],
    {
      first_name: "Zoë",
      last_name: "O'Brien & <Sons>",
      drivers: [
        driver("Zoë", "O'Brien", {
          relationship_to_insured: "INSURED",
          gender: "FEMALE",
          marital_status: "MARRIED",
          date_of_birth_str: "1980-02-29",
        }),
      ],
      mobile_phone: "+1 (312) 555-0142",
      ...values,
    },
  );

describe("the EZHOME file", () => {
  it("holds every part V200 requires, in the order of its sequences", () => {
    const { doc } = homeOf(household());
    expect(doc.name).toBe("EZHOME");
    expect(doc.namespace).toBe(EZHOME_NAMESPACE);
    expect(doc.childNames()).toEqual([
      "Applicant",
      "PriorPolicyInfo",
      "PolicyInfo",
      "RatingInfo",
      "ReplacementCost",
      "Endorsements",
      "GeneralInfo",
    ]);
    expect(doc.at("Applicant/PersonalInfo").childNames()).toEqual([
      "Name",
      "DOB",
      "Gender",
      "MaritalStatus",
      "Relation",
      "Industry",
      "Occupation",
    ]);
    expect(doc.at("Applicant/Address").childNames()).toEqual([
      "AddressCode",
      "Addr1",
      "Addr2",
      "City",
      "StateCode",
      "County",
      "Zip5",
      "Phone",
      "YearsAtAddress",
    ]);
    expect(doc.at("PriorPolicyInfo").childNames()).toEqual([
      "PriorCarrier",
      "Expiration",
      "YearsWithPriorCarrier",
      "YearsWithContinuousCoverage",
      "PriorPolicyPremium",
    ]);
    expect(doc.at("PolicyInfo").childNames()).toEqual([
      "PolicyTerm",
      "PolicyType",
      "Package",
      "Effective",
      "CreditCheckAuth",
    ]);
    expect(doc.at("RatingInfo").childNames()).toEqual([
      "PropertyInsCancelledLapsed",
      "YearBuilt",
      "Dwelling",
      "DwellingUse",
      "DistanceToFireHydrant",
      "WithinCityLimits",
      "DistanceToFireStation",
      "WithinFireDistrict",
      "ProtectionClass",
      "NumberOfStories",
      "Construction",
      "Structure",
      "Roof",
      "SwimmingPool",
      "SwimmingPoolFenced",
      "DogOnPremises",
      "HeatingType",
      "RoofingUpdate",
      "RoofingUpdateYear",
      "ElectricalUpdate",
      "ElectricalUpdateYear",
      "PlumbingUpdate",
      "PlumbingUpdateYear",
      "HeatingUpdate",
      "HeatingUpdateYear",
      "UnderConstruction",
      "SquareFootage",
      "PurchaseDate",
      "BusinessOnPremises",
    ]);
    expect(doc.at("ReplacementCost").childNames()).toEqual([
      "ReplacementCost",
      "Dwelling",
      "PersonalProperty",
      "PersonalLiability",
      "MedicalPayments",
      "DeductibeInfo",
      "RatingCredits",
    ]);
  });

  it("writes the dwelling, its limits and the carrier where V200 has a place for them", () => {
    const { doc } = homeOf(household());
    expect(doc.at("Applicant/Address/Addr1/StreetNumber").text).toBe("12");
    expect(doc.at("Applicant/Address/Addr1/StreetName").text).toBe("Elm St");
    expect(doc.at("Applicant/Address/Phone/PhoneNumber").text).toBe("3125550142");
    expect(doc.at("Applicant/Address/YearsAtAddress").text).toBe("7");
    expect(doc.at("Applicant/PersonalInfo/DOB").text).toBe("1980-02-29");
    expect(doc.at("Applicant/PersonalInfo/Gender").text).toBe("Female");
    expect(doc.at("Applicant/PersonalInfo/MaritalStatus").text).toBe("Married");
    expect(doc.at("PriorPolicyInfo/PriorCarrier").text).toBe("Allstate");
    expect(doc.at("PriorPolicyInfo/Expiration").text).toBe("2027-03-01");
    expect(doc.at("PriorPolicyInfo/YearsWithPriorCarrier/Years").text).toBe("2");
    expect(doc.at("PriorPolicyInfo/YearsWithPriorCarrier/Months").text).toBe("8");
    expect(doc.at("PolicyInfo/PolicyType").text).toBe("HO3");
    expect(doc.at("PolicyInfo/Effective").text).toBe("2027-03-01");
    expect(doc.at("RatingInfo/YearBuilt").text).toBe("1994");
    expect(doc.at("RatingInfo/SwimmingPool").text).toBe("Yes");
    expect(doc.at("RatingInfo/Roof").text).toBe("ASPHALT SHINGLES");
    expect(doc.at("RatingInfo/HeatingType").text).toBe("Gas");
    expect(doc.at("RatingInfo/NumberOfStories").text).toBe("2");
    expect(doc.at("ReplacementCost/ReplacementCost").text).toBe("400000");
    expect(doc.at("ReplacementCost/Dwelling").text).toBe("400000");
    expect(doc.at("ReplacementCost/PersonalProperty").text).toBe("200000");
    expect(doc.at("ReplacementCost/PersonalLiability").text).toBe("300000");
    expect(doc.at("ReplacementCost/MedicalPayments").text).toBe("5000");
    expect(doc.at("ReplacementCost/DeductibeInfo/Deductible").text).toBe("1000");
    expect(doc.at("ReplacementCost/DeductibeInfo/WindDeductible").text).toBe("2%");
    expect(doc.at("GeneralInfo/RatingStateCode").text).toBe("IL");
  });

  it("keeps the name out of V200's name fields and writes it, escaped, in the comments", () => {
    const { xml, doc, leftOut } = homeOf(household());
    expect(doc.at("Applicant/PersonalInfo/Name").childNames()).toEqual([]);
    expect(doc.at("GeneralInfo/Comments").text).toBe("Applicant: Zoë O'Brien & <Sons>");
    expect(xml).toContain("O'Brien &amp; &lt;Sons&gt;");
    expect(leftOut).toContainEqual(expect.stringMatching(/^The applicant's name in EZLynx's name fields/));
  });

  it("writes stated defaults for what the pull cannot give, and lists each to check", () => {
    const bare = pullOf(
      [homePolicy([dwelling({ address, coverages: [] })], { carrier_friendly_name: "Acme Mutual" })],
      {
        drivers: [],
      },
    );
    const { doc, toCheck } = homeOf(bare);
    expect(doc.at("Applicant/PersonalInfo/DOB").text).toBe("1900-01-01");
    expect(doc.at("RatingInfo/YearBuilt").text).toBe("1900");
    expect(doc.at("PriorPolicyInfo/PriorCarrier").text).toBe("Other Standard");
    expect(doc.at("ReplacementCost/PersonalLiability").text).toBe("300000");
    expect(toCheck).toEqual(
      expect.arrayContaining([
        'Date of birth: not in the pull, written as "1900-01-01".',
        'Year built: not in the pull, written as "1900".',
        'Prior carrier: Acme Mutual is not in EZLynx\'s list, written as "Other Standard".',
        'Personal liability limit: not in the pull, written as "300000".',
        'County: not in the pull, written as "Unknown".',
      ]),
    );
  });

  it("writes one dwelling and lists the others as left out", () => {
    const second = dwelling({ address: { ...address, number: "14" } });
    const condo = policy("CONDO", {
      dwellings: [dwelling({ address: { full_address: "9 Lake Dr, Evanston, IL 60201" } })],
    });
    const pull = pullOf([homePolicy([dwelling({ address }), second]), condo]);
    const { doc, leftOut } = homeOf(pull);
    expect(doc.at("Applicant/Address/Addr1/StreetNumber").text).toBe("12");
    expect(leftOut[0]).toMatch(
      /^2 other dwellings \(EZHOME holds one; export each from EZLynx\): .*9 Lake Dr, Evanston, IL 60201\.$/,
    );
  });

  it("maps a condo to HO6", () => {
    const pull = pullOf([policy("CONDO", { dwellings: [dwelling({ address })] })]);
    expect(homeOf(pull).doc.at("PolicyInfo/PolicyType").text).toBe("HO6");
    expect(homeOf(pull).doc.at("RatingInfo/Structure").text).toBe("Condo");
  });

  it("has no file for a household without a dwelling on a home line", () => {
    expect(buildEzlynxHome(pullOf([autoPolicy([vehicle()])]), TODAY)).toBeNull();
    expect(buildEzlynxHome(pullOf([homePolicy([])]), TODAY)).toBeNull();
  });
});
