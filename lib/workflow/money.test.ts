import { describe, expect, it } from "vitest";
import { parseDollarsToCents } from "./money";

describe("premium input", () => {
  it("reads dollars and cents exactly, with or without $ and thousands separators", () => {
    expect(parseDollarsToCents("1,234.56")).toEqual({ ok: true, cents: 123_456 });
    expect(parseDollarsToCents(" $980 ")).toEqual({ ok: true, cents: 98_000 });
    expect(parseDollarsToCents("0.29")).toEqual({ ok: true, cents: 29 });
    expect(parseDollarsToCents("12.5")).toEqual({ ok: true, cents: 1_250 });
  });

  it("refuses zero, negatives, words, three decimals and absurd amounts", () => {
    for (const bad of ["0", "0.00", "-12", "twelve", "12.345", "", "1e5", "12..3"])
      expect(parseDollarsToCents(bad).ok, bad).toBe(false);
    expect(parseDollarsToCents("0")).toMatchObject({ message: "A won premium must be more than $0." });
    expect(parseDollarsToCents("999999999999")).toMatchObject({ message: "That premium is too large." });
  });
});
