import { describe, expect, it } from "vitest";
import { parsePull } from "./pull";
import { acceptedPull, at, kindsAt, only, PULL_ID } from "./test-support";

// A pull is read whole even when real payloads leave fields out, add their own, or use enum
// values the spec never listed (service-notes, "Real payloads differ from the spec's tables").

describe("parsePull: absent and null fields", () => {
  it("reads every absent field as null and every absent list as empty, without problems", () => {
    const { pull, problems } = acceptedPull({});
    expect(problems).toEqual([]);
    expect(pull.pull_id).toBe(PULL_ID);
    expect(pull.status).toBeNull();
    expect(pull.first_name).toBeNull();
    expect(pull.created_at).toBeNull();
    expect(pull.is_archived).toBeNull();
    expect(pull.funnel).toBeNull();
    expect(pull.policies).toEqual([]);
    expect(pull.skipped_product_types).toEqual([]);
  });

  it("reads a policy holding only its id with null fields and empty lists", () => {
    const policy = only(acceptedPull({ policies: [{ policy_id: "p-1" }] }).pull.policies);
    expect(policy.policy_id).toBe("p-1");
    expect(policy.total_premium_cents).toBeNull();
    expect(policy.carrier_friendly_name).toBeNull();
    expect(policy.vehicles).toEqual([]);
    expect(policy.dwellings).toEqual([]);
  });
});

describe("parsePull: fields the spec does not list", () => {
  it("keeps extra fields, deleted_at and keys duplicated in another casing, as received", () => {
    const garaging = { city: "Brooklyn", state: "NY" };
    const { pull, problems } = acceptedPull({
      deleted_at: null,
      login_error_message: "Locked",
      PullId: PULL_ID,
      policies: [
        {
          policy_id: "p-1",
          vehicles: [{ vehicle_id: "v-1", garaging_address: garaging, GaragingAddress: garaging, is_primary: true }],
        },
      ],
    });
    expect(problems).toEqual([]);
    expect(pull).toMatchObject({ deleted_at: null, login_error_message: "Locked", PullId: PULL_ID });
    const vehicle = only(only(pull.policies).vehicles);
    expect(vehicle).toMatchObject({ GaragingAddress: garaging, is_primary: true });
    expect(vehicle.garaging_address).toMatchObject(garaging);
  });
});

describe("parsePull: enum values outside the spec", () => {
  it("keeps policy_check_status NONE as it came, and records no problem for it", () => {
    const { pull, problems } = acceptedPull({ policy_check_status: "NONE" });
    expect(pull.policy_check_status).toBe("NONE");
    expect(problems).toEqual([]);
  });

  it("still records a value of the wrong type in an enum field", () => {
    const { pull, problems } = acceptedPull({ policy_check_status: 3 });
    expect(pull.policy_check_status).toBeNull();
    expect(kindsAt(problems, "policy_check_status")).toEqual(["wrong_type"]);
  });

  it("keeps an unlisted coverage friendly name and policy status deep in the pull", () => {
    const coverage = { vehicle_coverage_id: "c-1", friendly_name: "Accident Forgiveness" };
    const { pull, problems } = acceptedPull({
      status: "ARCHIVED_BY_CARRIER",
      policies: [{ policy_id: "p-1", status: "LAPSED", vehicles: [{ vehicle_id: "v-1", coverages: [coverage] }] }],
    });
    expect(pull.status).toBe("ARCHIVED_BY_CARRIER");
    const policy = only(pull.policies);
    expect(policy.status).toBe("LAPSED");
    expect(only(only(policy.vehicles).coverages).friendly_name).toBe("Accident Forgiveness");
    expect(problems).toEqual([]);
  });

  it("does not report documented values", () => {
    const { problems } = acceptedPull({
      status: "SUCCESS",
      type: "PULLING_DATA",
      policy_check_status: "COMPLIANT",
      skipped_product_types: ["commercial"],
    });
    expect(problems).toEqual([]);
  });
});

describe("parsePull: meta_data", () => {
  it("keeps an object as an object", () => {
    expect(acceptedPull({ meta_data: { crm_id: 7, tags: ["a"] } }).pull.meta_data).toEqual({ crm_id: 7, tags: ["a"] });
  });

  it("keeps a string as the string, without parsing it", () => {
    expect(acceptedPull({ meta_data: '{"crm_id":7}' }).pull.meta_data).toBe('{"crm_id":7}');
  });

  it("reads null and absent as null", () => {
    expect(acceptedPull({ meta_data: null }).pull.meta_data).toBeNull();
    expect(acceptedPull({}).pull.meta_data).toBeNull();
  });

  it("reports anything else, with the raw value, and still reads the pull", () => {
    const { pull, problems } = acceptedPull({ meta_data: 12, first_name: "Ada" });
    expect(pull.meta_data).toBeNull();
    expect(pull.first_name).toBe("Ada");
    expect(problems).toMatchObject([{ path: "meta_data", kind: "wrong_type", raw: 12 }]);
  });
});

describe("parsePull: when it fails", () => {
  it("fails for anything that is not an object", () => {
    for (const raw of [null, undefined, "pull", 42, true, [{ pull_id: PULL_ID }]]) {
      const result = parsePull(raw);
      expect(result.ok).toBe(false);
    }
  });

  it("fails without a usable pull_id, and says why", () => {
    const missing = parsePull({ first_name: "Ada" });
    expect(missing).toEqual({ ok: false, error: "Not a usable pull: pull_id: is missing." });
    for (const pullId of ["not-a-uuid", 42, null, "", { id: PULL_ID }]) {
      const result = parsePull({ pull_id: pullId });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toContain("pull_id");
    }
  });

  it("does not fail for any other field, however wrong", () => {
    const wrong = [42, "text", [], {}, true, null];
    for (const key of [
      "status",
      "policies",
      "drivers",
      "created_at",
      "funnel",
      "is_archived",
      "answers",
      "skipped_product_types",
    ]) {
      for (const value of wrong) expect(parsePull({ pull_id: PULL_ID, [key]: value }).ok).toBe(true);
    }
  });

  it("reads lists of items in their received order", () => {
    const { pull } = acceptedPull({
      drivers: [
        { driver_id: "d-1", first_name: "A" },
        { driver_id: "d-2", first_name: "B" },
      ],
    });
    expect(at(pull.drivers, 0).first_name).toBe("A");
    expect(at(pull.drivers, 1).first_name).toBe("B");
  });
});
