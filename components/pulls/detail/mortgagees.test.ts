import { describe, expect, it } from "vitest";
import { parsePull, type Dwelling } from "@/lib/service/schemas";
import { mortgageeRows } from "./mortgagees";

function dwellingOf(raw: Record<string, unknown>): Dwelling {
  const parsed = parsePull({
    pull_id: "6f1c1b1e-1d2b-4c3a-9e8f-0a1b2c3d4e5f",
    policies: [{ policy_id: "p1", dwellings: [{ dwelling_id: "d1", ...raw }] }],
  });
  const dwelling = parsed.ok ? parsed.pull.policies[0]?.dwellings[0] : undefined;
  if (!dwelling) throw new Error("no dwelling");
  return dwelling;
}

describe("mortgagees", () => {
  it("lists the mortgagees, and ignores the deprecated fields when the list has them", () => {
    const dwelling = dwellingOf({
      mortgagees: [
        {
          mortgagee_id: "m1",
          name: "PennyMac",
          loan_number: "123",
          address: { full_address: "1 Bank St, Austin, TX" },
        },
        { name: "U.S. Bank" },
      ],
      mortgagee_name: "Old Bank",
    });
    expect(mortgageeRows(dwelling)).toEqual({
      rows: [
        { key: "m1", name: "PennyMac", loanNumber: "123", address: "1 Bank St, Austin, TX" },
        { key: "1", name: "U.S. Bank", loanNumber: null, address: "—" },
      ],
      fromDeprecatedFields: false,
    });
  });

  it("falls back on the deprecated single-mortgagee fields", () => {
    const dwelling = dwellingOf({
      mortgagee_name: "Metropolis Bank",
      mortgage_loan_number: "123456789",
      mortgagee_address: { full_address: "620 Atlantic Avenue, Brooklyn, NY, 11217" },
    });
    expect(mortgageeRows(dwelling)).toEqual({
      rows: [
        {
          key: "deprecated",
          name: "Metropolis Bank",
          loanNumber: "123456789",
          address: "620 Atlantic Avenue, Brooklyn, NY, 11217",
        },
      ],
      fromDeprecatedFields: true,
    });
    expect(mortgageeRows(dwellingOf({}))).toEqual({ rows: [], fromDeprecatedFields: false });
  });
});
