import { describe, expect, it } from "vitest";
import { acceptedPull, at, kindsAt, only } from "./test-support";

// One malformed item deep in a pull must cost that item (or that field) only, and the problem
// must name where it sat, so the UI can show it next to the rest of the data.

const vehicle = (id: unknown, extra: Record<string, unknown> = {}) => ({
  vehicle_id: id,
  make: "HONDA",
  year: 2019,
  ...extra,
});

describe("a malformed vehicle", () => {
  it("whose vehicle_id is a number is kept with the id as text, and flagged at the id", () => {
    const { pull, problems } = acceptedPull({
      policies: [{ policy_id: "p-1", vehicles: [vehicle("v-0"), vehicle(4711)] }],
    });
    const vehicles = only(pull.policies).vehicles;
    expect(vehicles.map((v) => v.vehicle_id)).toEqual(["v-0", "4711"]);
    expect(at(vehicles, 1).make).toBe("HONDA");
    expect(problems).toMatchObject([{ path: "policies[0].vehicles[1].vehicle_id", kind: "wrong_type", raw: 4711 }]);
  });

  it("whose coverages is a string keeps the vehicle with no coverages, and flags the field", () => {
    const { pull, problems } = acceptedPull({
      policies: [{ policy_id: "p-1", vehicles: [vehicle("v-0"), vehicle("v-1", { coverages: "Collision" })] }],
    });
    const second = at(only(pull.policies).vehicles, 1);
    expect(second.vehicle_id).toBe("v-1");
    expect(second.coverages).toEqual([]);
    expect(problems).toMatchObject([
      { path: "policies[0].vehicles[1].coverages", kind: "wrong_type", raw: "Collision" },
    ]);
  });

  it("without an id is dropped alone, reported once at its path with its raw value", () => {
    const orphan = { make: "FORD", coverages: [{ vehicle_coverage_id: "c-1", premium_cents: 1.5 }] };
    const { pull, problems } = acceptedPull({
      first_name: "Ada",
      policies: [{ policy_id: "p-1", total_premium_cents: 90000, vehicles: [vehicle("v-0"), orphan, vehicle("v-2")] }],
    });
    expect(pull.first_name).toBe("Ada");
    const policy = only(pull.policies);
    expect(policy.total_premium_cents).toBe(90000);
    expect(policy.vehicles.map((v) => v.vehicle_id)).toEqual(["v-0", "v-2"]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ path: "policies[0].vehicles[1]", kind: "dropped_item", raw: orphan });
    expect(problems[0]?.message).toContain("vehicle_id: is missing");
  });

  it("that is not an object at all is dropped and reported", () => {
    const { pull, problems } = acceptedPull({
      policies: [{ policy_id: "p-1", vehicles: [null, vehicle("v-1"), "HONDA"] }],
    });
    expect(only(pull.policies).vehicles.map((v) => v.vehicle_id)).toEqual(["v-1"]);
    expect(problems.map((p) => [p.path, p.kind])).toEqual([
      ["policies[0].vehicles[0]", "dropped_item"],
      ["policies[0].vehicles[2]", "dropped_item"],
    ]);
  });
});

describe("malformed items elsewhere", () => {
  it("a policy without its id is dropped while its siblings and the rest of the pull stay", () => {
    const { pull, problems } = acceptedPull({
      drivers: [{ driver_id: "d-1" }],
      policies: [{ policy_type: "AUTO" }, { policy_id: "p-2", policy_type: "HOMEOWNERS" }],
    });
    expect(pull.policies.map((p) => p.policy_id)).toEqual(["p-2"]);
    expect(pull.drivers).toHaveLength(1);
    expect(kindsAt(problems, "policies[0]")).toEqual(["dropped_item"]);
  });

  it("a dwelling coverage of the wrong shape is dropped while the dwelling keeps its others", () => {
    const coverages = [
      { dwelling_coverage_id: "dc-1", name: "DWELLING", per_incident_limit_cents: 40000000 },
      ["DWELLING"],
    ];
    const { pull, problems } = acceptedPull({
      policies: [{ policy_id: "p-1", dwellings: [{ dwelling_id: "dw-1", coverages }] }],
    });
    const dwelling = only(only(pull.policies).dwellings);
    expect(only(dwelling.coverages).per_incident_limit_cents).toBe(40000000);
    expect(kindsAt(problems, "policies[0].dwellings[0].coverages[1]")).toEqual(["dropped_item"]);
  });

  it("a wrong field in a vehicle's driver is flagged at that field, nothing else is lost", () => {
    const drivers = [{ driver_id: "d-1", first_name: "Ada", age: "forty", gender: "FEMALE" }];
    const { pull, problems } = acceptedPull({
      policies: [{ policy_id: "p-1", vehicles: [vehicle("v-1", { drivers })] }],
    });
    const driver = only(only(only(pull.policies).vehicles).drivers);
    expect(driver).toMatchObject({ driver_id: "d-1", first_name: "Ada", age: null, gender: "FEMALE" });
    expect(problems).toMatchObject([
      { path: "policies[0].vehicles[0].drivers[0].age", kind: "wrong_type", raw: "forty" },
    ]);
  });

  it("an answer of an unexpected shape is flagged while the section keeps its other answers", () => {
    const fields = [
      { consumer_flow_section_field_id: "f-1", label: "Years insured", type: "NUMBER", value: 4 },
      { consumer_flow_section_field_id: "f-2", label: "Notes", type: "TEXT", value: { text: "hi" } },
      {
        consumer_flow_section_field_id: "f-3",
        label: "Upload",
        type: "FILE_UPLOAD",
        value: [{ file_id: "file-1", name: "dec.pdf", size: 1200 }, { name: "no id" }],
      },
    ];
    const { pull, problems } = acceptedPull({ answers: [{ consumer_flow_section_id: "s-1", fields }] });
    const section = only(pull.answers);
    expect(section.fields.map((f) => f.value)).toEqual([
      4,
      null,
      [expect.objectContaining({ file_id: "file-1", size: 1200 })],
    ]);
    expect(problems.map((p) => [p.path, p.kind])).toEqual([
      ["answers[0].fields[1].value", "wrong_type"],
      ["answers[0].fields[2].value[1]", "dropped_item"],
    ]);
  });

  it("a funnel of the wrong type reads as null without touching the rest", () => {
    const { pull, problems } = acceptedPull({ funnel: "WON", first_name: "Ada" });
    expect(pull.funnel).toBeNull();
    expect(pull.first_name).toBe("Ada");
    expect(kindsAt(problems, "funnel")).toEqual(["wrong_type"]);
  });
});
