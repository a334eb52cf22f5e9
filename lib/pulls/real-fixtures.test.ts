import { readFileSync } from "node:fs";
import { join } from "node:path";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { policies, pulls } from "@/db/schema";
import { parsePullResponse, type Pull } from "@/lib/service/schemas";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { getPullDetail } from "./queries";
import { storePull } from "@/lib/ingest/store-pull";

// The service's own published example pulls (lib/service/fixtures/real, see its README) go
// through the real ingestion path into a real database and come back unchanged: every policy,
// vehicle and dwelling, with the oddities the spec does not mention kept and reported.

const FIXTURES = join(process.cwd(), "lib/service/fixtures/real/pulls");
const load = (name: string): unknown => JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), "utf8"));

function parsed(body: unknown): { pull: Pull; problems: Array<{ path: string; kind: string }> } {
  const result = parsePullResponse(body);
  if (!result.ok) throw new Error(`fixture rejected: ${result.error}`);
  return { pull: result.pull, problems: result.problems.map(({ path, kind }) => ({ path, kind })) };
}

/** What a reader of the detail page sees of a pull's structure, independent of field order. */
function structure(pull: Pull) {
  return pull.policies.map((policy) => ({
    policy: [policy.policy_id, policy.policy_type, policy.total_premium_cents],
    vehicles: policy.vehicles.map((v) => [v.vehicle_id, v.vin, v.coverages.length, v.drivers.length]),
    dwellings: policy.dwellings.map((d) => [
      d.dwelling_id,
      d.coverages.length,
      d.property_data?.property_data_id ?? null,
    ]),
  }));
}

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

beforeEach(async () => {
  await database.db.delete(pulls);
});

describe("the personal example pull", () => {
  const body = load("personal");

  it("parses without a problem, keeping the coverage names the spec does not list as they came", () => {
    const { pull, problems } = parsed(body);
    expect(pull.pull_id).toBe("59ced597-b48f-49e3-9756-799e4c6f79a0");
    expect(problems).toEqual([]);
    expect(pull.policies[0]?.dwellings[0]?.coverages.map((c) => c.friendly_name)).toEqual(
      expect.arrayContaining(["Dwelling Liability", "Other Structures Liability", "Personal Property Liability"]),
    );
    expect(structure(pull)).toEqual([
      {
        policy: ["a5c3eac9-537c-4146-8de9-99fb55455126", "HOMEOWNERS", 175349],
        vehicles: [],
        dwellings: [["dddac0de-99c0-461f-a729-2d4362d343f4", 8, "0a8e5811-6610-4525-aa53-cba4f41a4cc3"]],
      },
      {
        policy: ["b3e00891-29d4-4ac6-a906-9b6a162f6a09", "AUTO", 50781],
        vehicles: [["e94fd52e-e22c-4536-8fcf-1f436b880dc0", "1G1FK1R62J0158884", 5, 1]],
        dwellings: [],
      },
      { policy: ["8c9d0e1f-2a3b-4c5d-6e7f-8a9b0c1d2e3f", "TERM_LIFE", 125000], vehicles: [], dwellings: [] },
    ]);
  });

  it("keeps what the spec's tables do not mention", () => {
    const { pull } = parsed(body);
    expect(pull).toMatchObject({
      meta_data: {},
      deleted_at: null,
      insurance_provider_friendly_name: null,
      policy_check_status: null,
      skipped_product_types: ["commercial"],
    });
    const [home, auto, life] = pull.policies;
    const dwelling = home?.dwellings[0];
    expect(dwelling?.coverages.map((c) => [c.name, c.per_incident_limit_percent, c.deductible_percent])).toEqual([
      ["DWELLING", null, null],
      ["OTHER_STRUCTURES", "10", null],
      ["PERSONAL_PROPERTY", "50", null],
      ["LOSS_OF_USE", "20", null],
      ["PERSONAL_LIABILITY", null, null],
      ["MEDICAL_PAYMENTS", null, null],
      ["ALL_OTHER_PERILS", null, "1"],
      ["WINDSTORM_OR_HAIL", null, "2"],
    ]);
    expect(dwelling).toMatchObject({
      mortgagee_name: "Metropolis Bank",
      property_data_fetched: true,
      mortgagee_address: { address_nature: "MORTGAGEE" },
    });
    const vehicle = auto?.vehicles[0];
    // The duplicate in other casing stays as received; the documented field is read as an address.
    const garaging = {
      address_id: "b321cd10-16f0-4738-bc5d-eb3a49e39722",
      full_address: "344 Clinton Street, Apartment 3D, Brooklyn, NY, 11231",
    };
    expect(vehicle?.GaragingAddress).toMatchObject(garaging);
    expect(vehicle?.GaragingAddress).not.toHaveProperty("prefix");
    expect(vehicle?.garaging_address).toMatchObject({ ...garaging, prefix: null });
    expect(vehicle?.drivers[0]).toMatchObject({
      driver_id: "1394c681-ebfe-475d-b390-d7157e33a895",
      is_excluded: false,
      is_primary: true,
    });
    expect(life?.life).toMatchObject({
      life_policy_beneficiaries: [{ full_name: "Lois Lane", distribution_percent: 100 }],
    });
  });

  it("is stored through storePull and read back with the same policies, vehicles and dwellings", async () => {
    const { pull, problems } = parsed(body);
    expect(await storePull(database.db, body)).toEqual({
      outcome: "created",
      pullId: pull.pull_id,
      problems: problems.length,
    });

    const detail = await getPullDetail(database.db, pull.pull_id);
    expect(detail?.pull).toEqual(pull);
    expect(detail && structure(detail.pull)).toEqual(structure(pull));
    expect(detail?.problems.map(({ path, kind }) => ({ path, kind }))).toEqual(problems);

    const rows = await database.db
      .select({
        policyId: policies.policyId,
        policyType: policies.policyType,
        premium: policies.totalPremiumCents,
        effective: policies.effectiveDate,
        expiry: policies.expiryDate,
      })
      .from(policies)
      .where(eq(policies.pullId, pull.pull_id))
      .orderBy(asc(policies.expiryDate));
    // Calendar days as the service wrote them ("…T06:00:00.000Z" is the 13th, not the 12th).
    expect(rows).toEqual([
      {
        policyId: "b3e00891-29d4-4ac6-a906-9b6a162f6a09",
        policyType: "AUTO",
        premium: 50781,
        effective: "2022-12-13",
        expiry: "2023-06-13",
      },
      {
        policyId: "a5c3eac9-537c-4146-8de9-99fb55455126",
        policyType: "HOMEOWNERS",
        premium: 175349,
        effective: "2022-12-13",
        expiry: "2023-12-13",
      },
      {
        policyId: "8c9d0e1f-2a3b-4c5d-6e7f-8a9b0c1d2e3f",
        policyType: "TERM_LIFE",
        premium: 125000,
        effective: "2024-01-01",
        expiry: "2044-01-01",
      },
    ]);

    const [row] = await database.db
      .select({ raw: pulls.raw, count: pulls.policyCount, total: pulls.totalPremiumCents })
      .from(pulls)
      .where(eq(pulls.pullId, pull.pull_id));
    expect(row).toEqual({ raw: (body as { pull: unknown }).pull, count: 3, total: 175349 + 50781 + 125000 });
    expect((await storePull(database.db, body)).outcome).toBe("unchanged");
  });
});

describe("the commercial example pull", () => {
  const body = load("commercial");

  it("parses without a problem, keeping the LOSS_RUN document type the spec does not list", () => {
    const { pull, problems } = parsed(body);
    expect(problems).toEqual([]);
    expect(pull.documents.filter((d) => d.document_type === "LOSS_RUN")).toHaveLength(3);
    expect(structure(pull)).toEqual([
      {
        policy: ["2ae5f757-b53f-4200-a26d-fd357ec277a2", "COMMERCIAL_AUTO", 540348],
        vehicles: [["ec13962f-75ff-4968-8984-89d678b3744f", "1GAHG39U651194937", 5, 1]],
        dwellings: [],
      },
      { policy: ["b4ec17a7-6a8c-461b-b86a-622a821a6dd4", "BUSINESS_OWNERS", 525345], vehicles: [], dwellings: [] },
      { policy: ["7c017c39-6239-4b4f-a07a-3666f0400707", "WORKERS_COMPENSATION", 382550], vehicles: [], dwellings: [] },
    ]);
  });

  it("keeps the commercial parts the spec does not detail: locations, operations, loss events", () => {
    const { pull } = parsed(body);
    const [auto, owners, workers] = pull.policies;
    expect(auto?.locations).toHaveLength(1);
    expect(owners?.locations[0]?.coverages).toHaveLength(10);
    expect(workers?.locations[0]).toMatchObject({
      operations: [{ class_code: "8855", estimated_annual_premium_cents: 350000 }],
    });
    expect(workers).toMatchObject({ total_estimated_annual_premium_cents: 382550, total_minimum_premium_cents: 76510 });
    expect(workers?.commercial_named_insureds[0]).toMatchObject({
      number_of_employees: 10,
      minimum_premium_cents: 76510,
    });
    expect(pull.loss_events.map((e) => [e.type, e.amount_paid_cents, e.amount_reserved_cents])).toEqual([
      ["BURGLARY_AND_THEFT", 2750000, 500000],
      ["EMPLOYEE_INJURY_OR_ILLNESS", 4000000, null],
    ]);
    expect(pull.skipped_product_types).toEqual([]);
  });

  it("is stored through storePull and read back with the same policies and vehicles", async () => {
    const { pull, problems } = parsed(body);
    expect(await storePull(database.db, body)).toEqual({ outcome: "created", pullId: pull.pull_id, problems: 0 });
    const detail = await getPullDetail(database.db, pull.pull_id);
    expect(detail?.pull).toEqual(pull);
    expect(detail?.problems.map(({ path, kind }) => ({ path, kind }))).toEqual(problems);
    const rows = await database.db
      .select({ policyId: policies.policyId, expiry: policies.expiryDate })
      .from(policies)
      .where(eq(policies.pullId, pull.pull_id))
      .orderBy(asc(policies.policyId));
    expect(rows).toEqual([
      { policyId: "2ae5f757-b53f-4200-a26d-fd357ec277a2", expiry: "2024-07-09" },
      { policyId: "7c017c39-6239-4b4f-a07a-3666f0400707", expiry: "2025-01-09" },
      { policyId: "b4ec17a7-6a8c-461b-b86a-622a821a6dd4", expiry: "2025-01-09" },
    ]);
  });
});
