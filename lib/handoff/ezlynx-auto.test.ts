import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parsePull, type Pull } from "@/lib/service/schemas";
import {
  autoPolicy,
  coverage,
  driver,
  dwelling,
  homePolicy,
  limit,
  onVehicle,
  pullOf,
  split,
  vehicle,
} from "@/test/review-pulls";
import { readXml, wellFormedProblem } from "@/test/xml-document";
import { buildEzlynxAuto, EZAUTO_NAMESPACE } from "./ezlynx-auto";
import { splitAddress } from "./ezlynx-values";

// The EZAUTO file as EZLynx's import reads it: the pull's values in the elements V200 names, in
// the order of its sequences, escaped, with at most six drivers and vehicles and a list of what
// was left out. (The file is also validated against the published schema with xmllint, outside
// the tests: docs/handoff.md.)

function autoOf(pull: Pull) {
  const file = buildEzlynxAuto(pull);
  if (!file) throw new Error("expected an EZAUTO file");
  return { ...file, doc: readXml(file.xml) };
}

const personal = (): Pull => {
  const parsed = parsePull(JSON.parse(readFileSync("lib/service/fixtures/real/pulls/personal.json", "utf8")).pull);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.pull;
};

describe("the EZAUTO file of the service's published example pull", () => {
  const { doc, leftOut, toCheck } = autoOf(personal());

  it("is well-formed XML in EZLynx's auto namespace, its parts in the schema's order", () => {
    expect(doc.name).toBe("EZAUTO");
    expect(doc.namespace).toBe(EZAUTO_NAMESPACE);
    expect(doc.childNames()).toEqual([
      "Applicant",
      "PriorPolicyInfo",
      "Drivers",
      "Vehicles",
      "Coverages",
      "GeneralInfo",
    ]);
    expect(doc.at("Applicant").childNames()).toEqual(["ApplicantType", "PersonalInfo", "Address"]);
    expect(doc.at("Applicant/Address").childNames()).toEqual([
      "AddressCode",
      "Addr1",
      "City",
      "StateCode",
      "Zip5",
      "Phone",
      "Phone",
      "Email",
    ]);
  });

  it("writes the applicant with the street split into number and name", () => {
    expect(doc.at("Applicant/ApplicantType").text).toBe("Applicant");
    expect(doc.at("Applicant/PersonalInfo/Name/FirstName").text).toBe("Clark");
    expect(doc.at("Applicant/PersonalInfo/Name/LastName").text).toBe("Kent");
    expect(doc.at("Applicant/PersonalInfo/DOB").text).toBe("1987-05-03");
    expect(doc.at("Applicant/PersonalInfo/Gender").text).toBe("Male");
    expect(doc.at("Applicant/Address/Addr1/StreetNumber").text).toBe("344");
    expect(doc.at("Applicant/Address/Addr1/StreetName").text).toBe("Clinton St");
    expect(doc.at("Applicant/Address/Addr1/UnitNumber").text).toBe("Apartment 3D");
    expect(doc.at("Applicant/Address/City").text).toBe("Brooklyn");
    expect(doc.at("Applicant/Address/StateCode").text).toBe("NY");
    expect(doc.at("Applicant/Address/Zip5").text).toBe("11231");
    expect(doc.at("Applicant/Address/Phone/PhoneNumber").text).toBe("8885550000");
    expect(doc.at("Applicant/Address/Email").text).toBe("clark.kent@theplanet.com");
  });

  it("writes the driver and the vehicle with their ids, and the current policy as prior insurance", () => {
    const [driverElement] = doc.at("Drivers").all("Driver");
    expect(driverElement?.attr("id")).toBe("1");
    expect(driverElement?.at("DLNumber").text).toBe("SUP1234017");
    expect(driverElement?.at("DLState").text).toBe("DC");
    expect(driverElement?.at("Rated").text).toBe("Rated");
    const [car] = doc.at("Vehicles").all("Vehicle");
    expect(car?.attr("id")).toBe("1");
    expect(car?.at("Year").text).toBe("2018");
    expect(car?.at("Vin").text).toBe("1G1FK1R62J0158884");
    expect(car?.at("UseVinLookup").text).toBe("Yes");
    expect(doc.at("PriorPolicyInfo/PriorCarrier").text).toBe("State Farm");
    expect(doc.at("PriorPolicyInfo/PriorLiabilityLimit").text).toBe("100/300");
    expect(doc.at("PriorPolicyInfo/PriorPolicyTerm").text).toBe("6 Month");
    expect(doc.at("GeneralInfo/RatingStateCode").text).toBe("NY");
  });

  it("writes the policy's limits in V200's words, and says what it left for EZLynx", () => {
    expect(doc.at("Coverages/GeneralCoverage").childNames()).toEqual(["BI", "PD", "MP", "UM", "UIM"]);
    expect(doc.at("Coverages/GeneralCoverage/BI").text).toBe("100/300");
    expect(doc.at("Coverages/GeneralCoverage/PD").text).toBe("50000");
    expect(doc.at("Coverages/GeneralCoverage/MP").text).toBe("None");
    expect(doc.at("Coverages/GeneralCoverage/UM").text).toBe("15/30");
    expect(doc.at("Coverages/GeneralCoverage/UIM").text).toBe("Reject");
    expect(toCheck).toContain(
      'The policy lists no medical payments, underinsured motorist coverage: written as none ("None", "Reject").',
    );
    expect(leftOut.some((line) => line.startsWith("How 2018 CHEVROLET Camaro"))).toBe(true);
    expect(leftOut.some((line) => line.startsWith("Deductibles and optional coverages"))).toBe(true);
  });
});

describe("EZAUTO from a hand-built household", () => {
  it("keeps six vehicles and six drivers, and lists by name what it left out", () => {
    const cars = Array.from({ length: 8 }, (_, i) => vehicle({ year: 2010 + i, make: "Ford", model: `Model ${i}` }));
    const people = Array.from({ length: 7 }, (_, i) => driver(`Kid${i}`, "Reyes"));
    const { doc, leftOut } = autoOf(pullOf([autoPolicy(cars)], { drivers: people }));
    expect(
      doc
        .at("Vehicles")
        .all("Vehicle")
        .map((v) => v.at("Model").text),
    ).toEqual(["Model 0", "Model 1", "Model 2", "Model 3", "Model 4", "Model 5"]);
    expect(
      doc
        .at("Vehicles")
        .all("Vehicle")
        .map((v) => v.attr("id")),
    ).toEqual(["1", "2", "3", "4", "5", "6"]);
    expect(doc.at("Drivers").all("Driver")).toHaveLength(6);
    expect(leftOut).toContainEqual(
      expect.stringMatching(/^2 vehicles past the sixth .*2016 Ford Model 6 \(VIN .*\), 2017 Ford Model 7/),
    );
    expect(leftOut).toContainEqual("1 driver past the sixth (EZLynx holds six): Kid6 Reyes.");
  });

  it("escapes what the carrier wrote and drops characters XML cannot hold", () => {
    const name = `Zoë "Q" <b>&amp;</b> O'Brien`;
    const pull = pullOf([autoPolicy([vehicle({ make: "Mäke & <Co>", model: "A\u0001B" })])], {
      first_name: name,
      last_name: "Ñúñez & Søn",
      addresses: [
        {
          address_id: "00000000-0000-4000-8000-0000000000aa",
          address_nature: "MAILING",
          number: "5",
          street: "Rue d'Été & <Main>",
          city: "Tulsa",
          state: "ok",
          zip: "74103-1234",
        },
      ],
    });
    const { xml, doc } = autoOf(pull);
    expect(wellFormedProblem(xml)).toBeNull();
    expect(xml).toContain("&lt;b&gt;&amp;amp;&lt;/b&gt;");
    expect(xml).not.toContain("<Co>");
    expect(doc.at("Applicant/PersonalInfo/Name/FirstName").text).toBe(name);
    expect(doc.at("Applicant/PersonalInfo/Name/LastName").text).toBe("Ñúñez & Søn");
    expect(doc.at("Applicant/Address/Addr1/StreetName").text).toBe("Rue d'Été & <Main>");
    expect(doc.at("Applicant/Address/StateCode").text).toBe("OK");
    expect(doc.at("Applicant/Address/Zip4").text).toBe("1234");
    expect(doc.at("Vehicles/Vehicle/Make").text).toBe("Mäke & <Co>");
    expect(doc.at("Vehicles/Vehicle/Model").text).toBe("AB");
  });

  it("maps the service's enumerations onto V200's", () => {
    const spouse = driver("Sam", "Reyes", {
      gender: "NONBINARY",
      marital_status: "CIVIL_UNION",
      relationship_to_insured: "DOMESTIC_PARTNERSHIP",
    });
    const son = driver("Leo", "Reyes", { relationship_to_insured: "SON", marital_status: "SINGLE", gender: "MALE" });
    const insured = driver("Dana", "Reyes", { relationship_to_insured: "INSURED", education: "HIGH_SCHOOL_GED" });
    const car = vehicle({ uses: ["PLEASURE", "COMMUTE"], ownership_type: "LEASE", annual_mileage: 12_000 }, undefined, [
      onVehicle(son, true),
    ]);
    const { doc } = autoOf(pullOf([autoPolicy([car], { state: "TX" })], { drivers: [spouse, son, insured] }));
    const drivers = doc.at("Drivers").all("Driver");
    // The insured comes first, as EZLynx's first driver.
    expect(drivers.map((d) => d.at("Name/FirstName").text)).toEqual(["Dana", "Sam", "Leo"]);
    expect(drivers[1]?.at("Gender").text).toBe("X - Not Specified");
    expect(drivers[1]?.at("MaritalStatus").text).toBe("Domestic Partner");
    expect(drivers[1]?.at("Relation").text).toBe("Domestic Partner");
    expect(drivers[2]?.at("Relation").text).toBe("Child");
    expect(drivers[2]?.at("Rated").text).toBe("Excluded");
    expect(doc.at("Applicant/PersonalInfo/Education").text).toBe("High School Diploma");
    expect(doc.at("VehiclesUse/VehicleUse").childNames()).toEqual(["Useage", "AnnualMiles", "Ownership"]);
    expect(doc.at("VehiclesUse/VehicleUse/Useage").text).toBe("To/From Work");
    expect(doc.at("VehiclesUse/VehicleUse/Ownership").text).toBe("Leased");
    expect(doc.at("VehiclesUse/VehicleUse").attr("id")).toBe("1");
    expect(doc.at("GeneralInfo/RatingStateCode").text).toBe("TX");
    // The partner is EZLynx's co-applicant, right after the applicant.
    const [applicant, coApplicant] = doc.all("Applicant");
    expect(applicant?.at("ApplicantType").text).toBe("Applicant");
    expect(coApplicant?.at("ApplicantType").text).toBe("CoApplicant");
    expect(coApplicant?.at("PersonalInfo/Name/FirstName").text).toBe("Sam");
    expect(coApplicant?.at("PersonalInfo/Relation").text).toBe("Domestic Partner");
    expect(doc.childNames().slice(0, 2)).toEqual(["Applicant", "Applicant"]);
  });

  it("writes combined single limits, and leaves the coverages out when a limit is not one V200 lists", () => {
    const csl = [
      coverage("Combined Single Limit", limit(300_000)),
      coverage("Property Damage Liability", limit(100_000)),
      coverage("Medical Payments", { per_person_limit_cents: 5_000_00 }),
      coverage("Uninsured / Underinsured Motorists", split(250_000, 500_000)),
    ];
    const { doc } = autoOf(pullOf([autoPolicy([vehicle({}, csl)])]));
    expect(doc.at("Coverages/GeneralCoverage/BI").text).toBe("300 CSL");
    expect(doc.at("Coverages/GeneralCoverage/MP").text).toBe("5000");
    expect(doc.at("Coverages/GeneralCoverage/UM").text).toBe("250/500");
    expect(doc.at("Coverages/GeneralCoverage/UIM").text).toBe("250/500");
    const odd = [
      coverage("Bodily Injury Liability", split(40_000, 80_000)),
      coverage("Property Damage Liability", limit(100_000)),
    ];
    const file = autoOf(pullOf([autoPolicy([vehicle({}, odd)])]));
    expect(file.doc.has("Coverages")).toBe(false);
    expect(file.leftOut).toContainEqual(
      expect.stringMatching(/^Coverages, limits and deductibles: the policy's limits are not all/),
    );
  });

  it("writes a model year past 2019 as the pull gives it, and says the published schema lists none", () => {
    const { doc, toCheck } = autoOf(pullOf([autoPolicy([vehicle({ year: 2024, make: "Kia", model: "EV6" })])]));
    expect(doc.at("Vehicles/Vehicle/Year").text).toBe("2024");
    expect(toCheck).toContainEqual(
      expect.stringMatching(/^Model year 2024 of 2024 Kia EV6 .* lists only 1966–2019\.$/),
    );
  });

  it("leaves out an address EZLynx would refuse, and says so", () => {
    const pull = pullOf([autoPolicy([vehicle()])], {
      addresses: [
        { address_id: "00000000-0000-4000-8000-0000000000ab", number: "9", street: "Oak", city: "Reno", state: "NV" },
      ],
    });
    const { doc, leftOut } = autoOf(pull);
    expect(doc.has("Applicant/Address")).toBe(false);
    expect(leftOut).toContainEqual(expect.stringMatching(/^The applicant's address/));
  });

  it("has no file for a household without a private passenger auto", () => {
    expect(buildEzlynxAuto(pullOf([homePolicy([dwelling()])]))).toBeNull();
    expect(buildEzlynxAuto(pullOf([autoPolicy([vehicle({ is_removed: true })])]))).toBeNull();
  });

  it("counts a vehicle listed on two policies once", () => {
    const car = vehicle({ vin: "1HGCM82633A004352" });
    const { doc } = autoOf(
      pullOf([autoPolicy([car]), autoPolicy([{ ...car, vehicle_id: "00000000-0000-4000-8000-0000000000ac" }])]),
    );
    expect(doc.at("Vehicles").all("Vehicle")).toHaveLength(1);
  });
});

describe("the street split", () => {
  it("reads number and name from the one-line address when the parts are missing", () => {
    expect(splitAddress({ full_address: "1600-B Pennsylvania Ave NW, Washington, DC 20500" } as never)).toMatchObject({
      streetNumber: "1600-B",
      streetName: "Pennsylvania Ave NW",
    });
    expect(splitAddress({ full_address: "Rural Route 2, Marfa, TX 79843" } as never)).toMatchObject({
      streetNumber: "",
      streetName: "Rural Route 2",
    });
    expect(splitAddress({ full_address: "   " } as never)).toBeNull();
  });

  it("joins the directional prefix, street and type, and keeps the unit apart", () => {
    expect(
      splitAddress({
        number: "12",
        prefix: "N",
        street: "Main",
        type: "St",
        sec_unit_type: "Apt",
        sec_unit_num: "4B",
        city: "Ames",
        state: "IA",
        zip: "50010",
      } as never),
    ).toEqual({
      streetNumber: "12",
      streetName: "N Main St",
      unit: "Apt 4B",
      city: "Ames",
      state: "IA",
      zip5: "50010",
      zip4: null,
    });
  });
});
