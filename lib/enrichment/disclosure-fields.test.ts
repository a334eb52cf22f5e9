import { describe, expect, it } from "vitest";
import { disclosureInputSchema } from "./disclosure-fields";

// The export form's two DPPA fields, as a command reads them.

describe("the disclosure fields of an export of driver data", () => {
  it("take an agency's permissible purpose and a recipient, empty meaning internal use", () => {
    expect(disclosureInputSchema.parse({ purpose: "WRITTEN_CONSENT", recipient: " Acme Insurance " })).toEqual({
      purpose: "WRITTEN_CONSENT",
      recipient: "Acme Insurance",
    });
    expect(disclosureInputSchema.parse({ purpose: "INSURANCE_UNDERWRITING", recipient: "" })).toEqual({
      purpose: "INSURANCE_UNDERWRITING",
      recipient: "internal use",
    });
  });

  it("refuse no purpose, a purpose not an agency's to claim, and a recipient too long, in words", () => {
    const refusal = (input: Record<string, unknown>) =>
      disclosureInputSchema.safeParse(input).error?.issues[0]?.message;
    expect(refusal({ recipient: "x" })).toMatch(/permissible purpose/);
    expect(refusal({ purpose: "LICENSED_INVESTIGATOR" })).toMatch(/permissible purpose/);
    expect(refusal({ purpose: "WRITTEN_CONSENT", recipient: "x".repeat(201) })).toMatch(/at most 200/);
  });
});
