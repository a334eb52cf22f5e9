import { describe, expect, it } from "vitest";
import { describeLooseValue, readsAsEnum, splitRecord, tableKeys, visibleKeys } from "./loose-values";

describe("loose values", () => {
  it("reads money, dates, percentages and flags from their keys", () => {
    expect(describeLooseValue("face_amount_cents", 100000000)).toEqual({ kind: "money", cents: 100000000 });
    expect(describeLooseValue("paid_up_date", "2044-01-01T06:00:00.000Z")).toEqual({
      kind: "date",
      iso: "2044-01-01T06:00:00.000Z",
    });
    expect(describeLooseValue("edition_date", "2019-04-01")).toEqual({ kind: "date", iso: "2019-04-01" });
    expect(describeLooseValue("distribution_percent", 100)).toEqual({ kind: "percent", text: "100" });
    expect(describeLooseValue("pdf_available", true)).toEqual({ kind: "boolean", value: true });
    expect(describeLooseValue("term_length_years", 20)).toEqual({ kind: "text", text: "20" });
  });

  it("keeps text that only looks like a date, and shows nothing for null, empty and []", () => {
    expect(describeLooseValue("form_number", "2019-04-01")).toEqual({ kind: "text", text: "2019-04-01" });
    expect(describeLooseValue("paid_up_date", "soon")).toEqual({ kind: "text", text: "soon" });
    expect(describeLooseValue("anything", null)).toEqual({ kind: "empty" });
    expect(describeLooseValue("anything", "")).toEqual({ kind: "empty" });
    expect(describeLooseValue("anything", [])).toEqual({ kind: "empty" });
  });

  it("tells lists of records, lists of values, addresses and other objects apart", () => {
    expect(describeLooseValue("beneficiaries", [{ name: "Lois" }]).kind).toBe("records");
    expect(describeLooseValue("features", ["ABS", 2]).kind).toBe("list");
    expect(describeLooseValue("address", { full_address: "1 Main St", city: "Austin", zip: "78701" }).kind).toBe(
      "address",
    );
    expect(describeLooseValue("requirements", { met: true }).kind).toBe("record");
  });

  it("hides ids and keys duplicated under other casing", () => {
    expect(
      visibleKeys([
        { location_id: "x", description: "Main", GaragingAddress: {}, garaging_address: {}, is_primary: true },
        { extra: 1 },
      ]),
    ).toEqual(["description", "GaragingAddress", "is_primary", "extra"]);
  });

  it("puts names first in tables and drops columns empty on every row", () => {
    const rows = [
      {
        rider_id: "r1",
        effective_date: "2024-01-01",
        name: "ACCIDENTAL_DEATH",
        friendly_name: "Accidental Death",
        note: null,
      },
      { rider_id: "r2", effective_date: null, name: "WAIVER", friendly_name: "Waiver", note: "" },
    ];
    expect(tableKeys(rows)).toEqual(["friendly_name", "name", "effective_date"]);
  });

  it("splits a record into fields and the lists and objects nested in it", () => {
    const location = {
      location_id: "x",
      description: "Main",
      address: { full_address: "1 Main St", city: "Austin" },
      coverages: [{ name: "BUILDING" }],
      operations: [],
    };
    expect(splitRecord(location)).toEqual({ fields: ["description", "address", "operations"], nested: ["coverages"] });
  });

  it("humanises enum-like values only, never codes", () => {
    expect(readsAsEnum("PER_STIRPES")).toBe(true);
    expect(readsAsEnum("FORM")).toBe(true);
    expect(readsAsEnum("HO132483")).toBe(false);
    expect(readsAsEnum("CA 00 01")).toBe(false);
  });
});

describe("addresses under other keys", () => {
  it("reads the address fields it knows and ignores the rest", async () => {
    const { addressFrom } = await import("./loose-values");
    expect(addressFrom({ full_address: "1 Main St", city: "Austin", zip: 78701, extra: "x" })).toEqual({
      full_address: "1 Main St",
      city: "Austin",
    });
    expect(addressFrom("1 Main St")).toBeNull();
    expect(addressFrom({ zip: 1 })).toBeNull();
  });
});
