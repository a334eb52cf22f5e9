import { describe, expect, it } from "vitest";
import { rangeOf } from "./report-filter";
import { spansOf } from "./sources-from-rollups";

// A range read from the sums: its whole months from the month rows, the days at its ends from
// the day rows, every day once. (The sums themselves are checked against the pulls in
// ./rollup-reconcile.test.ts.)

const d = (day: string) => new Date(`${day}T00:00:00Z`);
const spans = (from?: string, to?: string) => {
  const { start, end } = rangeOf({ from, to });
  const { months, days } = spansOf(start, end);
  const text = (x: Date | null) => x?.toISOString().slice(0, 10) ?? null;
  return { months: months && months.map(text), days: days.map((s) => s.map(text)) };
};

describe("spansOf", () => {
  it("reads all time from the months alone", () => {
    expect(spans()).toEqual({ months: [null, null], days: [] });
  });

  it("reads whole months from the months, and the ends of a range from the days", () => {
    expect(spans("2026-03-15", "2026-05-10")).toEqual({
      months: ["2026-04-01", "2026-05-01"],
      days: [
        ["2026-03-15", "2026-04-01"],
        ["2026-05-01", "2026-05-11"],
      ],
    });
    expect(spans("2026-02-01", "2026-05-31")).toEqual({ months: ["2026-02-01", "2026-06-01"], days: [] });
    expect(spans(undefined, "2026-04-03")).toEqual({
      months: [null, "2026-04-01"],
      days: [["2026-04-01", "2026-04-04"]],
    });
    expect(spans("2026-12-20")).toEqual({ months: ["2027-01-01", null], days: [["2026-12-20", "2027-01-01"]] });
  });

  it("reads a range inside one month from its days", () => {
    expect(spans("2026-04-10", "2026-04-20")).toEqual({ months: null, days: [["2026-04-10", "2026-04-21"]] });
    expect(spans("2026-04-01", "2026-04-30")).toEqual({ months: ["2026-04-01", "2026-05-01"], days: [] });
  });

  it("reads an empty or backward range as no day at all", () => {
    const { months, days } = spansOf(d("2026-04-20"), d("2026-04-10"));
    expect(months).toBeNull();
    expect(days).toEqual([[d("2026-04-20"), d("2026-04-10")]]);
  });
});
