import { describe, expect, it } from "vitest";
import { acceptedPull, kindsAt, only } from "./test-support";

// Dwellings as the service sends them: the spec writes percentages as decimal strings, the
// service's own example pulls send numbers, and older payloads fill only the deprecated
// mortgagee fields. All of it must reach the screen.

const dwellingOf = (dwelling: Record<string, unknown>) => {
  const { pull, problems } = acceptedPull({
    policies: [{ policy_id: "p-1", policy_type: "HOMEOWNERS", dwellings: [{ dwelling_id: "dw-1", ...dwelling }] }],
  });
  return { dwelling: only(only(pull.policies).dwellings), problems };
};

describe("dwelling coverage percentages", () => {
  it("keep the spec's decimal string as written", () => {
    const { dwelling, problems } = dwellingOf({
      coverages: [{ dwelling_coverage_id: "c-1", name: "WINDSTORM_OR_HAIL", deductible_percent: "2.000" }],
    });
    expect(only(dwelling.coverages).deductible_percent).toBe("2.000");
    expect(problems).toEqual([]);
  });

  it("keep a number, as the service's examples send it, instead of dropping it", () => {
    const coverages = [
      { dwelling_coverage_id: "c-1", name: "OTHER_STRUCTURES", per_incident_limit_percent: 10 },
      { dwelling_coverage_id: "c-2", name: "ALL_OTHER_PERILS", deductible_percent: 1.5 },
    ];
    const { dwelling, problems } = dwellingOf({ coverages });
    expect(dwelling.coverages.map((c) => [c.per_incident_limit_percent, c.deductible_percent])).toEqual([
      ["10", null],
      [null, "1.5"],
    ]);
    expect(problems).toEqual([]);
  });

  it("report a percentage that is neither", () => {
    const { dwelling, problems } = dwellingOf({
      coverages: [{ dwelling_coverage_id: "c-1", per_incident_limit_percent: { value: 10 } }],
    });
    expect(only(dwelling.coverages).per_incident_limit_percent).toBeNull();
    expect(kindsAt(problems, "policies[0].dwellings[0].coverages[0].per_incident_limit_percent")).toEqual([
      "wrong_type",
    ]);
  });
});

describe("dwelling coverage names", () => {
  it("keep an unlisted friendly name such as the service's own 'Dwelling Liability', as no problem", () => {
    const { dwelling, problems } = dwellingOf({
      coverages: [{ dwelling_coverage_id: "c-1", name: "DWELLING", friendly_name: "Dwelling Liability" }],
    });
    expect(only(dwelling.coverages)).toMatchObject({ name: "DWELLING", friendly_name: "Dwelling Liability" });
    expect(problems).toEqual([]);
  });
});

describe("mortgagees", () => {
  it("read the list and the deprecated single fields side by side", () => {
    const address = {
      address_id: "a-1",
      full_address: "620 Atlantic Avenue, Brooklyn, NY, 11217",
      address_nature: "MORTGAGEE",
    };
    const { dwelling, problems } = dwellingOf({
      mortgagee_name: "Metropolis Bank",
      mortgage_loan_number: "123456789",
      mortgagee_address: address,
      mortgagees: [{ name: "Metropolis Bank", loan_number: "123456789", address, position: 1 }],
    });
    expect(dwelling).toMatchObject({
      mortgagee_name: "Metropolis Bank",
      mortgage_loan_number: "123456789",
      mortgagee_address: address,
    });
    expect(only(dwelling.mortgagees)).toMatchObject({
      name: "Metropolis Bank",
      loan_number: "123456789",
      address,
      position: 1,
    });
    expect(problems).toEqual([]);
  });
});

describe("property data", () => {
  it("reads the public-record fields and keeps extra ones such as property_data_fetched beside it", () => {
    const property = {
      property_data_id: "pd-1",
      dwelling_id: "dw-1",
      year_built: 1950,
      square_ft: 934,
      class: "SINGLE_FAMILY_RESIDENCE_TOWNHOUSE",
      purchase_date: "2016-06-29",
      purchase_price_cents: 500000,
    };
    const { dwelling, problems } = dwellingOf({
      property_data_fetched: true,
      property_data: property,
      extended_replacement_cost_percent: 50,
    });
    expect(dwelling.property_data).toMatchObject(property);
    expect(dwelling).toMatchObject({ property_data_fetched: true, extended_replacement_cost_percent: 50 });
    expect(problems).toEqual([]);
  });

  it("keeps an extended replacement cost outside 0–100, since it is what the carrier reported", () => {
    expect(dwellingOf({ extended_replacement_cost_percent: 125 }).dwelling.extended_replacement_cost_percent).toBe(125);
  });
});
