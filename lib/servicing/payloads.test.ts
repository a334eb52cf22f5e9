import { describe, expect, it } from "vitest";
import { buildServicingPayload, possibleActions, type ServicingTargets } from "./payloads";
import { actionStatusFromPull, movesForward, statusesBelow } from "./status";
import { describeServicingChange, servicingStatusWords } from "./words";

// The agent's form, read into the service's payload: every refusal names its field in words.

const NOW = new Date("2026-11-26T10:00:00Z");
const TARGETS: ServicingTargets = {
  homes: [
    {
      policyNumber: "HO-100",
      label: "homeowners HO-100",
      mortgagees: [
        { key: "HO-100#FIRST", position: "FIRST", name: "Harbor Bank", loanNumber: "L-1", address: "1 Main St" },
      ],
      nextPosition: "SECOND",
    },
  ],
  autos: [{ policyNumber: "AU-200", label: "auto AU-200", vins: ["1HGCM82633A004352"] }],
};
const lender = {
  policy: "HO-100",
  name: "Sunrise Savings",
  address: "9 Bank Plaza, Denver, CO 80202",
  position: "SECOND",
};
const build = (type: string, fields: Record<string, string>) => buildServicingPayload(type, fields, TARGETS, NOW);

describe("servicing payloads", () => {
  it("adds a mortgagee in the position given, with the loan number when there is one", () => {
    expect(build("ADD_MORTGAGEE", { ...lender, loanNumber: " 55-10/A " })).toEqual({
      ok: true,
      type: "ADD_MORTGAGEE",
      payload: {
        carrier_policy_number: "HO-100",
        name: "Sunrise Savings",
        address: "9 Bank Plaza, Denver, CO 80202",
        loan_number: "55-10/A",
        mortgagee_type: "SECOND",
      },
      change:
        "add Sunrise Savings (9 Bank Plaza, Denver, CO 80202, loan 55-10/A) as the second mortgagee on policy HO-100",
    });
  });

  it("refuses missing and malformed fields, naming the field", () => {
    expect(build("ADD_MORTGAGEE", { ...lender, name: "" })).toMatchObject({
      ok: false,
      field: "name",
      message: "Enter the lender's name.",
    });
    expect(build("ADD_MORTGAGEE", { ...lender, address: "somewhere far" })).toMatchObject({
      ok: false,
      field: "address",
    });
    expect(build("ADD_MORTGAGEE", { ...lender, loanNumber: "12<script>" })).toMatchObject({
      ok: false,
      field: "loanNumber",
    });
    expect(build("ADD_MORTGAGEE", { ...lender, position: "FOURTH" })).toMatchObject({ ok: false, field: "position" });
    expect(build("ADD_MORTGAGEE", { ...lender, policy: "AU-200" })).toMatchObject({ ok: false, field: "policy" });
    expect(build("REMOVE_MORTGAGEE", {})).toMatchObject({
      ok: false,
      field: "mortgagee",
      message: "Choose the mortgagee to remove.",
    });
    expect(
      build("EDIT_MORTGAGEE", { mortgagee: "HO-100#THIRD", name: "X Bank", address: "2 Elm St, Austin, TX" }),
    ).toMatchObject({
      ok: false,
      field: "mortgagee",
    });
    expect(build("SELL_THE_HOUSE", {})).toMatchObject({ ok: false, field: "actionType" });
  });

  it("refuses what the policy already shows: a taken position, a lender already there", () => {
    expect(build("ADD_MORTGAGEE", { ...lender, position: "FIRST" })).toMatchObject({
      ok: false,
      field: "position",
      message: expect.stringContaining("already has a first mortgagee (Harbor Bank)"),
    });
    expect(build("ADD_MORTGAGEE", { ...lender, name: "harbor bank" })).toMatchObject({ ok: false, field: "name" });
  });

  it("changes or removes the mortgagee chosen from the policy's own, by its position", () => {
    expect(
      build("EDIT_MORTGAGEE", { mortgagee: "HO-100#FIRST", name: "New Lender", address: "3 Oak Ave, Reno, NV 89501" }),
    ).toMatchObject({
      ok: true,
      payload: { carrier_policy_number: "HO-100", mortgagee_type: "FIRST", name: "New Lender", loan_number: null },
    });
    expect(build("REMOVE_MORTGAGEE", { mortgagee: "HO-100#FIRST" })).toMatchObject({
      ok: true,
      payload: { carrier_policy_number: "HO-100", mortgagee_type: "FIRST" },
      change: "remove the first mortgagee from policy HO-100",
    });
  });

  it("adds a vehicle only with a real-looking VIN and model year", () => {
    const car = { policy: "AU-200", vin: "5yjsa1e26hf000337", year: "2024", make: "Tesla", model: "Model S" };
    expect(build("ADD_VEHICLE", car)).toMatchObject({
      ok: true,
      payload: {
        carrier_policy_number: "AU-200",
        vehicle: { vin: "5YJSA1E26HF000337", model_year: 2024, make: "Tesla", model: "Model S" },
      },
    });
    for (const vin of [
      "5YJSA1E26HF00033",
      "5YJSA1E26HF0003370",
      "5YJSA1E26HF00O337",
      "IYJSA1E26HF000337",
      "5YJSA1E26QF000337",
    ])
      expect(build("ADD_VEHICLE", { ...car, vin }), vin).toMatchObject({
        ok: false,
        field: "vin",
        message: "A VIN is 17 letters and digits, without I, O or Q.",
      });
    expect(build("ADD_VEHICLE", { ...car, year: "1850" })).toMatchObject({ ok: false, field: "year" });
    expect(build("ADD_VEHICLE", { ...car, year: "2031" })).toMatchObject({ ok: false, field: "year" });
    expect(build("ADD_VEHICLE", { ...car, make: " " })).toMatchObject({ ok: false, field: "make" });
    expect(build("ADD_VEHICLE", { ...car, vin: "1HGCM82633A004352" })).toMatchObject({
      ok: false,
      field: "vin",
      message: expect.stringContaining("already on policy AU-200"),
    });
  });

  it("offers only the changes the carrier supports and the pull has something to act on", () => {
    expect(possibleActions(TARGETS, ["ADD_VEHICLE"])).toEqual(["ADD_VEHICLE"]);
    expect(possibleActions({ homes: [], autos: TARGETS.autos }, ["ADD_MORTGAGEE", "REMOVE_MORTGAGEE"])).toEqual([]);
    expect(
      possibleActions(TARGETS, ["ADD_MORTGAGEE", "EDIT_MORTGAGEE", "REMOVE_MORTGAGEE", "ADD_VEHICLE", "SOMETHING_NEW"]),
    ).toEqual(["ADD_MORTGAGEE", "EDIT_MORTGAGEE", "REMOVE_MORTGAGEE", "ADD_VEHICLE"]);
  });
});

describe("servicing status", () => {
  it("only moves forward, and no outcome replaces another", () => {
    expect(movesForward(null, "QUEUED")).toBe(true);
    expect(movesForward("WAITING_FOR_CONSUMER_CONFIRMATION", "IN_PROGRESS")).toBe(false);
    expect(movesForward("SUBMITTING_CONFIRMATION", "SUCCESS")).toBe(true);
    expect(movesForward("SUCCESS", "UNCONFIRMED")).toBe(false);
    expect(movesForward("SUCCESS", "VERIFIED")).toBe(true);
    expect(movesForward("INTERNAL_ERROR", "SUCCESS")).toBe(true);
    expect(statusesBelow("QUEUED")).toEqual([]);
    expect(statusesBelow("SUCCESS")).not.toContain("UNCONFIRMED");
  });

  it("reads the SERVICING pull's status, an ended pull only with the consumer's answer", () => {
    expect(actionStatusFromPull("SERVICING", null)).toBe("IN_PROGRESS");
    expect(actionStatusFromPull("WAITING_FOR_CONSUMER_CONFIRMATION", null)).toBe("WAITING_FOR_CONSUMER_CONFIRMATION");
    expect(actionStatusFromPull("SUCCESS", "CONFIRMED")).toBe("SUCCESS");
    expect(actionStatusFromPull("SUCCESS", "DECLINED")).toBe("UNCONFIRMED");
    expect(actionStatusFromPull("SUCCESS", null)).toBeNull();
    expect(actionStatusFromPull("VALIDATION_ERROR", null)).toBe("VALIDATION_ERROR");
  });

  it("says where a request stands in words", () => {
    const base = { servicingActionId: "a", consumerAnswer: null, error: null, validationErrorType: null };
    expect(servicingStatusWords({ ...base, status: "WAITING_FOR_CONSUMER_CONFIRMATION" }).label).toBe(
      "Waiting for the client to confirm on their page.",
    );
    expect(
      servicingStatusWords({ ...base, status: "VALIDATION_ERROR", validationErrorType: "DUPLICATE_MORTGAGEE_NAME" })
        .label,
    ).toBe("The carrier refused it: that lender is already a mortgagee on the policy.");
    expect(
      servicingStatusWords({ ...base, servicingActionId: null, status: null, error: "The service did not answer." }),
    ).toEqual({
      label: "Not sent: The service did not answer.",
      tone: "refused",
    });
    expect(servicingStatusWords({ ...base, status: "WAITING_FOR_CONSUMER_CONFIRMATION", expired: true }).tone).toBe(
      "refused",
    );
    expect(
      describeServicingChange("ADD_VEHICLE", {
        carrier_policy_number: "A1",
        vehicle: { vin: "V", model_year: 2020, make: "Kia", model: "Soul" },
      }),
    ).toBe("add the 2020 Kia Soul (VIN V) to policy A1");
  });
});
