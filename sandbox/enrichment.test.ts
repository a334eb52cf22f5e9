import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DRIVING_RECORD_IQ_STATUSES,
  enrichmentDriverLicenseSchema,
  enrichmentDrivingRecordIqSchema,
  enrichmentHouseholdSchema,
  enrichmentPropertyDataSchema,
  OWNERSHIP_TYPES,
  propertyDataFields,
} from "@/lib/service/schemas";
import { parseAddressLine } from "./data/address-line";
import { startSandbox, type Sandbox } from "./server";

// The enrichment look-ups over real HTTP, as published: GET with query parameters (no body) on
// camelCase paths, one-line addresses, MM/DD/YYYY birth dates, the permissible-purpose fields.

const TEAM = "5f0c3c55-6d2a-4c8e-9a55-2d8f1b7c9e01";
const NOW = new Date("2026-06-15T00:00:00Z");
const auth = `Basic ${Buffer.from("id:secret").toString("base64")}`;
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    clientId: "id",
    clientSecret: "secret",
    teamId: TEAM,
    webhookUrl: null,
    webhookSecret: null,
    seed: 42,
    now: NOW,
    speed: 0.0001,
    deliverOnStart: false,
  });
});
afterAll(async () => {
  await sandbox?.close();
});

type Query = Record<string, string | undefined>;
const get = (kind: string, query: Query, headers: Record<string, string> = { authorization: auth }, method = "GET") => {
  const params = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
  return fetch(`${sandbox.baseUrl}/teams/${TEAM}/enrich/${kind}?${params}`, { method, headers });
};
const json = async (response: Response) => (await response.json()) as Record<string, unknown>;
async function expectError(response: Response, status: number, error: string) {
  expect(response.status).toBe(status);
  expect((await json(response)).error).toBe(error);
}

const ADDRESS = "1200 N Maple AVE APT 4B, Austin, TX 78701";
const PURPOSE = {
  purpose: "INSURANCE_UNDERWRITING",
  employee_name: "Dana Whitfield",
  employee_job_function: "Licensed agent",
};
const person = { first_name: "Maria", last_name: "Garcia", address: ADDRESS, ...PURPOSE };

describe("the one-line address", () => {
  it("is read into the parts the answers carry, and refused when it cannot be", () => {
    expect(parseAddressLine(ADDRESS)).toEqual({
      number: "1200",
      prefix: "N",
      street: "Maple",
      type: "AVE",
      sec_unit_type: "APT",
      sec_unit_num: "4B",
      city: "Austin",
      state: "TX",
      zip: "78701",
    });
    expect(parseAddressLine("77 Martin Luther King Jr BLVD, Tampa, FL 33602-1234")).toEqual({
      number: "77",
      street: "Martin Luther King Jr",
      type: "BLVD",
      city: "Tampa",
      state: "FL",
      zip: "33602-1234",
    });
    for (const bad of [
      "",
      "Maple AVE",
      "12 Maple AVE, Austin, Texas 78701",
      "12 Maple AVE, Austin, TX 787",
      "12 Maple AVE APT, Austin, TX 78701",
    ])
      expect(parseAddressLine(bad), bad).toBeNull();
  });
});

describe("enrichment look-ups", () => {
  it("answers propertyData by address with the address parts and every PropertyData field but the ids", async () => {
    const body = await json(await get("propertyData", { address: ADDRESS }));
    const parsed = enrichmentPropertyDataSchema.parse(body);
    expect(parsed.address).toMatchObject({
      number: "1200",
      prefix: "N",
      street: "Maple",
      type: "AVE",
      city: "Austin",
      state: "TX",
      zip: "78701",
      sec_unit_type: "APT",
      sec_unit_num: "4B",
      country: "US",
    });
    expect(Object.keys(body.address as object).sort()).toEqual([
      "city",
      "country",
      "number",
      "prefix",
      "sec_unit_num",
      "sec_unit_type",
      "state",
      "street",
      "type",
      "zip",
    ]);
    expect(Object.keys(body.data as object).sort()).toEqual(Object.keys(propertyDataFields).sort());
    await expectError(await get("propertyData", { address: "somewhere nice" }), 400, "INVALID_ADDRESS");
    await expectError(await get("propertyData", {}), 400, "INVALID_ADDRESS");
    await expectError(await get("propertyData", { address: "1 Main ST, Nowhere, TX 00000" }), 404, "NO_PROPERTY_DATA");
  });

  it("answers driverLicense the same way every time, in the spec's shape", async () => {
    const question = { ...person, date_of_birth_str: "03/09/1984" };
    const first = await json(await get("driverLicense", question));
    expect(await json(await get("driverLicense", question))).toEqual(first);
    const parsed = enrichmentDriverLicenseSchema.parse(first);
    expect(parsed.driver_license).toMatchObject({
      first_name: "Maria",
      last_name: "Garcia",
      date_of_birth_str: "03/09/1984",
      drivers_license_state: "TX",
    });
    expect(Object.keys(first.driver_license as object).sort()).toEqual([
      "date_of_birth_str",
      "drivers_license",
      "drivers_license_state",
      "first_name",
      "gender",
      "last_name",
      "marital_status",
      "middle_name",
    ]);
  });

  it("answers drivingRecordIq by birth date or by licence, with a documented status and consistent counts", async () => {
    const statuses = new Set<string>();
    for (const first_name of ["Maria", "James", "Wei", "Aisha", "Carlos", "Linda", "Tom", "Priya"]) {
      const parsed = enrichmentDrivingRecordIqSchema.parse(
        await json(await get("drivingRecordIq", { ...person, first_name, date_of_birth_str: "03/09/1984" })),
      );
      const record = parsed.driving_record_iq;
      expect(DRIVING_RECORD_IQ_STATUSES).toContain(record?.status);
      if (record?.status === "CLEAN") expect([record.minor_violations, record.major_violations]).toEqual([0, 0]);
      if (record?.status === "MAJOR_VIOLATIONS") expect(record.major_violations).toBeGreaterThan(0);
      statuses.add(String(record?.status));
    }
    expect(statuses.size).toBeGreaterThan(1);
    const byLicence = await get("drivingRecordIq", {
      ...person,
      drivers_license: "D12345678",
      drivers_license_state: "TX",
    });
    expect(byLicence.status).toBe(200);
  });

  it("answers household with drivers and vehicles; lookup_vehicles=false leaves the vehicles out", async () => {
    const parsed = enrichmentHouseholdSchema.parse(await json(await get("household", person)));
    expect(parsed.drivers.length).toBeGreaterThan(0);
    expect(parsed.drivers.every((d) => d.last_name === "Garcia")).toBe(true);
    for (const v of parsed.vehicles) {
      expect(v.vin).toMatch(/^[A-HJ-NPR-Z0-9]{17}$/);
      if (v.ownership_type !== null) expect(OWNERSHIP_TYPES).toContain(v.ownership_type);
    }
    expect(
      enrichmentHouseholdSchema.parse(await json(await get("household", { ...person, lookup_vehicles: "false" })))
        .vehicles,
    ).toEqual([]);
  });

  it("answers from the seeded book when it knows the person or the address", async () => {
    type Row = Record<string, unknown>;
    const rows = (v: unknown) => (Array.isArray(v) ? (v as Row[]) : []);
    const pulls = [...sandbox.state.pulls.values()];
    const withCar = pulls.find(
      (p) =>
        rows(p.policies).some((x) => x.policy_type === "AUTO" && rows(x.vehicles).length > 0) &&
        rows(p.drivers).length > 0,
    );
    const mailing = rows(withCar?.addresses).find((a) => a.address_nature === "MAILING");
    const holder = rows(withCar?.drivers)[0];
    if (!withCar || !mailing || !holder) throw new Error("no seeded household");
    const [year, month, day] = String(holder.date_of_birth_str).split("-");

    const license = enrichmentDriverLicenseSchema.parse(
      await json(
        await get("driverLicense", {
          ...PURPOSE,
          first_name: String(holder.first_name),
          last_name: String(holder.last_name),
          date_of_birth_str: `${month}/${day}/${year}`,
          address: String(mailing.full_address),
        }),
      ),
    );
    expect(license.driver_license).toMatchObject({
      drivers_license: holder.drivers_license,
      drivers_license_state: holder.drivers_license_state,
      gender: holder.gender,
    });

    const home = enrichmentHouseholdSchema.parse(
      await json(
        await get("household", {
          ...PURPOSE,
          first_name: String(holder.first_name),
          last_name: String(holder.last_name),
          address: String(mailing.full_address),
        }),
      ),
    );
    expect(home.drivers.map((d) => d.drivers_license).sort()).toEqual(
      rows(withCar.drivers)
        .map((d) => d.drivers_license)
        .sort(),
    );
    const vins = rows(withCar.policies)
      .flatMap((x) => rows(x.vehicles))
      .filter((v) => v.is_removed !== true)
      .map((v) => v.vin);
    expect(home.vehicles.map((v) => v.vin).sort()).toEqual([...vins].sort());

    const dwelling = pulls
      .flatMap((p) => rows(p.policies))
      .flatMap((x) => rows(x.dwellings))
      .find((d) => d.property_data !== null);
    const at = dwelling?.address as Row | undefined;
    if (!dwelling || !at) throw new Error("no seeded dwelling");
    const property = await json(await get("propertyData", { address: String(at.full_address) }));
    const { property_data_id: _id, dwelling_id: _dwelling, ...expected } = dwelling.property_data as Row;
    // The public record is the home's, though not always the carrier's figures for its size, age and roof.
    const { square_ft: _size, year_built: _year, roof_cover: _roof, ...rest } = expected;
    expect(property.data).toMatchObject(rest);
    expect(await json(await get("propertyData", { address: String(at.full_address) })), "the same every time").toEqual(
      property,
    );
  });

  it("gives some homes a public record that differs from the carrier's file", async () => {
    type Row = Record<string, unknown>;
    const rows = (v: unknown) => (Array.isArray(v) ? (v as Row[]) : []);
    const homes = [...sandbox.state.pulls.values()]
      .flatMap((p) => rows(p.policies))
      .flatMap((x) => rows(x.dwellings))
      .filter((d) => d.property_data && (d.address as Row | undefined)?.full_address);
    let differing = 0;
    for (const home of homes) {
      const known = home.property_data as Row;
      const record = (await json(await get("propertyData", { address: String((home.address as Row).full_address) })))
        .data as Row;
      if (["square_ft", "year_built", "roof_cover"].some((field) => record[field] !== known[field])) differing += 1;
    }
    expect(homes.length).toBeGreaterThan(3);
    expect(differing).toBeGreaterThan(0);
    expect(differing).toBeLessThan(homes.length);
  });

  it("answers 404 for the no-record scenario and for unknown look-ups", async () => {
    await expectError(
      await get("driverLicense", { ...person, last_name: "Nobody", date_of_birth_str: "03/09/1984" }),
      404,
      "NOT_FOUND",
    );
    await expectError(
      await get("drivingRecordIq", { ...person, last_name: "Nobody", date_of_birth_str: "03/09/1984" }),
      404,
      "NOT_FOUND",
    );
    await expectError(await get("household", { ...person, last_name: "Nobody" }), 404, "NOT_FOUND");
    await expectError(await get("creditScore", person), 404, "NOT_FOUND");
    // The old kebab-case paths are not the service's.
    await expectError(await get("driver-license", person), 404, "NOT_FOUND");
  });

  it("refuses bad questions with 400, a body-carrying POST with 405, and no credentials with 401", async () => {
    const dob = { date_of_birth_str: "03/09/1984" };
    const bad: Array<[string, Query]> = [
      ["driverLicense", { ...person }], // no date of birth
      ["driverLicense", { ...person, ...dob, date_of_birth_str: "1984-03-09" }],
      ["driverLicense", { ...person, ...dob, purpose: undefined }],
      ["driverLicense", { ...person, ...dob, employee_name: undefined }],
      ["drivingRecordIq", { ...person, ...dob, employee_job_function: undefined }],
      ["drivingRecordIq", { ...person }], // neither a birth date nor a licence
      ["drivingRecordIq", { ...person, drivers_license: "D12345678", drivers_license_state: "Texas" }],
      ["household", { ...person, first_name: "" }],
      ["household", { ...person, lookup_vehicles: "maybe" }],
    ];
    for (const [kind, query] of bad) await expectError(await get(kind, query), 400, "INVALID_INPUT");
    await expectError(await get("driverLicense", { ...person, ...dob, address: "nowhere" }), 400, "INVALID_ADDRESS");
    await expectError(await get("household", person, { authorization: auth }, "POST"), 405, "METHOD_NOT_ALLOWED");
    await expectError(await get("household", person, {}), 401, "UNAUTHORIZED");
  });

  it("answers 403 FORBIDDEN on every look-up while the plan lacks enrichment, as the service does", async () => {
    const plan = (enrichment: boolean) =>
      fetch(`${sandbox.url}/_sandbox/plan`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ enrichment }),
      });
    expect(((await (await plan(false)).json()) as { plan: Record<string, boolean> }).plan.enrichment).toBe(false);
    try {
      const dob = { date_of_birth_str: "03/09/1984" };
      await expectError(await get("propertyData", { address: ADDRESS }), 403, "FORBIDDEN");
      await expectError(await get("driverLicense", { ...person, ...dob }), 403, "FORBIDDEN");
      await expectError(await get("drivingRecordIq", { ...person, ...dob }), 403, "FORBIDDEN");
      await expectError(await get("household", person), 403, "FORBIDDEN");
    } finally {
      await plan(true);
    }
    expect((await get("propertyData", { address: ADDRESS })).status).toBe(200);
  });
});
