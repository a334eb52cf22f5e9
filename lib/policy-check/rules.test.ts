import { describe, expect, it } from "vitest";
import { policyCheckSettingsResponseSchema } from "@/lib/service/schemas";
import {
  formToSettings,
  hasAnyRule,
  POLICY_CHECK_FIELD_NAMES,
  policyCheckFormSchema,
  settingsInput,
  settingsToForm,
} from "./rules";

// The admin's policy-check form to the settings the service takes, and back: amounts in
// dollars, blanks turning a rule off, lien holders one per line, and bad input named by field.

const blank: Record<string, string> = {};

describe("policy check rules form", () => {
  it("turns every rule off when nothing is filled in", () => {
    const parsed = formToSettings(blank);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(hasAnyRule(parsed.settings)).toBe(false);
    expect(parsed.settings.vehicle.MAX_COLLISION_DEDUCTIBLE_CENTS).toBeNull();
    expect(parsed.settings.vehicle.MIN_BODILY_INJURY_COVERAGE).toEqual({
      per_person_cents: null,
      per_accident_cents: null,
    });
    expect(parsed.settings.vehicle.LIENHOLDER_NAME_MISMATCH).toEqual([]);
    expect(parsed.settings.dwelling.REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT).toBe(false);
  });

  it("reads dollars as typed, switches and lien holders, and shows them back the same", () => {
    const form = {
      NO_COLLISION_COVERAGE: "on",
      MAX_COLLISION_DEDUCTIBLE_CENTS: "$1,000.50",
      MIN_BODILY_INJURY_COVERAGE_PER_PERSON: "100,000",
      MIN_BODILY_INJURY_COVERAGE_PER_ACCIDENT: "300000",
      LIENHOLDER_NAME_MISMATCH: "  Ally Financial \r\n\nToyota Motor Credit\n",
      REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT: "on",
    };
    const parsed = formToSettings(form);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.settings.vehicle).toMatchObject({
      NO_COLLISION_COVERAGE: true,
      NO_COMPREHENSIVE_COVERAGE: false,
      MAX_COLLISION_DEDUCTIBLE_CENTS: 100_050,
      MIN_BODILY_INJURY_COVERAGE: { per_person_cents: 10_000_000, per_accident_cents: 30_000_000 },
      LIENHOLDER_NAME_MISMATCH: ["Ally Financial", "Toyota Motor Credit"],
    });
    expect(hasAnyRule(parsed.settings)).toBe(true);
    const shown = settingsToForm(parsed.settings);
    expect(shown).toMatchObject({
      NO_COLLISION_COVERAGE: "on",
      NO_COMPREHENSIVE_COVERAGE: "",
      MAX_COLLISION_DEDUCTIBLE_CENTS: "1000.5",
      MIN_BODILY_INJURY_COVERAGE_PER_PERSON: "100000",
      LIENHOLDER_NAME_MISMATCH: "Ally Financial\nToyota Motor Credit",
    });
    expect(formToSettings(shown)).toEqual(parsed);
  });

  it.each([
    [
      { MAX_COLLISION_DEDUCTIBLE_CENTS: "a thousand" },
      "MAX_COLLISION_DEDUCTIBLE_CENTS",
      /Highest collision deductible: Give an amount/,
    ],
    [{ MIN_PROPERTY_DAMAGE_COVERAGE_CENTS: "-5" }, "MIN_PROPERTY_DAMAGE_COVERAGE_CENTS", /Give an amount/],
    [{ MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS: "10.005" }, "MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS", /Give an amount/],
    [{ MIN_PROPERTY_DAMAGE_COVERAGE_CENTS: "1e9" }, "MIN_PROPERTY_DAMAGE_COVERAGE_CENTS", /Give an amount/],
    [
      { MIN_PROPERTY_DAMAGE_COVERAGE_CENTS: "100000001" },
      "MIN_PROPERTY_DAMAGE_COVERAGE_CENTS",
      /at most \$100,000,000/,
    ],
    [
      { MIN_BODILY_INJURY_COVERAGE_PER_PERSON: "300000", MIN_BODILY_INJURY_COVERAGE_PER_ACCIDENT: "100000" },
      "MIN_BODILY_INJURY_COVERAGE_PER_PERSON",
      /per person cannot be above the limit per accident/,
    ],
    [{ LIENHOLDER_NAME_MISMATCH: "x".repeat(201) }, "LIENHOLDER_NAME_MISMATCH", /under 200 characters/],
    [
      { LIENHOLDER_NAME_MISMATCH: Array.from({ length: 51 }, (_, i) => `Bank ${i}`).join("\n") },
      "LIENHOLDER_NAME_MISMATCH",
      /at most 50 lien holders/,
    ],
  ])("refuses %j naming the field", (form, field, message) => {
    const parsed = formToSettings(form);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.field).toBe(field);
    expect(parsed.message).toMatch(message);
  });

  it("normalizes what the service holds: the misspelled key, no wrapper, odd values", () => {
    const held = policyCheckSettingsResponseSchema.parse({
      vehicle: { MAX_COMPREEHENSIVE_DEDUCTIBLE_CENTS: 50_000, NO_COLLISION_COVERAGE: "yes", EXTRA_RULE: true },
    });
    const input = settingsInput(held);
    expect(input.vehicle.MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS).toBe(50_000);
    expect(input.vehicle.NO_COLLISION_COVERAGE, "a value that is not a boolean is not a rule turned on").toBe(false);
    expect(input.vehicle).not.toHaveProperty("EXTRA_RULE");
    expect(input.dwelling.DWELLING_POLICY_NOT_ACTIVE).toBe(false);
    expect(settingsInput(null).vehicle.LIENHOLDER_NAME_MISMATCH).toEqual([]);
  });

  it("reads every input of the form (the admin's action reads the form through this schema), and shows every one back", () => {
    expect(Object.keys(policyCheckFormSchema.shape).sort()).toEqual([...POLICY_CHECK_FIELD_NAMES].sort());
    expect(policyCheckFormSchema.parse({ POLICY_NOT_ACTIVE: "on", EXTRA: "x" })).toEqual({ POLICY_NOT_ACTIVE: "on" });
    expect(Object.keys(settingsToForm(settingsInput(null))).sort()).toEqual([...POLICY_CHECK_FIELD_NAMES].sort());
  });
});
