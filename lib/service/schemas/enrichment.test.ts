import { describe, expect, it } from "vitest";
import {
  enrichmentDriverLicenseSchema,
  enrichmentDrivingRecordIqSchema,
  enrichmentHouseholdSchema,
  enrichmentPropertyDataSchema,
} from "./enrichment";
import { parseTolerant } from "./problems";
import { kindsAt, only } from "./test-support";

// The enrichment lookups (spec 2.18): public-record data about a driver, a household or a
// property. Same tolerance as a pull: odd fields read as null and are reported.

const license = {
  first_name: "Clark",
  middle_name: null,
  last_name: "Kent",
  date_of_birth_str: "05/03/1987",
  drivers_license: "SUP1234017",
  drivers_license_state: "DC",
  gender: "MALE",
  marital_status: "SINGLE",
};

describe("driver license", () => {
  it("reads the license and its holder", () => {
    const body = { driver_license_id: "0d5f6c1e-6f53-4c1e-9a3e-2b1a4c5d6e7f", driver_license: license };
    expect(parseTolerant(enrichmentDriverLicenseSchema, body)).toEqual({ ok: true, value: body, problems: [] });
  });

  it("keeps gender as plain text, since the lookup does not use the pull's enum", () => {
    const result = parseTolerant(enrichmentDriverLicenseSchema, {
      driver_license_id: "x",
      driver_license: { ...license, gender: "M" },
    });
    expect(result.ok && result.value.driver_license?.gender).toBe("M");
    expect(result.ok && result.problems).toEqual([]);
  });

  it("reads a license object of the wrong type as null and reports it", () => {
    const result = parseTolerant(enrichmentDriverLicenseSchema, {
      driver_license_id: "x",
      driver_license: "SUP1234017",
    });
    expect(result.ok && result.value.driver_license).toBeNull();
    expect(result.ok && kindsAt(result.problems, "driver_license")).toEqual(["wrong_type"]);
  });
});

describe("driving record IQ", () => {
  it("reads the status and counts", () => {
    const record = {
      status: "MINOR_VIOLATIONS",
      minor_violations: 2,
      last_minor_violation_date_str: "2024-05-01",
      major_violations: 0,
      last_major_violation_date_str: null,
    };
    const result = parseTolerant(enrichmentDrivingRecordIqSchema, {
      driving_record_iq_id: "r-1",
      driving_record_iq: record,
    });
    expect(result.ok && result.value.driving_record_iq).toEqual(record);
  });

  it("counts default to 0 when left out, as the spec says, but a wrong count is null and reported", () => {
    const result = parseTolerant(enrichmentDrivingRecordIqSchema, {
      driving_record_iq_id: "r-1",
      driving_record_iq: { status: "CLEAN", major_violations: "many" },
    });
    expect(result.ok && result.value.driving_record_iq).toMatchObject({
      status: "CLEAN",
      minor_violations: 0,
      major_violations: null,
    });
    expect(result.ok && kindsAt(result.problems, "driving_record_iq.major_violations")).toEqual(["wrong_type"]);
  });

  it("keeps an undocumented status, as no problem", () => {
    const result = parseTolerant(enrichmentDrivingRecordIqSchema, {
      driving_record_iq_id: "r-1",
      driving_record_iq: { status: "PENDING" },
    });
    expect(result.ok && result.value.driving_record_iq?.status).toBe("PENDING");
    expect(result.ok && result.problems).toEqual([]);
  });
});

describe("household", () => {
  it("reads drivers and vehicles, and keeps vehicles that carry no id", () => {
    const vehicle = {
      vin: "1G1FK1R62J0158884",
      year: 2018,
      make: "CHEVROLET",
      model: "Camaro",
      series: "ZL1",
      series2: null,
      type: "PASSENGER CAR",
      ownership_type: "FINANCE",
      lien_holder: "Metropolis Bank",
      purchase_date: "2018-03-01",
    };
    const result = parseTolerant(enrichmentHouseholdSchema, {
      household_id: "h-1",
      drivers: [license],
      vehicles: [vehicle],
    });
    expect(result).toEqual({
      ok: true,
      value: { household_id: "h-1", drivers: [license], vehicles: [vehicle] },
      problems: [],
    });
  });

  it("reports a vehicle field of the wrong type at its path", () => {
    const result = parseTolerant(enrichmentHouseholdSchema, {
      household_id: "h-1",
      vehicles: [{ year: "two thousand" }],
    });
    expect(result.ok && only(result.value.vehicles).year).toBeNull();
    expect(result.ok && kindsAt(result.problems, "vehicles[0].year")).toEqual(["wrong_type"]);
  });
});

describe("property data", () => {
  it("reads the address and the public-record data", () => {
    const address = {
      country: null,
      number: "344",
      street: "Clinton",
      type: "St",
      city: "Brooklyn",
      state: "NY",
      sec_unit_type: "Apartment",
      sec_unit_num: "3D",
      zip: "11231",
      prefix: null,
    };
    const data = {
      apn: "02192-04-018-000",
      class: "SINGLE_FAMILY_RESIDENCE_TOWNHOUSE",
      year_built: 1950,
      square_ft: 934,
      market_total_value_cents: 51940000,
      purchase_date: "2016-06-29",
      roof_cover: "SHINGLE",
    };
    const result = parseTolerant(enrichmentPropertyDataSchema, { address, data });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.address).toEqual(address);
    expect(result.value.data).toMatchObject(data);
    expect(result.problems).toEqual([]);
  });

  it("keeps an undocumented roof cover, as no problem", () => {
    const result = parseTolerant(enrichmentPropertyDataSchema, { address: {}, data: { roof_cover: "SOLAR_TILE" } });
    expect(result.ok && result.value.data?.roof_cover).toBe("SOLAR_TILE");
    expect(result.ok && result.problems).toEqual([]);
  });
});
