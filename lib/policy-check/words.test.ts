import { describe, expect, it } from "vitest";
import { checkRows, outcomeOf, ruleWords, statusWords } from "./words";

// The service's policy-check results in words: rules and outcomes we know, the ones we do not
// (shown as sent, never as a pass), and each result named after what it is about on the pull.

const names = {
  vehicle: (id: string) => (id === "v1" ? "2019 Honda Civic" : null),
  dwelling: (id: string) => (id === "d1" ? "12 Elm St, Austin, TX" : null),
  policy: (id: string) => (id === "p1" ? "Auto · Progressive" : null),
};
const result = (over: Partial<Record<string, string | null>>) => ({
  check: null,
  result: null,
  policy_id: null,
  vehicle_id: null,
  dwelling_id: null,
  message: null,
  ...over,
});

describe("policy check words", () => {
  it("words the published rules and makes a sentence of an unknown one", () => {
    expect(ruleWords("MIN_BODILY_INJURY_COVERAGE")).toBe("Bodily injury limits at least the minimum");
    expect(ruleWords("REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT")).toBe("The dwelling limit covers the replacement cost");
    expect(ruleWords("NEW_RULE_FROM_SERVICE")).toBe("New rule from service");
    expect(ruleWords(null)).toBe("A rule the service did not name");
    expect(ruleWords("___")).toBe("A rule the service did not name");
  });

  it("reads outcomes in the spellings a service may use, and never takes an unknown one for a pass", () => {
    expect(outcomeOf("PASSED")).toBe("PASS");
    expect(outcomeOf("failed")).toBe("FAIL");
    expect(outcomeOf("REVIEW_REQUIRED")).toBe("REVIEW");
    expect(outcomeOf("MAYBE")).toBe("OTHER");
    expect(outcomeOf(null)).toBe("OTHER");
  });

  it("says what the status means, NONE and a missing one as not checked", () => {
    expect(statusWords("NOT_COMPLIANT")).toMatch(/^Not compliant/);
    expect(statusWords("NONE")).toBe("Not checked");
    expect(statusWords(null)).toBe("Not checked");
    expect(statusWords("SOMETHING_NEW")).toBe("SOMETHING_NEW");
  });

  it("names each result after its vehicle, home or policy, failures first", () => {
    const rows = checkRows(
      [
        result({
          check: "NO_COLLISION_COVERAGE",
          result: "PASSED",
          vehicle_id: "v1",
          message: "Collision coverage included.",
        }),
        result({
          check: "MIN_BODILY_INJURY_COVERAGE",
          result: "FAILED",
          vehicle_id: "v1",
          message: "per person below $100,000.",
        }),
        result({ check: "LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST", result: "REVIEW_REQUIRED", dwelling_id: "d1" }),
        result({ check: "POLICY_NOT_ACTIVE", result: "ODD", policy_id: "p1" }),
        result({ check: "VEHICLE_REMOVED", result: "PASSED", vehicle_id: "gone" }),
        result({ check: "DRIVER_REMOVED", result: "PASSED" }),
      ],
      names,
    );
    expect(rows.map((r) => [r.outcome, r.subject])).toEqual([
      ["FAIL", "2019 Honda Civic"],
      ["REVIEW", "12 Elm St, Austin, TX"],
      ["OTHER", "Auto · Progressive"],
      ["PASS", "2019 Honda Civic"],
      ["PASS", "A vehicle not on this pull"],
      ["PASS", "The account"],
    ]);
    expect(rows[0]).toMatchObject({ outcomeText: "Fail", message: "per person below $100,000." });
    expect(rows[2]?.outcomeText, "an outcome we do not know is shown as sent").toBe("ODD");
  });
});
